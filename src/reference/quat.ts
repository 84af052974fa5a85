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

function dot(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  return a[ai]! * b[bi]! + a[ai + 1]! * b[bi + 1]! + a[ai + 2]! * b[bi + 2]! + a[ai + 3]! * b[bi + 3]!;
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

/**
 * DirectXMath `XMQuaternionSlerpV` (spec nebula.md §3.4): shortest arc, 1e-5 linear fallback, not
 * renormalised; a result shorter than 1e-6 (from zero keys) is identity, as under nlerp.
 */
export function slerp(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, w: number): F4 {
  let c = dot(a, ai, b, bi);
  let sign = 1;
  if (c < 0) {
    c = -c;
    sign = -1;
  }
  let s0: number;
  let s1: number;
  if (c < 1 - 1e-5) {
    const omega = Math.atan2(Math.sqrt(1 - c * c), c);
    const so = Math.sin(omega);
    s0 = Math.sin((1 - w) * omega) / so;
    s1 = (sign * Math.sin(w * omega)) / so;
  } else {
    s0 = 1 - w;
    s1 = sign * w;
  }
  const r: F4 = [0, 0, 0, 0];
  for (let k = 0; k < 4; k++) r[k] = s0 * a[ai + k]! + s1 * b[bi + k]!;
  return r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3] < MIN_LENGTH_SQ ? [...IDENTITY] : r;
}
