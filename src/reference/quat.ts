// Plain-TypeScript twins of assembly/quat.ts, in float64. Each reads float4s at offsets of
// Float32Arrays and writes one float4.
import { QUAT_MIN_LENGTH } from './sample-unity.js';

/** |q|² of a zero rotation, rounded to float32 as the kernels' threshold is. */
const MIN_LENGTH_SQ = Math.fround(QUAT_MIN_LENGTH * QUAT_MIN_LENGTH);
const IDENTITY: F4 = [0, 0, 0, 1];

export type F4 = [number, number, number, number];

export function lerp4(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, w: number): F4 {
  const r: F4 = [0, 0, 0, 0];
  for (let c = 0; c < 4; c++) r[c] = a[ai + c]! + (b[bi + c]! - a[ai + c]!) * w;
  return r;
}

/** q / |q|; a zero rotation (|q|² < 1e-12) is identity (assembly/quat.ts). */
export function normalize(q: F4): F4 {
  const len = Math.hypot(q[0], q[1], q[2], q[3]);
  if (len * len < MIN_LENGTH_SQ) return [...IDENTITY];
  return [q[0] / len, q[1] / len, q[2] / len, q[3] / len];
}

/**
 * dot(a, b) as the kernels compute it for the shortest-arc test: float32, summed
 * (xx + yy) + (zz + ww). Near dot = 0 the side depends on rounding, so the twin rounds alike.
 */
function dotF32(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  const f = Math.fround;
  const xy = f(f(a[ai]! * b[bi]!) + f(a[ai + 1]! * b[bi + 1]!));
  const zw = f(f(a[ai + 2]! * b[bi + 2]!) + f(a[ai + 3]! * b[bi + 3]!));
  return f(xy + zw);
}

/** Normalised lerp; with `shortest`, b is negated when dot(a, b) < 0 (float32 test, as the kernels). */
export function nlerp(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, w: number, shortest: boolean): F4 {
  const s = shortest && dotF32(a, ai, b, bi) < 0 ? -1 : 1;
  const r: F4 = [0, 0, 0, 0];
  for (let c = 0; c < 4; c++) r[c] = a[ai + c]! + (s * b[bi + c]! - a[ai + c]!) * w;
  return normalize(r);
}

/** μ and u_i, v_i of the kernels' slerp polynomial (assembly/quat.ts). */
const SLERP_MU = 1.8632;
const SLERP_U = [1 / 3, 1 / 10, 1 / 21, 1 / 36, 1 / 55, 1 / 78, 1 / 105, SLERP_MU / 136];
const SLERP_V = [1 / 3, 2 / 5, 3 / 7, 4 / 9, 5 / 11, 6 / 13, 7 / 15, (SLERP_MU * 8) / 17];

/** cos θ − 1 from which the kernels keep three terms (key gaps up to ~20°). */
const SLERP_SMALL = -1 / 64;
/** cos θ − 1 below which the kernels halve the gap (key gaps over 120°). */
const SLERP_EXACT = -0.5;
/** |q|² within this of 1 is a unit quaternion, whose gaps the kernels halve. */
const UNIT_TOLERANCE = 1e-3;

/**
 * sin(tθ)/sin θ from x = cos θ by Eberly's polynomial, in the kernels' order of operations: three
 * terms by Horner for small gaps, all eight by Estrin's scheme otherwise.
 */
function slerpCoefficient(t: number, x: number): number {
  const s = t * t;
  const p = [1];
  for (let j = 0; j < 8; j++) p.push(p[j]! * (SLERP_U[j]! * s - SLERP_V[j]!));
  const xm1 = Math.min(x, 1) - 1; // cos θ above 1 (longer than unit keys): linear weights
  if (xm1 >= SLERP_SMALL) return (((p[3]! * xm1 + p[2]!) * xm1 + p[1]!) * xm1 + 1) * t;
  const x2 = xm1 * xm1;
  const x4 = x2 * x2;
  const e01 = 1 + p[1]! * xm1;
  const e23 = p[2]! + p[3]! * xm1;
  const e45 = p[4]! + p[5]! * xm1;
  const e67 = p[6]! + p[7]! * xm1;
  return (e01 + e23 * x2 + (e45 + e67 * x2 + p[8]! * x4) * x4) * t;
}

/**
 * Twin of the kernels' slerp (assembly/quat.ts): DirectXMath `XMQuaternionSlerpV` semantics (spec
 * nebula.md §3.4: shortest arc, not renormalised) with sin(tθ)/sin θ evaluated by Eberly's
 * polynomial for weights in [0, 1] and key gaps up to 120°; a larger gap between unit
 * quaternions is halved at its midpoint (rounded to float32, as the kernels store it) and the
 * polynomial runs on the half that holds w, with weight 2w or 2w − 1; otherwise `exactSlerp`. A
 * result shorter than 1e-6 (from zero keys) is identity, as under nlerp.
 */
export function slerp(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, w: number): F4 {
  if (!(w >= 0 && w <= 1)) return exactSlerp(a, ai, b, bi, w);
  const x = orderedDot(a, ai, b, bi);
  if (Math.min(Math.abs(x), 1) - 1 >= SLERP_EXACT) return polynomialSlerp(a, ai, b, bi, w);
  const unit = (q: ArrayLike<number>, i: number): boolean => Math.abs(orderedDot(q, i, q, i) - 1) <= UNIT_TOLERANCE;
  if (!unit(a, ai) || !unit(b, bi)) return exactSlerp(a, ai, b, bi, w);
  const s = x < 0 ? -1 : 1;
  const k = 1 / Math.sqrt(2 + 2 * Math.abs(x));
  const m = [0, 1, 2, 3].map((c) => Math.fround((a[ai + c]! + s * b[bi + c]!) * k));
  return w <= 0.5 ? polynomialSlerp(a, ai, m, 0, 2 * w) : polynomialSlerp(m, 0, b, bi, 2 * w - 1);
}

/** The polynomial slerp of a gap up to 120° (`exactSlerp` beyond: a half gap between quaternions that are not unit). */
function polynomialSlerp(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, w: number): F4 {
  let x = orderedDot(a, ai, b, bi);
  let sign = 1;
  if (x < 0) {
    x = -x;
    sign = -1;
  }
  if (Math.min(x, 1) - 1 < SLERP_EXACT) return exactSlerp(a, ai, b, bi, w);
  return combine(a, ai, b, bi, slerpCoefficient(1 - w, x), sign * slerpCoefficient(w, x));
}

/**
 * The exact DirectXMath `XMQuaternionSlerpV` (spec nebula.md §3.4): shortest arc, 1e-5 linear
 * fallback, not renormalised; a result shorter than 1e-6 is identity. The oracle for the
 * polynomial's error bound, and the kernels' formula for weights outside [0, 1].
 */
export function exactSlerp(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, w: number): F4 {
  let c = orderedDot(a, ai, b, bi);
  let sign = 1;
  if (c < 0) {
    c = -c;
    sign = -1;
  }
  if (c >= 1 - 1e-5) return combine(a, ai, b, bi, 1 - w, sign * w);
  const omega = Math.atan2(Math.sqrt(1 - c * c), c);
  const so = Math.sin(omega);
  return combine(a, ai, b, bi, Math.sin((1 - w) * omega) / so, (sign * Math.sin(w * omega)) / so);
}

/** dot(a, b) summed (xx + zz) + (yy + ww), the slerp kernels' order (it decides the arc). */
function orderedDot(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  return a[ai]! * b[bi]! + a[ai + 2]! * b[bi + 2]! + (a[ai + 1]! * b[bi + 1]! + a[ai + 3]! * b[bi + 3]!);
}

/** s0·a + s1·b, identity when shorter than 1e-6. */
function combine(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, s0: number, s1: number): F4 {
  const r: F4 = [0, 0, 0, 0];
  for (let k = 0; k < 4; k++) r[k] = s0 * a[ai + k]! + s1 * b[bi + k]!;
  return r[0] * r[0] + r[2] * r[2] + (r[1] * r[1] + r[3] * r[3]) < MIN_LENGTH_SQ ? [...IDENTITY] : r;
}
