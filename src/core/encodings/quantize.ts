import { type AnimClip, type AnimCurve, withClosingKey } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import { QUANT_ROTATION_SCALE } from '../../../assembly/layout.js';

/**
 * Error bounds of a compressed (`quantized`) clip: the largest absolute difference of any
 * component between a sample of the compressed clip and the same sample of the float keys, at any
 * time, with nlerp, slerp or step (rotations compared as sign-aligned unit quaternions). A curve
 * that 16-bit codes cannot hold within its bound stays float.
 */
export interface CompressionOptions {
  /** Translation curves, in model units; default 1e-4. */
  translation?: number;
  /** Rotation curves, per quaternion component (an angle error of at most about 4× this in radians); default 1e-4. */
  rotation?: number;
  /** Scale curves; default 1e-4. */
  scale?: number;
}

/** The default error bound of every curve type. */
export const DEFAULT_COMPRESSION_TOLERANCE = 1e-4;

/** One curve's keys as the quantized encoding stores them. */
export interface QuantizedCurve {
  /**
   * Translation and scale: three u16 codes per key (0 for a constant component); rotation: four
   * i16 codes per key, component × QUANT_ROTATION_SCALE rounded. keyCount + 1 keys (the closing
   * key last, as `withClosingKey`).
   */
  readonly codes: Uint16Array | Int16Array;
  /**
   * Translation and scale: min x, y, z, 0 and step x, y, z, 0 (f32); component i is
   * min_i + code_i × step_i. Rotations: null.
   */
  readonly range: Float32Array | null;
  /** Bit i set when component i has codes (a translation or scale component that changes over the clip; a constant one has step 0). */
  readonly changing: number;
}

const CODE_MAX = 0xffff;
const fr = Math.fround;
/** A rotation code c stands for c × ROT_DECODE in f32 (assembly/quantized-clip.ts). */
const ROT_DECODE = fr(1 / QUANT_ROTATION_SCALE);

/** The tolerances of `options` with defaults, checked. @throws UsageError for a bound that is not a finite number > 0 */
export function compressionTolerances(options: CompressionOptions): Required<CompressionOptions> {
  const t = {
    translation: options.translation ?? DEFAULT_COMPRESSION_TOLERANCE,
    rotation: options.rotation ?? DEFAULT_COMPRESSION_TOLERANCE,
    scale: options.scale ?? DEFAULT_COMPRESSION_TOLERANCE,
  };
  for (const [name, v] of Object.entries(t)) {
    if (!(v > 0) || !Number.isFinite(v)) throw new UsageError(`compression.${name} must be a finite number > 0, got ${v}`);
  }
  return t;
}

/**
 * Quantizes the animated uniform T/R/S curves of `clip` within `options`' bounds: one entry per
 * curve, null for curves that stay as they are (static, inactive, not uniform, other curve types,
 * a translation or scale whose w is not 0, a rotation key with a component beyond ±1 or keys
 * whose lerp comes near zero, or keys that the codes cannot hold within the bound).
 * Translations and scales: u16 codes over each component's own range, none for a component that
 * never changes; rotations: the four components of the stored (sign-aligned) key as i16, ×
 * QUANT_ROTATION_SCALE (assembly/layout.ts QUANT_*). Every decoded key is checked against the
 * float key, and between keys the interpolation's growth of the error is bounded (lerp keeps it;
 * nlerp turns an error e of the lerped keys into at most asin(e / |lerp(q0, q1, w)|) after the
 * normalisation), so the bound holds at every sample time; neighbouring decoded keys must keep a
 * dot product ≥ MIN_DECODED_DOT, so that slerp takes the float keys' arc.
 * @throws UsageError for bounds that are not finite numbers > 0
 */
export function quantizeClip(clip: AnimClip, options: CompressionOptions): (QuantizedCurve | null)[] {
  const tol = compressionTolerances(options);
  return clip.curves.map((curve) => {
    if (curve.keys.encoding !== 'uniform' || !curve.active || clip.keyCount < 1) return null;
    if (curve.curveType === 'rotation') return quantizeRotations(storedKeys(curve, clip), clip.keyCount + 1, tol.rotation);
    if (curve.curveType === 'translation' || curve.curveType === 'scale') {
      return quantizeVectors(storedKeys(curve, clip), clip.keyCount + 1, curve.curveType === 'translation' ? tol.translation : tol.scale);
    }
    return null;
  });
}

function storedKeys(curve: AnimCurve, clip: AnimClip): Float32Array {
  return withClosingKey((curve.keys as { values: Float32Array }).values, clip.keyCount, curve.curveType === 'rotation');
}

/** f32 rounding the kernels may add to a value of magnitude `m` beyond the checked keys (lerp, normalise). */
function roundingSlack(m: number): number {
  return 16 * 2 ** -24 * Math.max(1, m);
}

function quantizeVectors(keys: Float32Array, count: number, tolerance: number): QuantizedCurve | null {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let at = 0; at < 4 * count; at += 4) {
    if (keys[at + 3] !== 0) return null;
    for (let i = 0; i < 3; i++) {
      const v = keys[at + i]!;
      if (!Number.isFinite(v)) return null;
      if (v < min[i]!) min[i] = v;
      if (v > max[i]!) max[i] = v;
    }
  }
  // A step per component; a constant component keeps step 0: it is min exactly and stores no code.
  const step = min.map((m, i) => fr((max[i]! - m) / CODE_MAX));
  if (!step.every(Number.isFinite)) return null;
  const changing = (step[0]! > 0 ? 1 : 0) | (step[1]! > 0 ? 2 : 0) | (step[2]! > 0 ? 4 : 0);
  const range = Float32Array.of(min[0]!, min[1]!, min[2]!, 0, step[0]!, step[1]!, step[2]!, 0);
  const budget = tolerance - roundingSlack(Math.max(...min.map(Math.abs), ...max.map(Math.abs)));
  if (Math.max(...step) / 2 > budget) return null;
  const codes = new Uint16Array(3 * count);
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < 3; i++) {
      const v = keys[4 * k + i]!;
      // A component whose step underflowed to 0 is checked as a constant one (min).
      const code = changing & (1 << i) ? Math.min(CODE_MAX, Math.max(0, Math.round((v - min[i]!) / step[i]!))) : 0;
      codes[3 * k + i] = code;
      // Lerp is linear: errors between keys stay within the keys' errors (plus rounding).
      if (Math.abs(decodeVectorComponent(code, range, i) - v) > budget) return null;
    }
  }
  return { codes, range, changing };
}

/** Component i of a translation or scale key from its code, as the kernel computes it in f32. */
export function decodeVectorComponent(code: number, range: Float32Array, i: number): number {
  return fr(fr(code * range[4 + i]!) + range[i]!);
}

/** Keys whose lerp comes closer to zero than this stay float: nlerp's error grows as 1 / |lerp|. */
const MIN_LERP_LENGTH = 0.5;
/**
 * Neighbouring keys whose decoded dot product is below this stay float: slerp takes the shortest
 * arc by the dot's sign (in f32 in the SIMD build), the float keys, aligned to dot ≥ 0, the
 * positive side, and codes may turn a dot near 0 (keys 180° apart) negative; 1e-6 is beyond the
 * f32 rounding of a dot of unit keys (≈ 2.4e-7).
 */
const MIN_DECODED_DOT = 1e-6;

function quantizeRotations(keys: Float32Array, count: number, tolerance: number): QuantizedCurve | null {
  const codes = new Int16Array(4 * count);
  // Per key, the distance of the decoded key from the stored one (Euclidean, in f64).
  const errors = new Float64Array(count);
  const budget = tolerance - roundingSlack(1);
  // Scalar code, no arrays per key: a crowd loads millions of keys.
  for (let k = 0; k < count; k++) {
    let sq = 0;
    for (let i = 0; i < 4; i++) {
      const v = keys[4 * k + i]!;
      // Beyond ±1 by more than rounding: not a unit key; the clamp's error is checked below.
      if (!(Math.abs(v) <= 1 + 2 ** -10)) return null;
      const code = Math.max(-QUANT_ROTATION_SCALE, Math.min(QUANT_ROTATION_SCALE, Math.round(v * QUANT_ROTATION_SCALE)));
      codes[4 * k + i] = code;
      // Step and slerp read code × ROT_DECODE in f32; nlerp the codes, whose error is the same before its normalisation.
      const e = Math.max(Math.abs(fr(code * ROT_DECODE) - v), Math.abs(code / QUANT_ROTATION_SCALE - v));
      sq += e * e;
    }
    errors[k] = Math.sqrt(sq);
    if (errors[k]! > budget) return null;
  }
  for (let k = 0; k + 1 < count; k++) {
    // The shortest lerp of keys k and k + 1 over w in [0, 1] (its length is a quadratic in w).
    let dd = 0, ad = 0, dot = 0;
    for (let i = 0; i < 4; i++) {
      const a = keys[4 * k + i]!, d = keys[4 * k + 4 + i]! - a;
      dd += d * d;
      ad += a * d;
      dot += fr(codes[4 * k + i]! * ROT_DECODE) * fr(codes[4 * k + 4 + i]! * ROT_DECODE);
    }
    if (!(dot >= MIN_DECODED_DOT)) return null;
    const w = dd > 0 ? Math.min(1, Math.max(0, -ad / dd)) : 0;
    let len = 0;
    for (let i = 0; i < 4; i++) {
      const a = keys[4 * k + i]!;
      const v = a + w * (keys[4 * k + 4 + i]! - a);
      len += v * v;
    }
    len = Math.sqrt(len);
    // The lerp of the decoded keys is off the float lerp by at most the larger key error, which
    // turns the normalised result by at most asin(error / |lerp|) (a chord no longer than its angle).
    if (!(len >= MIN_LERP_LENGTH) || Math.asin(Math.max(errors[k]!, errors[k + 1]!) / len) > budget) return null;
  }
  return { codes, range: null, changing: 15 };
}

/** Rotation key k (x, y, z, w) from its codes as step and slerp read it: code × ROT_DECODE in f32. */
export function decodeRotation(codes: Int16Array, k: number): [number, number, number, number] {
  return [fr(codes[4 * k]! * ROT_DECODE), fr(codes[4 * k + 1]! * ROT_DECODE), fr(codes[4 * k + 2]! * ROT_DECODE), fr(codes[4 * k + 3]! * ROT_DECODE)];
}
