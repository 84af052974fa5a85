import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAccessorFloats } from '../../src/formats/gltf/accessor-values.js';
import { checkDocument } from '../../src/formats/gltf/check-document.js';
import { READ_EXTENSIONS } from '../../src/formats/gltf/read-extensions.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { f32Bytes, packGlb } from '../helpers/glb.js';

const TYPES = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 } as const;
const COMPONENTS = [5120, 5121, 5122, 5123, 5125, 5126] as const;
const BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

/** One accessor over random bytes: any component type and width, tight or strided, with or without a view, with or without sparse values. */
const accessorCase = fc
  .record({
    componentType: fc.constantFrom(...COMPONENTS),
    type: fc.constantFrom(...(Object.keys(TYPES) as (keyof typeof TYPES)[])),
    count: fc.integer({ min: 1, max: 12 }),
    normalized: fc.boolean(),
    extraStride: fc.constantFrom(0, 0, 4, 8),
    viewOffset: fc.constantFrom(0, 4, 12),
    elementOffset: fc.integer({ min: 0, max: 3 }),
    withView: fc.constantFrom(true, true, true, false),
    sparse: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 5 }), { nil: undefined }),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
  })
  .map((c) => ({ ...c, normalized: c.normalized && c.componentType !== 5126 && c.componentType !== 5125 }));

/**
 * The spec's reading, one component at a time (glTF 2.0 §3.6.2: element i at view offset +
 * accessor offset + i × stride; §3.6.2.3: sparse indices and values at their own view and offset,
 * default 0; §3.11: normalized integers max(c / max, −1)).
 */
function specFloats(json: any, bin: Uint8Array): number[] {
  const a = json.accessors[0];
  const width = TYPES[a.type as keyof typeof TYPES];
  const size = BYTES[a.componentType]!;
  const data = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const read = (at: number, type: number) =>
    ({ 5120: () => data.getInt8(at), 5121: () => data.getUint8(at), 5122: () => data.getInt16(at, true), 5123: () => data.getUint16(at, true), 5125: () => data.getUint32(at, true), 5126: () => data.getFloat32(at, true) })[type]!();
  const out: number[] = new Array(a.count * width).fill(0);
  if (a.bufferView !== undefined) {
    const view = json.bufferViews[a.bufferView];
    const stride = view.byteStride ?? width * size;
    for (let i = 0; i < a.count; i++) for (let k = 0; k < width; k++) out[i * width + k] = read(view.byteOffset + (a.byteOffset ?? 0) + i * stride + k * size, a.componentType);
  }
  if (a.sparse) {
    const iv = json.bufferViews[a.sparse.indices.bufferView];
    const vv = json.bufferViews[a.sparse.values.bufferView];
    for (let j = 0; j < a.sparse.count; j++) {
      const i = read(iv.byteOffset + (a.sparse.indices.byteOffset ?? 0) + 4 * j, 5125);
      for (let k = 0; k < width; k++) out[i * width + k] = read(vv.byteOffset + (a.sparse.values.byteOffset ?? 0) + (j * width + k) * size, a.componentType);
    }
  }
  const max = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 }[a.componentType as 5120];
  return out.map((c) => Math.fround(a.normalized ? Math.max(c / max, -1) : c));
}

/** Deterministic bytes; FLOAT components are small finite numbers, so both decoders see the same values. */
function fill(bytes: Uint8Array, seed: number, componentType: number): void {
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < bytes.length; i++) bytes[i] = next() >>> 24;
  if (componentType !== 5126) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i + 4 <= bytes.length; i += 4) view.setFloat32(i, ((next() % 20001) - 10000) / 97, true);
}

describe('readAccessorFloats (animation accessors straight from the buffers)', () => {
  it('decodes every layout as the spec reads it (strides, sparse values at their own offsets, normalized integers, no view)', async () => {
    await fc.assert(
      fc.asyncProperty(accessorCase, async (c) => {
        const size = BYTES[c.componentType]!;
        const width = TYPES[c.type];
        const element = size * width;
        // A byteStride must be a multiple of 4 and at least one element; strided views only when the element allows it (§3.6.2.4).
        const tight = Math.ceil(element / 4) * 4;
        const stride = c.extraStride > 0 || element % 4 === 0 ? Math.max(tight, element) + c.extraStride : undefined;
        const offset = c.elementOffset * size;
        const viewLength = offset + (stride ?? element) * (c.count - 1) + element;
        const indices = c.sparse?.filter((i) => i < c.count).sort((a, b) => a - b) ?? [];
        const sparseAt = c.viewOffset + viewLength + ((4 - (viewLength % 4)) % 4);
        const valuesAt = sparseAt + 4 * Math.max(1, indices.length);
        const total = valuesAt + element * Math.max(1, indices.length) + 8;
        const bin = new Uint8Array(total);
        fill(bin, c.seed, c.componentType);
        new DataView(bin.buffer).setUint32(sparseAt, 0, true);
        indices.forEach((v, k) => new DataView(bin.buffer).setUint32(sparseAt + 4 * k, v, true));
        const accessor: Record<string, unknown> = { componentType: c.componentType, type: c.type, count: c.count, ...(c.normalized && { normalized: true }) };
        if (c.withView) Object.assign(accessor, { bufferView: 0, byteOffset: offset });
        if (indices.length > 0) {
          accessor.sparse = { count: indices.length, indices: { bufferView: 1, componentType: 5125 }, values: { bufferView: 2 } };
        }
        const json = {
          asset: { version: '2.0' },
          buffers: [{ byteLength: total }],
          bufferViews: [
            { buffer: 0, byteOffset: c.viewOffset, byteLength: viewLength, ...(stride !== undefined && { byteStride: stride }) },
            { buffer: 0, byteOffset: sparseAt, byteLength: 4 * Math.max(1, indices.length) },
            { buffer: 0, byteOffset: valuesAt, byteLength: element * Math.max(1, indices.length) },
          ],
          // The second holds as many elements as the first names, which an accessor without a view needs (checkDocument).
          accessors: [accessor, { bufferView: 0, byteOffset: offset, componentType: c.componentType, type: c.type, count: c.count }],
        };
        const collections = checkDocument(json, [bin], READ_EXTENSIONS);
        expect(Array.from(readAccessorFloats(collections, [bin], 0))).toEqual(specFloats(json, bin));
      }),
      { numRuns: 300 },
    );
  });
});

describe('openGltf: sparse animation outputs', () => {
  it('reads sparse values at their own byteOffset (default 0), not the accessor’s (glTF-Transform 4.x took the accessor’s)', async () => {
    const u32 = (values: number[]) => new Uint8Array(Uint32Array.from(values).buffer);
    // View 1: 12 bytes before the dense values (the accessor's byteOffset), then keys (0,0,0), (1,2,3).
    // Sparse: key 1 replaced by (7,8,9); views 2 and 3 hold more after their first 12 bytes, where a reader
    // that applies the accessor's byteOffset to them finds index 1 and (5,5,5).
    const bin = new Uint8Array([...f32Bytes([0, 1]), ...f32Bytes([9, 9, 9, 0, 0, 0, 1, 2, 3]), ...u32([1, 0, 0, 1]), ...f32Bytes([7, 8, 9, 5, 5, 5])]);
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: 8 },
        { buffer: 0, byteOffset: 8, byteLength: 36 },
        { buffer: 0, byteOffset: 44, byteLength: 16 },
        { buffer: 0, byteOffset: 60, byteLength: 24 },
      ],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
        { bufferView: 1, byteOffset: 12, componentType: 5126, count: 2, type: 'VEC3', sparse: { count: 1, indices: { bufferView: 2, componentType: 5125 }, values: { bufferView: 3 } } },
      ],
      nodes: [{ name: 'a' }],
      animations: [{ samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
    };
    const resource = await openGltf({ gltf: packGlb(json, bin) });
    const keys = resource.clips[0]!.curves[0]!.keys;
    expect(keys.encoding === 'keyed' && Array.from(keys.values)).toEqual([0, 0, 0, 0, 7, 8, 9, 0]);
    resource.dispose();
  });
});

describe('openGltf: sparse mesh attributes', () => {
  it('reads a sparse POSITION’s values at their own byteOffset (default 0), as animation outputs are read', async () => {
    const u32 = (values: number[]) => new Uint8Array(Uint32Array.from(values).buffer);
    // The animation case above, as a triangle's positions: vertex 1 is (7,8,9) by its sparse value.
    const bin = new Uint8Array([...f32Bytes([9, 9, 9, 0, 0, 0, 1, 2, 3, 4, 5, 6]), ...u32([1, 0, 0, 1]), ...f32Bytes([7, 8, 9, 5, 5, 5])]);
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: 48 },
        { buffer: 0, byteOffset: 48, byteLength: 16 },
        { buffer: 0, byteOffset: 64, byteLength: 24 },
      ],
      accessors: [{ bufferView: 0, byteOffset: 12, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [7, 8, 9], sparse: { count: 1, indices: { bufferView: 1, componentType: 5125 }, values: { bufferView: 2 } } }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      nodes: [{ name: 'a', mesh: 0 }],
    };
    const resource = await openGltf({ gltf: packGlb(json, bin) });
    expect(Array.from(resource.meshes[0]!.positions)).toEqual([0, 0, 0, 7, 8, 9, 4, 5, 6]);
    resource.dispose();
  });
});
