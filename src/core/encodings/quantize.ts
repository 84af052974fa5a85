import { type AnimClip, type AnimCurve, withClosingKey } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import { QUANT_ROTATION_WORD_MAX } from '../../../assembly/layout.js';

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
   * Translation and scale: three u16 codes per key (0 for a constant component); rotation: three
   * words per key, its smallest three (assembly/layout.ts QUANT_*, `decodeRotation`). keyCount + 1
   * keys (the closing key last, as `withClosingKey`).
   */
  readonly codes: Uint16Array;
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
/** A rotation word v (one of the smallest three) stands for v × ROTATION_STEP in f32 (assembly/quantized-clip.ts). */
const ROTATION_STEP = fr(Math.SQRT1_2 / QUANT_ROTATION_WORD_MAX);
/** A unit quaternion's squared length in word units, f32 (assembly/quantized-clip.ts). */
const ROTATION_UNIT_SQ = fr(2 * QUANT_ROTATION_WORD_MAX * QUANT_ROTATION_WORD_MAX);

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
 * never changes; rotations: the stored (sign-aligned) key as smallest three in 48 bits, 15-bit
 * codes of the three components other than the omitted one (w where it may be omitted,
 * `omittable`, else the previous key's omitted component while it may be, else the largest), its
 * index and its sign (assembly/layout.ts
 * QUANT_*). Every key is decoded as the kernels decode it and checked against the float key, and
 * between keys the interpolation's growth of the error is bounded (lerp keeps it; nlerp turns an
 * error e of the lerped keys into at most asin(e / |lerp(q0, q1, w)|) after the normalisation),
 * so the bound holds at every sample time; neighbouring decoded keys must keep a dot product ≥
 * MIN_DECODED_DOT, so that slerp takes the float keys' arc.
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

/**
 * The largest rounding error of a stored component: a word is the nearest integer of the right
 * parity (its bit 0 is a flag), so values lie two units apart and the error is one unit,
 * √½ / QUANT_ROTATION_WORD_MAX ≈ 2.16e-5, before the f32 rounding of the decode. The omitted
 * component, √(1 − a² − b² − c²), is then within 3 units to first order (its gradient,
 * −(a, b, c) / |omitted|, is no longer than √3 while |omitted| ≥ ½), so a decoded key is within
 * √12 units (≈ 7.5e-5, Euclidean) of the key (test/core/quantized.test.ts asserts both).
 */
export const ROTATION_HALF_STEP = Math.SQRT1_2 / QUANT_ROTATION_WORD_MAX;

/**
 * Whether component `i` of the key at `at` may be the omitted one: magnitude ≥ ½ (which the
 * error bound assumes) and the three others within the words' range, ±√½.
 */
function omittable(keys: Float32Array, at: number, i: number): boolean {
  for (let j = 0; j < 4; j++) if (j !== i && !(Math.abs(keys[at + j]!) <= Math.SQRT1_2)) return false;
  return Math.abs(keys[at + i]!) >= 0.5;
}

function quantizeRotations(keys: Float32Array, count: number, tolerance: number): QuantizedCurve | null {
  const codes = new Uint16Array(3 * count);
  const decoded = new Float32Array(4 * count);
  // Per key, the distance of the decoded key from the stored one (Euclidean, in f64).
  const errors = new Float64Array(count);
  const budget = tolerance - roundingSlack(1);
  let omitted = 0;
  // Scalar code, no arrays per key: a crowd loads millions of keys.
  for (let k = 0; k < count; k++) {
    const at = 4 * k;
    let largest = 0;
    for (let i = 0; i < 4; i++) {
      const v = keys[at + i]!;
      // Beyond ±1 by more than rounding: not a unit key (nor a rotation); NaN fails here too.
      if (!(Math.abs(v) <= 1 + 2 ** -10)) return null;
      if (Math.abs(v) > Math.abs(keys[at + largest]!)) largest = i;
    }
    // w where it may be omitted (a curve that omits w in every key needs no placement in the SIMD
    // kernel), else the previous key's omitted component while it may still be: neighbouring keys
    // then share their flags, the SIMD nlerp's fast path (assembly/quantized-clip.ts).
    if (omittable(keys, at, 3)) largest = 3;
    else if (k > 0 && omittable(keys, at, omitted)) largest = omitted;
    omitted = largest;
    for (let i = 0, j = 0; i < 4; i++) {
      if (i === largest) continue;
      // Bit 0 of the words: the omitted index's low and high bit, then its sign.
      const flag = j === 0 ? largest & 1 : j === 1 ? largest >> 1 : keys[at + largest]! < 0 ? 1 : 0;
      // The nearest word whose bit 0 is the flag: 2·round((v − flag) / 2) + flag, within ±(WORD_MAX + 1).
      const half = Math.round((keys[at + i]! / ROTATION_STEP - flag) / 2);
      codes[3 * k + j] = (2 * Math.max(-(QUANT_ROTATION_WORD_MAX >> 1) - 1, Math.min(QUANT_ROTATION_WORD_MAX >> 1, half)) + flag) & 0xffff;
      j++;
    }
    decodeRotationInto(codes, k, decoded, at);
    let sq = 0;
    for (let i = 0; i < 4; i++) sq += (decoded[at + i]! - keys[at + i]!) ** 2;
    errors[k] = Math.sqrt(sq);
    // NaN (a negative root: the omitted component far below ½) fails here too.
    if (!(errors[k]! <= budget)) return null;
  }
  for (let k = 0; k + 1 < count; k++) {
    // The shortest lerp of keys k and k + 1 over w in [0, 1] (its length is a quadratic in w).
    let dd = 0, ad = 0, dot = 0;
    for (let i = 0; i < 4; i++) {
      const a = keys[4 * k + i]!, d = keys[4 * k + 4 + i]! - a;
      dd += d * d;
      ad += a * d;
      dot += decoded[4 * k + i]! * decoded[4 * k + 4 + i]!;
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

/**
 * Rotation key k (x, y, z, w) from its smallest three `codes` (three words per key,
 * assembly/layout.ts QUANT_*) into `out` at `at`, in f32 as the kernels compute it: in word units
 * the omitted component √(ROTATION_UNIT_SQ − ((a² + b²) + c²)) with its sign, placed at its index
 * with the three words around it in order, then each component × ROTATION_STEP.
 */
function decodeRotationInto(codes: Uint16Array, k: number, out: Float32Array, at: number): void {
  const w0 = codes[3 * k]!, w1 = codes[3 * k + 1]!, w2 = codes[3 * k + 2]!;
  // The words as i16, in word units.
  const a = (w0 << 16) >> 16, b = (w1 << 16) >> 16, c = (w2 << 16) >> 16;
  const l = fr(Math.sqrt(fr(ROTATION_UNIT_SQ - fr(fr(fr(a * a) + fr(b * b)) + fr(c * c)))));
  const omitted = (w0 & 1) | ((w1 & 1) << 1);
  out[at + omitted] = fr((w2 & 1 ? -l : l) * ROTATION_STEP);
  out[at + (omitted === 0 ? 1 : 0)] = fr(a * ROTATION_STEP);
  out[at + (omitted <= 1 ? 2 : 1)] = fr(b * ROTATION_STEP);
  out[at + (omitted === 3 ? 2 : 3)] = fr(c * ROTATION_STEP);
}

/**
 * Whether a quantized rotation curve's `codes` omit w in every key, with the same sign in
 * neighbouring keys: the SIMD kernel samples such curves four at a time without placing the
 * omitted component or checking the flags (assembly/layout.ts QUANT_W_ROTATIONS).
 */
export function omitsW(codes: Uint16Array): boolean {
  for (let at = 0; at < codes.length; at += 3) {
    if ((codes[at]! & codes[at + 1]! & 1) === 0) return false;
    if (at > 0 && (codes[at + 2]! ^ codes[at - 1]!) & 1) return false;
  }
  return true;
}

/** Rotation key k (x, y, z, w) of a quantized rotation curve's `codes`, as the kernels decode it (f32). */
export function decodeRotation(codes: Uint16Array, k: number): [number, number, number, number] {
  const out = new Float32Array(4);
  decodeRotationInto(codes, k, out, 0);
  return [out[0]!, out[1]!, out[2]!, out[3]!];
}
