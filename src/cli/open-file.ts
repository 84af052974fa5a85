import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AnimResource } from '../anim/index.js';
import type { CompanionUse, Folder } from '../formats/companions.js';
import type { FormatHandler } from '../formats/handler.js';
import { openFormatFile } from '../formats/open-files.js';
import type { Detection } from '../formats/registry.js';
import { DEFAULT_MAX_INPUT_MB, readInputFile } from './read-input.js';

/** A file opened by the CLI: the handler that read it, the resource and the companions used. */
export interface OpenedFile {
  path: string;
  handler: FormatHandler;
  resource: AnimResource;
  /** Bytes read from the named file. */
  bytes: number;
  companions: CompanionUse[];
}

/** The folder of `path` on disk, listed once and only when a companion is looked for; files read with `readInputFile`. */
export function folderOf(path: string, maxInputBytes: number): Folder {
  const dir = dirname(path);
  let names: string[] | null = null;
  return {
    names: () => (names ??= readdirSync(dir)),
    read: (name) => readInputFile(join(dir, name), maxInputBytes),
  };
}

/** How the CLI opens a file. */
export interface OpenFileOptions {
  /** Companion files named by role (paths). */
  companions?: Readonly<Record<string, string>>;
  /** `--format`: skip detection. */
  format?: string;
  /** The detection a folder walk made (not detected again). */
  detection?: Detection;
  /** Largest file read, in bytes (`--max-input-mb`); default `DEFAULT_MAX_INPUT_MB` MiB. */
  maxInputBytes?: number;
}

/**
 * Reads `path` (`readInputFile`: regular files only, up to the size limit) and opens it with
 * `openFormatFile`: its format detected by content (or `format`, or the walk's `detection`),
 * companions named by role in `companions` or found beside it by name, case-insensitively.
 * @throws the reader's FormatError on bad bytes, UsageError for an unknown format id or a missing
 *   required companion, InputError for a file that is not read, and the file system's errors
 */
export async function openFile(path: string, options: OpenFileOptions = {}): Promise<OpenedFile> {
  const max = options.maxInputBytes ?? DEFAULT_MAX_INPUT_MB * 1024 * 1024;
  const bytes = readInputFile(path, max);
  const given = Object.fromEntries(Object.entries(options.companions ?? {}).map(([role, file]) => [role, { file, bytes: readInputFile(file, max) }]));
  const opened = await openFormatFile(
    { name: path, bytes },
    { folder: folderOf(path, max), companions: given, ...(options.format !== undefined && { format: options.format }), ...(options.detection && { detection: options.detection }) },
  );
  return { path, ...opened, bytes: bytes.byteLength };
}
