import { MathUtils } from '@gltf-transform/core';
import { COMPONENT_BYTES, type GltfCollections, TYPE_COMPONENTS } from './check-document.js';

/** An accessor's components as its component type stores them (Int8Array … Float32Array). */
export type AccessorArray = ArrayLike<number> & { set(a: ArrayLike<number>, at: number): void };

function decoded(array: ArrayLike<number>, normalized: boolean, componentType: number): Float32Array {
  if (!normalized) return Float32Array.from(array);
  return Float32Array.from(array, (c) => MathUtils.decodeNormalizedInt(c, componentType as Parameters<typeof MathUtils.decodeNormalizedInt>[1]));
}

const ARRAYS: Readonly<Record<number, new (buffer: ArrayBufferLike, offset: number, length: number) => AccessorArray>> = {
  5120: Int8Array,
  5121: Uint8Array,
  5122: Int16Array,
  5123: Uint16Array,
  5125: Uint32Array,
  5126: Float32Array,
};

/**
 * Accessor `index` of a checked document (`checkDocument`: its byte ranges, strides and sparse
 * indices are known to be in range) read straight from the buffers as floats: strides followed,
 * sparse values applied (glTF 2.0 §3.6.2.3), no view → zeros; FLOAT as stored, normalized
 * integers decoded as glTF 2.0 §3.11 says (BYTE max(c / 127, −1), UNSIGNED_BYTE c / 255, SHORT
 * max(c / 32767, −1), UNSIGNED_SHORT c / 65535, so −128 and −32768 are exactly −1; glTF-Transform's
 * `MathUtils.decodeNormalizedInt`), other integers as their value. A tightly packed, aligned FLOAT
 * accessor without sparse values is a view of the buffer's bytes (no copy): callers that keep
 * values copy them.
 */
export function readAccessorFloats(c: GltfCollections, buffers: readonly Uint8Array[], index: number): Float32Array {
  const values = readAccessor(c, buffers, index);
  const a = c.accessors![index]!;
  return values instanceof Float32Array ? values : decoded(values, a.normalized === true, a.componentType as number);
}

/**
 * Accessor `index` as `readAccessorFloats` reads it, but undecoded: the components in an array of
 * the component type (joint indices, vertex indices). A view of the buffer where the layout allows.
 */
export function readAccessor(c: GltfCollections, buffers: readonly Uint8Array[], index: number): AccessorArray {
  const a = c.accessors![index]!;
  const type = a.componentType as number;
  const width = TYPE_COMPONENTS[a.type as string]!;
  const count = a.count as number;
  const size = COMPONENT_BYTES[type]!;
  let values: AccessorArray;
  if (a.bufferView === undefined) values = new ARRAYS[type]!(new ArrayBuffer(count * width * size), 0, count * width);
  else {
    const view = c.bufferViews![a.bufferView as number]!;
    const bytes = buffers[view.buffer as number]!;
    const start = bytes.byteOffset + ((view.byteOffset as number | undefined) ?? 0) + ((a.byteOffset as number | undefined) ?? 0);
    const stride = (view.byteStride as number | undefined) ?? width * size;
    values = packed(bytes.buffer, start, stride, type, width, count, a.sparse !== undefined);
  }
  if (a.sparse !== undefined) applySparse(c, buffers, a.sparse as Record<string, Record<string, unknown>>, type, width, values);
  return values;
}

/** Elements from `start` every `stride` bytes, as a typed array of the component type; a view where the layout allows and `copy` is not asked for. */
function packed(buffer: ArrayBufferLike, start: number, stride: number, type: number, width: number, count: number, copy: boolean) {
  const size = COMPONENT_BYTES[type]!;
  const Array = ARRAYS[type]!;
  if (stride === width * size && start % size === 0) {
    const view = new Array(buffer, start, count * width);
    return copy ? (view as unknown as Float32Array).slice() : view;
  }
  const out = new Array(new ArrayBuffer(count * width * size), 0, count * width);
  const bytes = new Uint8Array((out as unknown as Uint8Array).buffer);
  const from = new Uint8Array(buffer);
  const element = width * size;
  for (let i = 0; i < count; i++) bytes.set(from.subarray(start + i * stride, start + i * stride + element), i * element);
  return out;
}

function applySparse(c: GltfCollections, buffers: readonly Uint8Array[], sparse: Record<string, Record<string, unknown>>, type: number, width: number, into: { set(a: ArrayLike<number>, at: number): void }): void {
  const n = sparse.count as unknown as number;
  const at = (part: Record<string, unknown>, partType: number, partWidth: number) => {
    const view = c.bufferViews![part.bufferView as number]!;
    const bytes = buffers[view.buffer as number]!;
    const start = bytes.byteOffset + ((view.byteOffset as number | undefined) ?? 0) + ((part.byteOffset as number | undefined) ?? 0);
    return packed(bytes.buffer, start, partWidth * COMPONENT_BYTES[partType]!, partType, partWidth, n, false);
  };
  const indices = at(sparse.indices!, sparse.indices!.componentType as number, 1);
  const values = at(sparse.values!, type, width);
  for (let k = 0; k < n; k++) into.set((values as unknown as Float32Array).subarray(k * width, (k + 1) * width), indices[k]! * width);
}
