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
    const s = hemisphereSign(out[p]!, out[p + 1]!, out[p + 2]!, out[p + 3]!, x, y, z, w);
    out[q] = s * x;
    out[q + 1] = s * y;
    out[q + 2] = s * z;
    out[q + 3] = s * w;
  }
  return out;
}

/** −1 when quaternion x y z w lies in the other hemisphere than p (their dot product, in float64, below 0), else 1: the sign that aligns it to p. */
export function hemisphereSign(px: number, py: number, pz: number, pw: number, x: number, y: number, z: number, w: number): number {
  return px * x + py * y + pz * z + pw * w < 0 ? -1 : 1;
}
