import { alignRotationKeys } from './rotation-alignment.js';

/**
 * The keys of a uniform curve followed by its closing key: key 0 again, where a cycling clip's last
 * interval runs to (spec nebula.md §3.3: the interval after the last key ends at key 0). Rotation
 * keys come sign-aligned, each in its predecessor's hemisphere, the closing key included
 * (`alignRotationKeys`), so interpolating neighbours never takes the long arc.
 * @param values `4 × keyCount` floats (x y z w per key); not modified
 * @returns a new array of `4 × (keyCount + 1)` floats
 */
export function withClosingKey(values: Float32Array, keyCount: number, rotation: boolean): Float32Array {
  if (rotation) return alignRotationKeys(values, keyCount);
  const out = new Float32Array(4 * (keyCount + 1));
  out.set(values.subarray(0, 4 * keyCount));
  out.copyWithin(4 * keyCount, 0, 4);
  return out;
}
