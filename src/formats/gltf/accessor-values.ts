import { type Accessor, MathUtils } from '@gltf-transform/core';

/**
 * An accessor's elements as float64-exact float32 numbers: FLOAT as stored; normalized integers
 * decoded as glTF 2.0 §3.11 says (BYTE max(c / 127, −1), UNSIGNED_BYTE c / 255, SHORT
 * max(c / 32767, −1), UNSIGNED_SHORT c / 65535, so −128 and −32768 are exactly −1); other
 * integers as their value. Sparse accessors arrive densified by glTF-Transform.
 */
export function accessorFloats(accessor: Accessor): Float32Array {
  const array = accessor.getArray();
  if (array === null) return new Float32Array(accessor.getCount() * accessor.getElementSize());
  if (array instanceof Float32Array) return array;
  if (!accessor.getNormalized()) return Float32Array.from(array as ArrayLike<number>);
  const type = accessor.getComponentType();
  return Float32Array.from(array as ArrayLike<number>, (c) => MathUtils.decodeNormalizedInt(c, type));
}
