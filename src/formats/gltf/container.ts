import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { FormatError } from '../../errors.js';
import { ByteReader } from '../binary.js';

/** GLB magic `glTF` and chunk types (glTF 2.0 §4.4 "Binary glTF Layout"), little-endian u32s. */
const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

/**
 * JSON nested deeper than this is refused: an implementation limit (serde_json's default), far
 * beyond any glTF (about 8 levels, plus what `extras` hold), so that nothing later — the syntax
 * error's locator, the writers' `JSON.stringify` of kept `extras` — recurses out of stack.
 */
export const MAX_JSON_DEPTH = 128;

/** A glTF file split into its JSON document and, for `.glb`, the binary chunk. */
export interface GltfContainer {
  readonly container: 'glb' | 'gltf';
  /** The parsed JSON document (not yet checked against the schema). */
  readonly json: unknown;
  /** The GLB `BIN` chunk's data (buffer 0 when that buffer has no `uri`), if any. */
  readonly bin: Uint8Array | undefined;
  /** Byte offset of the JSON text in the file (0 for `.gltf`, 20 for `.glb`). */
  readonly jsonOffset: number;
  /** What was read past, e.g. bytes after the GLB header's length; `openGltf` reports them with its own. */
  readonly warnings?: readonly string[];
}

/** Whether `bytes` start with the GLB magic. */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

/**
 * Whether `bytes` look like glTF JSON: the first character that is not whitespace (after an
 * optional UTF-8 byte order mark) is `{` and the first 64 KiB name an `"asset"` property.
 */
export function looksLikeGltfJson(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '');
  return /^\s*\{/.test(head) && head.includes('"asset"');
}

/**
 * Splits a `.glb` (glTF 2.0 §4.4: 12-byte header, a JSON chunk, an optional BIN chunk second;
 * chunks of unknown type are skipped, as §4.4.3 asks) or reads a `.gltf` (UTF-8 JSON) and parses
 * its JSON. A UTF-8 byte order mark before the JSON is skipped (three.js's `TextDecoder` does; the
 * spec forbids one, the validator reports it); byte offsets still count it.
 * Bytes after the header's length are not read and reported in `warnings`.
 * @throws FormatError (format `gltf`) with the byte offset for a bad header, a truncated file or
 *   chunk, a length field longer than the file or shorter than the header, a BIN chunk that is not the second chunk,
 *   or JSON that does not parse (a JSON chunk padded with 0x00, not spaces, says so)
 */
export function readGltfContainer(bytes: Uint8Array): GltfContainer {
  if (!isGlb(bytes)) return { container: 'gltf', json: parseJson(bytes, 0), bin: undefined, jsonOffset: 0 };
  const header = new ByteReader(bytes, 'gltf');
  header.u32('GLB magic');
  const version = header.u32('GLB version');
  if (version !== 2) header.fail('bad-version', `GLB version ${version}; only glTF 2.0 (version 2) is read`, 4);
  const length = header.u32('GLB length');
  if (length > bytes.length) header.fail('truncated', `the GLB header says ${length} bytes, the file has ${bytes.length}`, bytes.length);
  if (length < header.offset) header.fail('bad-length', `the GLB header says ${length} bytes, fewer than the header's own ${header.offset}`, 8);
  const warnings: string[] = [];
  // Bytes after the header's length: the validator's GLB_EXTRA_DATA is a warning, and glTF-Transform reads up to the length.
  if (length < bytes.length) warnings.push(`the GLB header says ${length} bytes, the file has ${bytes.length}; the ${bytes.length - length} bytes from byte ${length} on are not read (glTF 2.0 §4.4.2)`);
  const r = new ByteReader(bytes.subarray(0, length), 'gltf');
  r.seek(header.offset, 'GLB chunks');
  let json: unknown;
  let bin: Uint8Array | undefined;
  let jsonOffset = 0;
  for (let chunk = 0; r.remaining > 0; chunk++) {
    const at = r.offset;
    const chunkLength = r.u32(`chunk ${chunk} length`);
    const type = r.u32(`chunk ${chunk} type`);
    if (chunkLength > r.remaining) r.fail('truncated', `chunk ${chunk} says ${chunkLength} bytes, ${r.remaining} remain`, at);
    const data = bytes.subarray(r.offset, r.offset + chunkLength);
    if (chunk === 0) {
      if (type !== CHUNK_JSON) r.fail('bad-chunk', `the first chunk must be JSON (type 0x4E4F534A), found 0x${type.toString(16).toUpperCase()}`, at + 4);
      jsonOffset = r.offset;
      json = parseJson(data, jsonOffset);
    } else if (type === CHUNK_BIN) {
      // §4.4.3.3: the BIN chunk, when present, is the second; GLB readers find buffer 0 there.
      if (chunk !== 1) r.fail('bad-chunk', `chunk ${chunk} is a BIN chunk; the BIN chunk must be the second chunk (glTF 2.0 §4.4.3.3)`, at + 4);
      bin = data;
    }
    r.skip(chunkLength, `chunk ${chunk}`);
  }
  if (json === undefined) r.fail('truncated', 'the GLB has no JSON chunk', 12);
  return { container: 'glb', json, bin, jsonOffset, warnings };
}

/**
 * The JSON document of UTF-8 text starting at byte `offset` of the file. A syntax error is a
 * `FormatError` at the byte offset where the text stops being JSON (located with jsonc-parser in
 * strict mode: no comments, no trailing commas); so is nesting deeper than `MAX_JSON_DEPTH`, at
 * the bracket that opens the level too many.
 */
function parseJson(bytes: Uint8Array, offset: number): unknown {
  // The BOM kept in the text (ignoreBOM), so that counting the text before a character gives its byte.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const bad = firstInvalidUtf8(bytes, text);
  if (bad >= 0) throw new FormatError('gltf', 'bad-utf8', { offset: offset + bad }, 'the glTF JSON is not UTF-8 (glTF 2.0 §3.1)');
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const body = text.slice(bom);
  const byteAt = (char: number) => offset + new TextEncoder().encode(text.slice(0, bom + char)).length;
  const tooDeep = (char: number) =>
    new FormatError('gltf', 'bad-json', { offset: byteAt(char) }, `the glTF JSON nests deeper than ${MAX_JSON_DEPTH} levels (an animcore limit)`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // jsonc-parser's parser recurses: locate a too-deep bracket first, with its scanner.
    const deep = tooDeepAt(body);
    if (deep >= 0) throw tooDeep(deep);
    const errors: ParseError[] = [];
    parse(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const why = first ? printParseErrorCode(first.error) : 'not JSON';
    const at = first?.offset ?? body.length;
    // Writers that pad the GLB JSON chunk with zeros: §4.4.3.2 asks for spaces, and JSON.parse refuses NUL.
    const padding = /^\0+$/.test(body.slice(at)) ? '; the JSON chunk is padded with 0x00 where glTF 2.0 §4.4.3.2 requires spaces (0x20)' : '';
    throw new FormatError('gltf', 'bad-json', { offset: byteAt(at) }, `the glTF JSON does not parse (${why})${padding}`);
  }
  if (depthOf(json) > MAX_JSON_DEPTH) throw tooDeep(tooDeepAt(body));
  return json;
}

/**
 * How deeply `value` nests arrays and objects (a scalar: 0), without recursion: a stack of the
 * objects still to visit beside one of their depths, scalars never pushed (a pair per value and
 * an `Object.values` array per object were most of the walk, which is a few percent of opening
 * the gltf-resample file).
 */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const objects: object[] = [value];
  const depths: number[] = [1];
  while (objects.length > 0) {
    const v = objects.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) deepest = depth;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'object' && child !== null) {
          objects.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in v) {
        const child = (v as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          objects.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return deepest;
}

/**
 * The index in `text` of the bracket that opens nesting level `MAX_JSON_DEPTH + 1`, or −1: brackets
 * counted outside strings (a backslash escapes the next character), whether or not the text is JSON.
 */
function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

/**
 * The byte offset of the first byte of `bytes` that is not UTF-8, or −1: the first U+FFFD of the
 * decoded `text` that the file does not spell as EF BF BD. Byte offsets of syntax errors are
 * counted by re-encoding the text before them, which only holds for valid UTF-8.
 */
function firstInvalidUtf8(bytes: Uint8Array, text: string): number {
  const encoder = new TextEncoder();
  let from = 0;
  let byte = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) {
    byte += encoder.encode(text.slice(from, i)).length;
    from = i;
    if (!(bytes[byte] === 0xef && bytes[byte + 1] === 0xbf && bytes[byte + 2] === 0xbd)) return byte;
  }
  return -1;
}
