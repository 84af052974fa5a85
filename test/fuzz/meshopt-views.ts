// A generated glTF with its buffer views compressed as gltfpack `-c` writes them
// (EXT_meshopt_compression, mode ATTRIBUTES): the compressed streams in buffer 0, the views in a
// fallback buffer 1 without `uri`. The mutators then flip bytes of the streams, so the reader's
// meshopt checks and meshoptimizer's decoder meet damaged data.
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { FieldWriter } from './fields.js';
import type { Rng } from './rng.js';

await MeshoptEncoder.ready;

interface View {
  buffer: number;
  byteOffset: number;
  byteLength: number;
  byteStride?: number;
  extensions?: Record<string, unknown>;
}

/**
 * `json` (one buffer, `bin`) with each view whose bytes are whole 4-byte-aligned elements compressed
 * (a view's stride, else its first accessor's element size when a multiple of 4, else 4 bytes);
 * the other views' bytes are copied uncompressed into buffer 0, the decoded ones laid end to end in
 * buffer 1. Returns the new document and buffer 0, or `undefined` when no view could be compressed.
 */
export function compressViews(json: Record<string, unknown>, bin: Uint8Array, rng: Rng): { json: Record<string, unknown>; bin: FieldWriter } | undefined {
  const views = json.bufferViews as View[];
  const accessors = json.accessors as { bufferView?: number; componentType: number; type: string }[];
  const out = new FieldWriter(true);
  const pad = () => {
    while (out.length % 4 !== 0) out.u8(0, 'flag');
  };
  const elementSize = (v: number): number => {
    const a = accessors.find((x) => x.bufferView === v);
    if (a === undefined) return 4;
    const width = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[a.type] ?? 1;
    const bytes = width * ({ 5120: 1, 5121: 1, 5122: 2, 5123: 2 }[a.componentType] ?? 4);
    return bytes % 4 === 0 && bytes <= 256 ? bytes : 4;
  };
  let fallbackLength = 0; // the decoded views lie end to end (4-aligned) in buffer 1
  const compressed = views.map((view, i) => {
    const stride = view.byteStride ?? elementSize(i);
    const data = bin.subarray(view.byteOffset, view.byteOffset + view.byteLength);
    pad();
    const byteOffset = out.length;
    if (stride % 4 !== 0 || view.byteLength % stride !== 0 || view.byteOffset % 4 !== 0 || rng.chance(0.1)) {
      out.bytes(data);
      return { ...view, buffer: 0, byteOffset };
    }
    const count = view.byteLength / stride;
    out.bytes(MeshoptEncoder.encodeGltfBuffer(data, count, stride, 'ATTRIBUTES'));
    const ext = { buffer: 0, byteOffset, byteLength: out.length - byteOffset, byteStride: stride, count, mode: 'ATTRIBUTES' };
    const at = fallbackLength;
    fallbackLength += (view.byteLength + 3) & ~3;
    return { ...view, buffer: 1, byteOffset: at, extensions: { EXT_meshopt_compression: ext } };
  });
  pad();
  const name = 'EXT_meshopt_compression';
  if (fallbackLength === 0) return undefined;
  return {
    json: {
      ...json,
      bufferViews: compressed,
      buffers: [{ byteLength: out.length }, { byteLength: Math.max(4, fallbackLength), extensions: { [name]: { fallback: true } } }],
      extensionsUsed: [...((json.extensionsUsed as string[] | undefined) ?? []), name],
      extensionsRequired: [...((json.extensionsRequired as string[] | undefined) ?? []), name],
    },
    bin: out,
  };
}
