import type { NamedBytes } from 'animcore';

// File sets open with animcore's `openFileSet` (pairing and handler order come from its format registry).
export { type NamedBytes, openFileSet } from 'animcore';

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
