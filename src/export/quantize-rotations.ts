import { keyTolerance, type ToleranceOption } from './reduce-clip.js';

/**
 * The largest rotation (radians) that writing a unit quaternion as normalized signed 16-bit
 * integers makes, once a reader normalises it: each component rounds to a multiple of 1/32767,
 * at most 1/65534 away, so the four move by at most 1/32767 together, the normalised quaternion
 * by at most twice that, and the angle (4 asin(chord / 2)) is 4 asin(1/32767) ≈ 1.2e-4 rad (0.007°).
 */
export const QUANTIZED_ROTATION_ERROR = 4 * Math.asin(1 / 32767);

/**
 * Rounding moves the dot product of two keys by at most about 6e-5 (each key by 3.05e-5): a pair
 * whose dot is closer to 0 than this margin could change sign, and with it the way glTF's slerp
 * turns between them (the shorter arc, glTF 2.0 Appendix C), a 360° jump.
 */
const DOT_MARGIN = 1e-4;

/**
 * Rotation keys (x y z w per key) as normalized signed 16-bit integers, each key normalised first
 * (a key shorter than 1e-6 is identity, as in the kernels); glTF 2.0 §3.11 (Animations) allows
 * "signed short normalized" rotation outputs, decoded as max(c / 32767, −1). Null when two
 * consecutive keys are within rounding of 180° apart (`DOT_MARGIN`): such a track stays float.
 */
export function quantizedRotations(values: Float32Array): Int16Array | null {
  const out = new Int16Array(values.length);
  // The previous key, normalised, for the dot test.
  let px = 0;
  let py = 0;
  let pz = 0;
  let pw = 0;
  for (let k = 0; k < values.length; k += 4) {
    const vx = values[k]!;
    const vy = values[k + 1]!;
    const vz = values[k + 2]!;
    const vw = values[k + 3]!;
    // float32 components: their squares cannot overflow a float64, so Math.hypot's care (and cost) is not needed.
    const len = Math.sqrt(vx * vx + vy * vy + vz * vz + vw * vw);
    const identity = len < 1e-6;
    const x = identity ? 0 : vx / len;
    const y = identity ? 0 : vy / len;
    const z = identity ? 0 : vz / len;
    const w = identity ? 1 : vw / len;
    if (k > 0 && Math.abs(px * x + py * y + pz * z + pw * w) < DOT_MARGIN) return null;
    out[k] = Math.round(x * 32767);
    out[k + 1] = Math.round(y * 32767);
    out[k + 2] = Math.round(z * 32767);
    out[k + 3] = Math.round(w * 32767);
    px = x;
    py = y;
    pz = z;
    pw = w;
  }
  return out;
}

/**
 * The reduction tolerance that leaves room for quantized rotations: the rotation tolerance less
 * `QUANTIZED_ROTATION_ERROR` (at least 0), so that reduced and quantized rotations stay within
 * what the caller asked for; 0 (no reduction) stays 0.
 * @throws UsageError as `keyTolerance`
 */
export function toleranceWithQuantization(option: ToleranceOption | undefined): ToleranceOption {
  const t = keyTolerance(option);
  return t === null ? 0 : { ...t, rotation: Math.max(0, t.rotation - QUANTIZED_ROTATION_ERROR) };
}
