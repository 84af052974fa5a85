import type { KeyedKeys } from '../anim/index.js';

/**
 * Keys and weight of a curve with its own key times (keyed or cubic) at `t` seconds (twin of the
 * kernels' look-up, spec aaf.md §2.3, glTF 2.0 Appendix C): before the first key → key 0; else
 * k = the last key with time ≤ t; at the last key or beyond → hold it; otherwise interpolate
 * k → k+1 with weight w = (t − t[k]) / (t[k+1] − t[k]) in float32. Equal neighbouring times are
 * a step. `k1 === k0` means hold.
 */
export function keyedKeyPair(keys: Pick<KeyedKeys, 'times'>, t: number): { k0: number; k1: number; w: number } {
  const times = keys.times;
  const n = times.length;
  if (t < times[0]!) return { k0: 0, k1: 0, w: 0 };
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  if (lo + 1 >= n) return { k0: lo, k1: lo, w: 0 };
  return { k0: lo, k1: lo + 1, w: Math.fround((t - times[lo]!) / (times[lo + 1]! - times[lo]!)) };
}
