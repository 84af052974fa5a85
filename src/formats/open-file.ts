import type { Folder } from './companions.js';
import { type OpenedFormatFile, openFormatFile } from './open-files.js';
import type { Detection } from './registry.js';

/** Options of `openFile`. */
export interface OpenFileOptions {
  /** A handler id (`FORMAT_HANDLERS[i].id`, as `--format` takes it) instead of detection by content. */
  format?: string;
  /** Companion files by role (`skeleton`, `bnc`, `pos`, `skc`, `characterAmb`, `scene`, `animation`) as paths. */
  companions?: Readonly<Record<string, string>>;
  /** The file's detection when already made (a folder walk): it is not detected (parsed) again. */
  detection?: Detection;
  /** Reads a whole file; default `fs.readFileSync`. The CLI passes one that reads regular files only, up to a size limit. */
  read?: (path: string) => Uint8Array;
  /**
   * The folder that files the document names by relative path (a glTF's buffers and images) must
   * lie in once `..` is applied; one outside it is refused (a buffer: FormatError `bad-uri`; an
   * image: left out with a warning), so a hostile `.gltf` cannot make a batch read and copy
   * `../../../etc/passwd`. Default: no limit but relative paths, as glTF-Transform's `NodeIO` reads
   * them. The CLI passes the walked folder (or a glob's fixed prefix), or the folder of a file it
   * names directly.
   */
  root?: string;
}

/** What `openFile` opened: `openFormatFile`'s result and the path. */
export interface OpenedFile extends OpenedFormatFile {
  path: string;
}

/**
 * Node only (reads with `node:fs`): opens the file at `path` with `openFormatFile`, its format
 * detected by content (or `options.format`), its companions named by role in `options.companions`
 * (paths) or found beside it by name, case-insensitively, as the CLI finds them (`dir/p0.amb`
 * reads `dir/P0.bnc`, `dir/P0.pos`, and `dir/p0.skc`, `dir/character.amb` when present); files
 * the input names by a relative path with folders (a glTF's `textures/skin.png`) are read from
 * there. The
 * folder is listed only when a companion is looked for. `companions` of the result says which
 * files were used and where they came from.
 * @throws the file system's error when a file cannot be read; FormatError (code `unrecognised`)
 *   for a file of no known format and the reader's FormatError for bad bytes (offset or line);
 *   UsageError for an unknown `format` or a missing required companion
 */
export async function openFile(path: string, options: OpenFileOptions = {}): Promise<OpenedFile> {
  // A computed specifier keeps browser bundlers from resolving node:fs for the whole library.
  const fsModule = 'node:fs';
  const pathModule = 'node:path';
  const fs = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs');
  const { isAbsolute, join, relative, resolve, sep } = (await import(/* @vite-ignore */ pathModule)) as typeof import('node:path');
  const read = options.read ?? ((p: string) => new Uint8Array(fs.readFileSync(p)));
  const dir = path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1); // '' or ending in a separator
  let names: string[] | undefined;
  const folder: Folder = {
    names: () => (names ??= fs.readdirSync(dir || '.')),
    read: (name) => read(dir + name),
    // Relative paths only, as glTF's URIs are (an absolute one names no file of the set), inside `root` when given.
    readPath: (rel) => {
      if (isAbsolute(rel)) return undefined;
      const target = join(dir, rel);
      if (options.root !== undefined) {
        const inside = relative(resolve(options.root), resolve(target));
        if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return { refused: `is outside ${options.root}, the folder files may be read from` };
      }
      return fs.existsSync(target) ? read(target) : undefined;
    },
  };
  const companions = Object.fromEntries(Object.entries(options.companions ?? {}).map(([role, file]) => [role, { file, bytes: read(file) }]));
  const opened = await openFormatFile({ name: path, bytes: read(path) }, {
    folder,
    companions,
    ...(options.format !== undefined && { format: options.format }),
    ...(options.detection && { detection: options.detection }),
  });
  return { ...opened, path };
}
