import { type AnimClip, type AnimCurve, withClosingKey } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import { QUANT_ROTATION_MAX } from '../../../assembly/layout.js';

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
  /** Three u16 per key, keyCount + 1 keys (the closing key last, as `withClosingKey`). */
  readonly codes: Uint16Array;
  /** Translation and scale: min x, y, z and the step (f32); a component is min + code × step, w is 0. Rotations: null. */
  readonly range: Float32Array | null;
}

const CODE_MAX = 0xffff;
const fr = Math.fround;
/** A smallest-three value v is v × ROT_SCALE − ROT_OFFSET in f32 (assembly/quantized-clip.ts). */
const ROT_SCALE = fr(Math.SQRT2 / QUANT_ROTATION_MAX);
const ROT_OFFSET = fr(Math.SQRT1_2);

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
 * a translation or scale whose w is not 0, a zero rotation key, or keys that 16 bits cannot hold
 * within the bound). Translations and scales: three u16 codes over the curve's range with one
 * step for x, y and z; rotations: the smallest three components in 15 bits each, the largest one's
 * index and the sign in the spare bits (assembly/layout.ts QUANT_*). Every decoded key is checked
 * against the float key, and between keys the interpolation's growth of the error is bounded
 * (nlerp divides it by at most |lerp(q0, q1, ½)|), so the bound holds at every sample time.
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
  return 8 * 2 ** -24 * Math.max(1, m);
}

function quantizeVectors(keys: Float32Array, count: number, tolerance: number): QuantizedCurve | null {
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let at = 0; at < 4 * count; at += 4) {
    const x = keys[at]!, y = keys[at + 1]!, z = keys[at + 2]!;
    if (keys[at + 3] !== 0 || !Number.isFinite(x + y + z)) return null;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  const step = fr(Math.max(maxX - minX, maxY - minY, maxZ - minZ) / CODE_MAX);
  if (!Number.isFinite(step)) return null;
  const range = Float32Array.of(minX, minY, minZ, step);
  const budget = tolerance - roundingSlack(Math.max(-minX, maxX, -minY, maxY, -minZ, maxZ));
  if (step / 2 > budget) return null;
  const codes = new Uint16Array(3 * count);
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < 3; i++) {
      const v = keys[4 * k + i]!;
      const code = step > 0 ? Math.min(CODE_MAX, Math.max(0, Math.round((v - range[i]!) / step))) : 0;
      codes[3 * k + i] = code;
      // Lerp is linear: errors between keys stay within the keys' errors (plus rounding).
      if (Math.abs(decodeVectorComponent(code, range, i) - v) > budget) return null;
    }
  }
  return { codes, range };
}

/** Component i of a translation or scale key from its code, as the kernel computes it in f32. */
export function decodeVectorComponent(code: number, range: Float32Array, i: number): number {
  return fr(fr(code * range[3]!) + range[i]!);
}

function quantizeRotations(keys: Float32Array, count: number, tolerance: number): QuantizedCurve | null {
  const codes = new Uint16Array(3 * count);
  const errors = new Float64Array(count);
  const unit = new Float64Array(4 * count);
  const decoded: [number, number, number, number] = [0, 0, 0, 0];
  // Scalar code, no arrays per key: a crowd loads millions of keys.
  for (let k = 0; k < count; k++) {
    const at = 4 * k;
    const len = Math.sqrt(keys[at]! * keys[at]! + keys[at + 1]! * keys[at + 1]! + keys[at + 2]! * keys[at + 2]! + keys[at + 3]! * keys[at + 3]!);
    if (!(len > 1e-6) || !Number.isFinite(len)) return null;
    let largest = 0;
    for (let i = 0; i < 4; i++) {
      unit[at + i] = keys[at + i]! / len;
      if (Math.abs(unit[at + i]!) > Math.abs(unit[at + largest]!)) largest = i;
    }
    const sign = unit[at + largest]! < 0 ? 1 : 0;
    for (let i = 0, field = 0; i < 4; i++) {
      if (i === largest) continue;
      const c = sign ? -unit[at + i]! : unit[at + i]!;
      const value = Math.min(QUANT_ROTATION_MAX, Math.max(0, Math.round((c + Math.SQRT1_2) / (Math.SQRT2 / QUANT_ROTATION_MAX))));
      // Flags: the largest index's two bits in fields 0 and 1, the sign in field 2.
      const flag = field === 0 ? largest & 1 : field === 1 ? largest >> 1 : sign;
      codes[3 * k + field++] = (value << 1) | flag;
    }
    decodeRotationInto(codes, k, decoded);
    const e0 = decoded[0] - unit[at]!, e1 = decoded[1] - unit[at + 1]!, e2 = decoded[2] - unit[at + 2]!, e3 = decoded[3] - unit[at + 3]!;
    errors[k] = Math.sqrt(e0 * e0 + e1 * e1 + e2 * e2 + e3 * e3);
  }
  const budget = tolerance - roundingSlack(1);
  for (let k = 0; k < count; k++) {
    if (errors[k]! > budget) return null;
    if (k + 1 === count) break;
    // Between keys, nlerp divides the keys' (Euclidean) error by |lerp(q0, q1, w)| ≥ |lerp(q0, q1, ½)|.
    let dot = 0;
    for (let i = 0; i < 4; i++) dot += unit[4 * k + i]! * unit[4 * k + 4 + i]!;
    const shortest = Math.sqrt(Math.max(0, (1 + dot) / 2));
    if (Math.max(errors[k]!, errors[k + 1]!) > budget * shortest) return null;
  }
  return { codes, range: null };
}

/** Rotation key k (x, y, z, w) from its three codes, as the kernel computes it in f32. */
export function decodeRotation(codes: Uint16Array, k: number): [number, number, number, number] {
  const q: [number, number, number, number] = [0, 0, 0, 0];
  decodeRotationInto(codes, k, q);
  return q;
}

function decodeRotationInto(codes: Uint16Array, k: number, q: [number, number, number, number]): void {
  const f0 = codes[3 * k]!, f1 = codes[3 * k + 1]!, f2 = codes[3 * k + 2]!;
  const a = fr(fr((f0 >> 1) * ROT_SCALE) - ROT_OFFSET);
  const b = fr(fr((f1 >> 1) * ROT_SCALE) - ROT_OFFSET);
  const c = fr(fr((f2 >> 1) * ROT_SCALE) - ROT_OFFSET);
  const w = fr(Math.sqrt(Math.max(fr(1 - fr(fr(fr(a * a) + fr(b * b)) + fr(c * c))), 0)));
  const largest = (f0 & 1) | ((f1 & 1) << 1);
  const s = f2 & 1 ? -1 : 1;
  // Lanes before the largest take a, b, c in order; the largest takes w; the rest shift by one.
  q[0] = s * (largest === 0 ? w : a);
  q[1] = s * (largest === 1 ? w : largest < 1 ? a : b);
  q[2] = s * (largest === 2 ? w : largest < 2 ? b : c);
  q[3] = s * (largest === 3 ? w : c);
}
