// Plain-TypeScript twin of assembly/unity-curve.ts: Unity `AnimationCurve.Evaluate` (spec
// mrtk.md §5–§6), in float64 on the float32 keys. Every step below has the same operations in the
// same order as the kernel, so both agree to rounding of the math library.
import { isLinearSegment, type UnityCurve } from '../anim/index.js';

/** Unity's default Bézier weight for a side whose weightedMode bit is not set (float32 1/3). */
export const UNITY_DEFAULT_WEIGHT = Math.fround(1 / 3);

/** Unity `Mathf.Repeat`: x wrapped into [0, length]. */
function repeat(x: number, length: number): number {
  return Math.min(Math.max(x - Math.floor(x / length) * length, 0), length);
}

/**
 * The time at which a curve with keys from `begin` to `end` is evaluated for time `t` (spec
 * mrtk.md §5): unchanged inside the range; outside it, `pre` (before) or `post` (after) decides:
 * 1 and 8 clamp (the unchanged time then clamps in the key lookup), 4 ping-pongs, every other
 * value repeats. A zero-length curve (begin = end) always clamps: real Unity returns NaN there
 * for Loop before the range; we return the first / last key's value instead.
 */
export function wrapUnityTime(t: number, begin: number, end: number, pre: number, post: number): number {
  const mode = t < begin ? pre : t > end ? post : 1;
  const length = end - begin;
  if (mode === 1 || mode === 8 || !(length > 0)) return t;
  if (mode === 4) return begin + (length - Math.abs(repeat(t - begin, 2 * length) - length));
  return begin + repeat(t - begin, length);
}

/**
 * Index of the last key with time ≤ t, or −1 when t is before every key (spec mrtk.md §6.1:
 * upper bound, then −1). Evaluating exactly at an interior key uses the segment starting there.
 */
export function unityKeyIndex(time: Float32Array, t: number): number {
  let first = 0;
  let length = time.length;
  while (length > 0) {
    const half = length >> 1;
    const middle = first + half;
    if (t < time[middle]!) {
      length = half;
    } else {
      first = middle + 1;
      length = length - half - 1;
    }
  }
  return first - 1;
}

/** Signed cube root as Unity computes it, exp(log(x) / 3) (spec mrtk.md §6.4). */
function cbrt(x: number): number {
  return x < 0 ? -Math.exp(Math.log(-x) / 3) : Math.exp(Math.log(x) / 3);
}

/**
 * Unity `BezierExtractU` (spec mrtk.md §6.4): the u ∈ [0, 1] with x(u) = s for the Bézier time
 * polynomial with control x-values 0, w1, w2, 1. Closed form (cubic, quadratic, linear by the
 * 1e-3 thresholds); when no root lands in [0, 1], 0 for s < 0.5 and 1 otherwise.
 */
export function bezierExtractU(s: number, w1: number, w2: number): number {
  const a = 3 * w1 - 3 * w2 + 1;
  const b = -6 * w1 + 3 * w2;
  const c = 3 * w1;
  const fallback = s < 0.5 ? 0 : 1;
  if (Math.abs(a) > 1e-3) {
    const p = -b / (3 * a);
    const p2 = p * p;
    const q = p2 * p + (b * c + 3 * a * s) / (6 * a * a);
    const q2 = q * q;
    const rmp2 = c / (3 * a) - p2;
    const d = q2 + rmp2 * rmp2 * rmp2;
    if (d < 0) {
      const r3 = Math.exp(Math.log(Math.sqrt(q2 - d)) / 3);
      const phi3 = Math.atan2(Math.sqrt(-d), q) / 3;
      const u1 = 2 * r3 * Math.cos(phi3) + p;
      if (u1 >= 0 && u1 <= 1) return u1;
      const u2 = 2 * r3 * Math.cos(phi3 + (2 * Math.PI) / 3) + p;
      if (u2 >= 0 && u2 <= 1) return u2;
      const u3 = 2 * r3 * Math.cos(phi3 - (2 * Math.PI) / 3) + p;
      if (u3 >= 0 && u3 <= 1) return u3;
      return fallback;
    }
    const sd = Math.sqrt(d);
    const u = cbrt(q + sd) + cbrt(q - sd) + p;
    return u >= 0 && u <= 1 ? u : fallback;
  }
  if (Math.abs(b) > 1e-3) {
    const sd = Math.sqrt(c * c + 4 * b * s);
    const u1 = (-c - sd) / (2 * b);
    if (u1 >= 0 && u1 <= 1) return u1;
    const u2 = (-c + sd) / (2 * b);
    if (u2 >= 0 && u2 <= 1) return u2;
    return fallback;
  }
  if (Math.abs(c) > 1e-3) return s / c;
  return 0;
}

/**
 * Segment (k, k + 1) of `curve` at time `t` (t0 ≤ t < t1) by Unity's general rules (spec mrtk.md
 * §6.2–§6.4), without the linear fast path: stepped when k's outTangent or k+1's inTangent is
 * infinite; weighted Bézier when k has the Out bit or k+1 the In bit (unset sides weigh 1/3);
 * Hermite otherwise. `sign` (±1) multiplies key k+1's value and inTangent (hemisphere alignment).
 */
export function interpolateUnitySegment(curve: UnityCurve, k: number, t: number, sign: number): number {
  const v0 = curve.value[k]!;
  const v1 = sign * curve.value[k + 1]!;
  const outTangent = curve.outTangent[k]!;
  const inTangent = sign * curve.inTangent[k + 1]!;
  if (Math.abs(outTangent) === Infinity || Math.abs(inTangent) === Infinity) return v0;
  const t0 = curve.time[k]!;
  const dx = curve.time[k + 1]! - t0;
  const s = (t - t0) / dx;
  const m0 = outTangent * dx;
  const m1 = inTangent * dx;
  const outBit = (curve.weightedMode[k]! & 2) !== 0;
  const inBit = (curve.weightedMode[k + 1]! & 1) !== 0;
  if (outBit || inBit) {
    const w1 = outBit ? curve.outWeight[k]! : UNITY_DEFAULT_WEIGHT;
    const w2 = inBit ? curve.inWeight[k + 1]! : UNITY_DEFAULT_WEIGHT;
    const u = bezierExtractU(s, w1, 1 - w2);
    const p1 = v0 + w1 * m0;
    const p2 = v1 - w2 * m1;
    const omu = 1 - u;
    return omu * omu * omu * v0 + 3 * u * omu * omu * p1 + 3 * u * u * omu * p2 + u * u * u * v1;
  }
  const a = 2 * v0 + m0 - 2 * v1 + m1;
  const b = -3 * v0 - 2 * m0 + 3 * v1 - m1;
  return s * (s * (a * s + b) + m0) + v0;
}

/**
 * Segment (k, k + 1) at `t` as the evaluator computes it: straight segments (`isLinearSegment`)
 * by lerp, which equals the weighted Bézier exactly in real arithmetic (spec mrtk.md §6.7), the
 * rest by `interpolateUnitySegment`.
 */
export function evaluateUnitySegment(curve: UnityCurve, k: number, t: number, sign: number): number {
  if (isLinearSegment(curve, k)) {
    const v0 = curve.value[k]!;
    const t0 = curve.time[k]!;
    return v0 + (sign * curve.value[k + 1]! - v0) * ((t - t0) / (curve.time[k + 1]! - t0));
  }
  return interpolateUnitySegment(curve, k, t, sign);
}

/**
 * Unity `AnimationCurve.Evaluate(t)` (spec mrtk.md §5–§6): 0 keys → 0; 1 key → its value;
 * otherwise wrap the time, find the segment, and interpolate; clamped times give the first or
 * last key's value. `t` in seconds; float64 result.
 */
export function evaluateUnityCurve(curve: UnityCurve, t: number): number {
  const n = curve.time.length;
  if (n === 0) return 0;
  if (n === 1) return curve.value[0]!;
  const tw = wrapUnityTime(t, curve.time[0]!, curve.time[n - 1]!, curve.preWrapMode, curve.postWrapMode);
  const k = unityKeyIndex(curve.time, tw);
  if (k < 0) return curve.value[0]!;
  if (k >= n - 1) return curve.value[n - 1]!;
  return evaluateUnitySegment(curve, k, tw, 1);
}

/**
 * A boolean curve as an exact step (spec mrtk.md §6.7–§6.8): after wrapping, the value of the
 * last key with time ≤ t (the first key's before it), 0 for an empty curve; then `> 0.5` → 1,
 * else 0 (MRTK `isTracked` / `isPinching`).
 */
export function evaluateUnityStep(curve: UnityCurve, t: number): number {
  const n = curve.time.length;
  if (n === 0) return 0;
  const tw = wrapUnityTime(t, curve.time[0]!, curve.time[n - 1]!, curve.preWrapMode, curve.postWrapMode);
  const k = unityKeyIndex(curve.time, tw);
  return curve.value[Math.max(k, 0)]! > 0.5 ? 1 : 0;
}
