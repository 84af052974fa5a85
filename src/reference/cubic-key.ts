import type { CubicKeys } from '../anim/index.js';
import { keyedKeyPair } from './keyed-key.js';
import { type F4, normalize } from './quat.js';

/**
 * A cubic Hermite curve at `t` seconds (glTF 2.0 Appendix C "Cubic Spline Interpolation"; twin of
 * the core's cubic sampler): before the first key, at or after the last, on a key's exact time
 * and with `step`, the key's value as stored (never a tangent, never renormalised). Between keys
 * k and k+1, with d = t[k+1] − t[k] and s = (t − t[k]) / d (rounded to float32 as the kernels do):
 * `(2s³−3s²+1)·v_k + d(s³−2s²+s)·out_k + (−2s³+3s²)·v_k+1 + d(s³−s²)·in_k+1`, a rotation then
 * normalised (`normalize`: shorter than QUAT_MIN_LENGTH → identity). Arithmetic in float64.
 */
export function cubicSample(keys: CubicKeys, t: number, rotation: boolean, step: boolean): F4 {
  const { k0, k1, w: s } = keyedKeyPair(keys, t);
  const v = keys.values;
  const a = 12 * k0;
  if (step || k0 === k1 || keys.times[k0] === t) return [v[a + 4]!, v[a + 5]!, v[a + 6]!, v[a + 7]!];
  const b = 12 * k1;
  const d = keys.times[k1]! - keys.times[k0]!;
  const s2 = s * s;
  const s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1;
  const h10 = d * (s3 - 2 * s2 + s);
  const h01 = -2 * s3 + 3 * s2;
  const h11 = d * (s3 - s2);
  const r: F4 = [0, 0, 0, 0];
  for (let c = 0; c < 4; c++) r[c] = h00 * v[a + 4 + c]! + h10 * v[a + 8 + c]! + h01 * v[b + 4 + c]! + h11 * v[b + c]!;
  return rotation ? normalize(r) : r;
}
