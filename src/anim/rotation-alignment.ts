/**
 * Sign-aligns quaternion keys so that each key lies in the same hemisphere as its predecessor
 * (q and −q are the same rotation). After this, interpolating neighbours never takes the long
 * arc, so the runtime needs no dot test (spec performance.md, "Sign-fix at load time").
 *
 * @param values `4 × keyCount` floats (x y z w per key); not modified.
 * @returns a new array of `4 × (keyCount + 1)` floats: the aligned keys, then key 0 once more,
 *   aligned to the last key, for the cycling interval from the last key back to key 0.
 */
export function alignRotationKeys(values: Float32Array, keyCount: number): Float32Array {
  const out = new Float32Array(4 * (keyCount + 1));
  out.set(values.subarray(0, 4 * keyCount));
  for (let k = 1; k <= keyCount; k++) {
    const src = k === keyCount ? 0 : 4 * k;
    const p = 4 * (k - 1);
    const q = 4 * k;
    const x = out[src]!, y = out[src + 1]!, z = out[src + 2]!, w = out[src + 3]!;
    const s = out[p]! * x + out[p + 1]! * y + out[p + 2]! * z + out[p + 3]! * w < 0 ? -1 : 1;
    out[q] = s * x;
    out[q + 1] = s * y;
    out[q + 2] = s * z;
    out[q + 3] = s * w;
  }
  return out;
}
