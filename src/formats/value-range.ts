import { firstBadFloat32 } from './float32-check.js';

/**
 * The range of numbers animcore takes from a file as key, rest-pose, mesh or time values: finite
 * and within ±1e38. Float32 goes to ±3.4e38, but interpolation computes the difference of two
 * keys (`a + (b − a)·w`), which must itself stay a float32; with both within ±1e38 it does, so no
 * finite key samples as Inf or NaN (issue 13). No animation format has a use for more: NaN, ±Inf
 * and larger magnitudes are refused as `FormatError`s where they are read.
 */
export const MAX_FILE_VALUE = 1e38;

/** Whether `v` is finite and within ±`MAX_FILE_VALUE` (false for NaN). */
export function isFileValue(v: number): boolean {
  return Math.abs(v) <= MAX_FILE_VALUE;
}

/** Index of the first value of `values` that `isFileValue` refuses, or −1. */
export function firstBadValue(values: ArrayLike<number>): number {
  const simd = values instanceof Float32Array ? firstBadFloat32(values) : undefined;
  if (simd !== undefined) return simd;
  for (let i = 0; i < values.length; i++) if (!(Math.abs(values[i]!) <= MAX_FILE_VALUE)) return i;
  return -1;
}

/** What a `FormatError` says about a refused value: `expected a finite number within ±1e38, found NaN`. */
export function describeBadValue(v: number): string {
  return `expected a finite number within ±${MAX_FILE_VALUE}, found ${v}`;
}
