import { type AnimResource, type FormatHandler, findHandler, type OpenInput } from 'animcore';

/** A file as the viewer gets it: from the file picker, a drop, or a fetched URL. */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** An opened file set: the file the handler read, the handler and the resource. */
export interface OpenedSet {
  primary: string;
  handler: FormatHandler;
  resource: AnimResource;
}

/** Handlers that open a set from its other files come first (an AAF scene binds its animation). */
const PREFERENCE = ['aaf-scene', 'meteor', 'nebula', 'mrtk', 'aaf-animation'];

/**
 * Opens a set of files as the CLI opens one file with its siblings: every file is tried for a
 * format by content (`findHandler`); the one whose handler comes first in PREFERENCE is opened,
 * and the others are its siblings by name (case-insensitive: `p0.amb` with `P0.bnc`).
 * @throws the reader's FormatError, or an Error when no file is of a known format
 */
export function openFileSet(files: readonly NamedBytes[]): OpenedSet {
  const candidates = files.flatMap((file) => {
    try {
      return [{ file, handler: findHandler(file.bytes, file.name) }];
    } catch {
      return [];
    }
  });
  candidates.sort((a, b) => PREFERENCE.indexOf(a.handler.id) - PREFERENCE.indexOf(b.handler.id));
  const chosen = candidates[0];
  if (chosen === undefined) throw new Error(`none of ${files.map((f) => f.name).join(', ')} is of a known format`);
  const input: OpenInput = {
    path: chosen.file.name,
    bytes: chosen.file.bytes,
    sibling(name) {
      const lower = name.toLowerCase();
      return files.find((f) => f !== chosen.file && f.name.toLowerCase() === lower)?.bytes;
    },
    companions: {},
  };
  return { primary: chosen.file.name, handler: chosen.handler, resource: chosen.handler.open(input) };
}

/** Fetches `urls` as named files (the name is the URL's last path segment). */
export async function fetchFiles(urls: readonly string[]): Promise<NamedBytes[]> {
  return Promise.all(
    urls.map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return { name: decodeURIComponent(new URL(url, location.href).pathname.split('/').pop()!), bytes: new Uint8Array(await response.arrayBuffer()) };
    }),
  );
}

/** Reads picked or dropped `File`s. */
export async function readFiles(files: ArrayLike<File>): Promise<NamedBytes[]> {
  return Promise.all(Array.from(files, async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
}
