import type { ResourceRead } from '../companions.js';
import { BufferUtils } from '@gltf-transform/core';
import { shorten } from '../text.js';
import { array, fail, integer, type JsonObject, object, optionalString } from './json-fields.js';
import { decodeMeshoptFallbacks, isMeshoptFallback } from './meshopt.js';

/** Characters of a URI an error message shows: whole paths, but one line whatever the file holds. */
export const URI_MAX = 200;

/**
 * Reads a file a glTF document names by relative URI (an external `.bin` buffer, an image), given
 * the URI with its percent-escapes decoded; `undefined` when there is no such file, `{ refused }`
 * (why, after the URI) when the reader will not read it (`openFile`'s `root`).
 */
export type GltfResourceReader = (uri: string) => ResourceRead | Promise<ResourceRead>;

/**
 * The bytes of every buffer of the document (glTF 2.0 §3.6.1): the GLB `BIN` chunk for a buffer
 * without `uri` in a `.glb`, a decoded `data:` URI, or the file `readResource` returns; a meshopt
 * fallback buffer without `uri` is its compressed views decoded (`decodeMeshoptFallbacks`). Each
 * holds at least `byteLength` bytes (a GLB chunk may add up to 3 bytes of padding; a longer one is
 * reported in `warnings`).
 * @throws FormatError naming `/buffers/<i>` (or its `uri`) for a missing or short buffer, or the
 *   view whose compressed data is wrong
 */
export async function readBuffers(json: JsonObject, bin: Uint8Array | undefined, readResource: GltfResourceReader | undefined, warnings: string[]): Promise<Uint8Array[]> {
  const defs = array(json.buffers, '/buffers');
  const out: (Uint8Array | undefined)[] = [];
  const fallbacks = new Map<number, number>();
  for (let i = 0; i < defs.length; i++) {
    const pointer = `/buffers/${i}`;
    const def = object(defs[i], pointer);
    const byteLength = integer(def.byteLength, `${pointer}/byteLength`, 1);
    const uri = optionalString(def.uri, `${pointer}/uri`);
    let bytes: Uint8Array | undefined;
    if (uri === undefined && isMeshoptFallback(def, pointer)) {
      fallbacks.set(i, byteLength);
      out.push(undefined);
      continue;
    } else if (uri === undefined) {
      if (i !== 0 || bin === undefined) fail(pointer, 'a buffer without `uri` must be buffer 0 of a .glb with a BIN chunk', 'missing-resource');
      // §4.4.3.3 allows 3 bytes of padding; more is a validator warning, and three.js and glTF-Transform read the buffer.
      if (bin.length > byteLength + 3) warnings.push(`${pointer}/byteLength: the BIN chunk holds ${bin.length} bytes, more than byteLength ${byteLength} plus up to 3 bytes of padding (glTF 2.0 §4.4.3.3); the rest is not read`);
      bytes = bin;
    } else if (uri.startsWith('data:')) {
      bytes = decodeDataUri(uri, `${pointer}/uri`);
    } else {
      bytes = await readResourceUri(uri, `${pointer}/uri`, readResource);
      if (bytes === undefined) fail(`${pointer}/uri`, `buffer file "${shorten(uri, URI_MAX)}" not found`, 'missing-resource');
    }
    const what = uri === undefined || uri.startsWith('data:') ? 'buffer' : `buffer file "${shorten(uri, URI_MAX)}"`;
    if (bytes.length < byteLength) fail(`${pointer}/byteLength`, `${what} holds ${bytes.length} bytes, byteLength says ${byteLength}`, 'truncated');
    out.push(bytes);
  }
  if (fallbacks.size === 0) return out as Uint8Array[];
  const decoded = await decodeMeshoptFallbacks(json, out, fallbacks);
  return out.map((bytes, i) => bytes ?? decoded.get(i)!);
}

/**
 * The bytes of a `data:` URI (RFC 2397, which glTF 2.0 §3.3 names): base64 after `;base64,` (any case), else
 * percent-escaped bytes, other characters standing for themselves (their UTF-8 bytes). The media
 * type is not checked. Both forms are what the Khronos validator accepts and three.js (`fetch`) reads.
 * @throws FormatError at `pointer` for a URI without a comma, a bad escape or bad base64
 */
export function decodeDataUri(uri: string, pointer: string): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0) fail(pointer, 'a data: URI is data:[<type>][;base64],<data> (RFC 2397); found no comma', 'bad-uri');
  // `;base64` in any case (a token, as fetch reads it); glTF-Transform's decoder looks for it in lower case only.
  if (/;base64$/i.test(uri.slice(0, comma))) {
    try {
      return BufferUtils.createBufferFromDataURI(`data:;base64,${uri.slice(comma + 1)}`);
    } catch {
      fail(pointer, 'the data: URI is not valid base64', 'bad-uri');
    }
  }
  const text = new TextEncoder().encode(uri.slice(comma + 1));
  const out = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== 0x25) out[n++] = text[i]!;
    else {
      const hex = String.fromCharCode(text[i + 1] ?? 0, text[i + 2] ?? 0);
      if (!/^[0-9a-f]{2}$/i.test(hex)) fail(pointer, `the data: URI has a bad escape at data character ${i} (expected % and two hex digits)`, 'bad-uri');
      out[n++] = parseInt(hex, 16);
      i += 2;
    }
  }
  return out.subarray(0, n);
}

/**
 * The relative file path a URI names (percent-escapes decoded), or why it names none: `data:` and
 * other schemes, a bad escape, an absolute path (glTF 2.0 §3.3 resolves URIs against the document;
 * an absolute one would read any file the process can). Climbing with `..` is the reader's call
 * (`openFile`'s `root`).
 */
export function uriPath(uri: string): { path: string } | { scheme: string } | { invalid: true } | { absolute: true } {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1];
  if (scheme !== undefined) return { scheme };
  try {
    const path = decodeURIComponent(uri);
    return /^[\\/]/.test(path) ? { absolute: true } : { path };
  } catch {
    return { invalid: true };
  }
}

/**
 * The file behind a relative URI (percent-escapes decoded): its bytes, undefined when there is no
 * such file, or `{ refused }` saying why the URI names no file animcore reads (another scheme, a
 * bad escape, an absolute path: `uriPath`; a path the reader refuses, such as one out of
 * `openFile`'s `root`).
 */
export async function resolveResourceUri(uri: string, readResource: GltfResourceReader | undefined): Promise<ResourceRead> {
  const named = uriPath(uri);
  const quoted = `"${shorten(uri, URI_MAX)}"`;
  if ('scheme' in named) return { refused: `only relative file URIs and data: URIs are read, not ${quoted}` };
  if ('invalid' in named) return { refused: `${quoted} is not a valid URI` };
  if ('absolute' in named) return { refused: `${quoted} is an absolute path; only relative file URIs and data: URIs are read` };
  if (readResource === undefined) return undefined;
  const bytes = await readResource(named.path);
  return bytes !== undefined && 'refused' in bytes ? { refused: `${quoted} ${bytes.refused}` } : bytes;
}

/** `resolveResourceUri` for a file the document cannot do without (a buffer). @throws FormatError at `pointer` when the URI is refused */
export async function readResourceUri(uri: string, pointer: string, readResource: GltfResourceReader | undefined): Promise<Uint8Array | undefined> {
  const bytes = await resolveResourceUri(uri, readResource);
  if (bytes !== undefined && 'refused' in bytes) fail(pointer, bytes.refused, 'bad-uri');
  return bytes;
}
