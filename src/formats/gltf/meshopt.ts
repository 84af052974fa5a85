import { array, describe, fail, index, integer, type JsonObject, object, string } from './json-fields.js';

/**
 * Buffer views compressed with meshoptimizer's codecs: `EXT_meshopt_compression` (gltfpack `-c`,
 * `-cc`; glTF-Transform `meshopt()`) and `KHR_meshopt_compression` (gltfpack `-ce khr`), the same
 * fields on a view, decoded by meshoptimizer's own decoder (the one three.js and glTF-Transform
 * use). Their data is decoded when the file is read, so everything after sees plain views.
 */
export const MESHOPT_EXTENSIONS: readonly string[] = ['EXT_meshopt_compression', 'KHR_meshopt_compression'];

const MODES = ['ATTRIBUTES', 'TRIANGLES', 'INDICES'];
/** Filters and the byte strides each allows (both extensions' specifications; COLOR is KHR's, and meshoptimizer decodes it under either name). */
const FILTER_STRIDES: Readonly<Record<string, (stride: number) => boolean>> = {
  NONE: () => true,
  OCTAHEDRAL: (s) => s === 4 || s === 8,
  QUATERNION: (s) => s === 8,
  EXPONENTIAL: (s) => s % 4 === 0,
  COLOR: (s) => s === 4 || s === 8,
};

/** The meshopt extension object of a buffer or buffer view, and its name. */
function meshoptExtension(def: JsonObject, pointer: string): { name: string; ext: JsonObject } | undefined {
  const extensions = def.extensions;
  if (extensions === undefined) return undefined;
  const all = object(extensions, `${pointer}/extensions`);
  for (const name of MESHOPT_EXTENSIONS) if (all[name] !== undefined) return { name, ext: object(all[name], `${pointer}/extensions/${name}`) };
  return undefined;
}

/** Whether buffer `def` is a meshopt fallback buffer: its views' data is the compressed data, decoded, and it may have no `uri` (no bytes of its own). */
export function isMeshoptFallback(def: JsonObject, pointer: string): boolean {
  return meshoptExtension(def, pointer)?.ext.fallback === true;
}

/** One compressed view: `count` elements of `stride` bytes from `source`, decoded into bytes `offset` to `offset + count × stride` of fallback buffer `buffer`. */
interface CompressedView {
  readonly pointer: string;
  readonly buffer: number;
  readonly offset: number;
  readonly source: Uint8Array;
  readonly count: number;
  readonly stride: number;
  readonly mode: string;
  readonly filter: string;
}

/**
 * The bytes of the fallback buffers without `uri` (`fallbacks`: buffer index → byteLength): each
 * compressed view into one decoded into its place. The buffers a view's compressed data lies in
 * are `buffers` (`undefined` at the fallbacks). A fallback buffer holding data (a `uri`: gltfpack
 * `-cf`) is read as it is, the same bytes uncompressed.
 *
 * Every count and length is checked against the compressed bytes before anything is allocated:
 * a meshopt stream decodes to at most 1,024 bytes per byte (vertex codec version 1, a block of 256
 * zero vertices per control byte; 64 for version 0), 12 bytes per byte for TRIANGLES (one code
 * byte per triangle of three 4-byte indices) and 4 for INDICES (a varint per index), so a 300-byte
 * file cannot ask for gigabytes; a fallback buffer may not be longer than the views decoded into it.
 * @throws FormatError naming the JSON pointer of the view (or buffer) whose fields or stream are wrong
 */
export async function decodeMeshoptFallbacks(json: JsonObject, buffers: readonly (Uint8Array | undefined)[], fallbacks: ReadonlyMap<number, number>): Promise<Map<number, Uint8Array>> {
  const views = array(json.bufferViews, '/bufferViews');
  const planned: CompressedView[] = [];
  const decodedBytes = new Map<number, number>();
  for (let i = 0; i < views.length; i++) {
    const p = `/bufferViews/${i}`;
    const view = object(views[i], p);
    const buffer = index(view.buffer, `${p}/buffer`, buffers.length, 'buffers');
    if (!fallbacks.has(buffer)) continue;
    const found = meshoptExtension(view, p);
    if (found === undefined) fail(p, `a view of buffer ${buffer}, a fallback buffer without uri (no data of its own), must be meshopt-compressed`, 'missing-resource');
    const q = `${p}/extensions/${found.name}`;
    const { ext } = found;
    const length = integer(view.byteLength, `${p}/byteLength`, 1);
    const offset = integer(view.byteOffset, `${p}/byteOffset`, 0, undefined, 0);
    if (offset + length > fallbacks.get(buffer)!) fail(p, `bytes ${offset} to ${offset + length} lie outside buffer ${buffer} (${fallbacks.get(buffer)!} bytes)`, 'out-of-range');
    const from = index(ext.buffer, `${q}/buffer`, buffers.length, 'buffers');
    const data = buffers[from];
    if (data === undefined) fail(`${q}/buffer`, `buffer ${from} is a fallback buffer without data; compressed data must lie in a buffer that holds bytes`, 'bad-index');
    const sourceOffset = integer(ext.byteOffset, `${q}/byteOffset`, 0, undefined, 0);
    const sourceLength = integer(ext.byteLength, `${q}/byteLength`, 1);
    const declared = integer((json.buffers as JsonObject[])[from]!.byteLength, `/buffers/${from}/byteLength`, 1);
    if (sourceOffset + sourceLength > declared) fail(q, `compressed bytes ${sourceOffset} to ${sourceOffset + sourceLength} lie outside buffer ${from} (${declared} bytes)`, 'out-of-range');
    const mode = string(ext.mode, `${q}/mode`);
    if (!MODES.includes(mode)) fail(`${q}/mode`, `mode ${describe(mode)}; expected ATTRIBUTES, TRIANGLES or INDICES`);
    const filter = ext.filter === undefined ? 'NONE' : string(ext.filter, `${q}/filter`);
    const stride = integer(ext.byteStride, `${q}/byteStride`, 1, 256);
    const count = integer(ext.count, `${q}/count`, 1);
    if (mode === 'ATTRIBUTES' ? stride % 4 !== 0 : stride !== 2 && stride !== 4) fail(`${q}/byteStride`, `byteStride ${stride} for ${mode}; expected ${mode === 'ATTRIBUTES' ? 'a multiple of 4 up to 256' : '2 or 4'}`);
    const strideOk = FILTER_STRIDES[filter];
    if (strideOk === undefined) fail(`${q}/filter`, `filter ${describe(filter)}; expected NONE, OCTAHEDRAL, QUATERNION, EXPONENTIAL or COLOR`);
    if (filter !== 'NONE' && mode !== 'ATTRIBUTES') fail(`${q}/filter`, `filter ${filter} applies to ATTRIBUTES only, not ${mode}`);
    if (!strideOk(stride)) fail(`${q}/byteStride`, `byteStride ${stride} is not one filter ${filter} decodes`);
    if (mode === 'TRIANGLES' && count % 3 !== 0) fail(`${q}/count`, `${count} indices are not whole triangles`, 'bad-count');
    if (count * stride !== length) fail(`${q}/count`, `${count} elements of ${stride} bytes are ${count * stride} bytes; the view has ${length}`, 'bad-count');
    const source = data.subarray(sourceOffset, sourceOffset + sourceLength);
    const perByte = mode === 'INDICES' ? 4 : mode === 'TRIANGLES' ? 12 : source[0] === 0xa0 ? 64 : 1024;
    if (length > perByte * sourceLength) fail(`${q}/byteLength`, `${sourceLength} compressed bytes cannot hold ${length} bytes of ${mode} (at most ${perByte} per byte)`, 'bad-count');
    decodedBytes.set(buffer, (decodedBytes.get(buffer) ?? 0) + length + 3);
    planned.push({ pointer: q, buffer, offset, source, count, stride, mode, filter });
  }
  const out = new Map<number, Uint8Array>();
  for (const [b, byteLength] of fallbacks) {
    if (byteLength > (decodedBytes.get(b) ?? 0)) fail(`/buffers/${b}/byteLength`, `fallback buffer of ${byteLength} bytes, more than its compressed views decode to (${decodedBytes.get(b) ?? 0} with padding)`, 'size-mismatch');
    out.set(b, new Uint8Array(byteLength));
  }
  if (planned.length === 0) return out;
  const decoder = await meshoptDecoder();
  for (const v of planned) decodeView(decoder, v, out.get(v.buffer)!.subarray(v.offset, v.offset + v.count * v.stride));
  return out;
}

type Decoder = (typeof import('meshoptimizer/decoder'))['MeshoptDecoder'];

/** meshoptimizer's decoder, loaded (its wasm compiled) the first time a file needs it, not when animcore is imported. */
async function meshoptDecoder(): Promise<Decoder> {
  const { MeshoptDecoder } = await import('meshoptimizer/decoder');
  await MeshoptDecoder.ready;
  return MeshoptDecoder;
}

/** Decodes one view into `target`; a stream the decoder refuses (or a trap inside it) is a FormatError at the view's extension. */
function decodeView(decoder: Decoder, v: CompressedView, target: Uint8Array): void {
  try {
    decoder.decodeGltfBuffer(target, v.count, v.stride, v.source, v.mode, v.filter === 'NONE' ? undefined : v.filter);
  } catch (e) {
    fail(v.pointer, `the compressed ${v.mode} data does not decode (meshoptimizer: ${e instanceof Error ? e.message : String(e)})`, 'bad-value');
  }
}
