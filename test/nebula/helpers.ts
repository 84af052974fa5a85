import { expect } from 'vitest';
import { FormatError } from '../../src/errors.js';
import type { AnimResource } from '../../src/anim/index.js';
import { ByteWriter } from '../../src/formats/binary.js';
import type { UniformKeys } from '../../src/anim/index.js';

/** Runs `fn` and returns the `FormatError` it throws (fails the test if it throws anything else or nothing). */
export function formatErrorOf(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw new Error(`expected a FormatError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a FormatError, but nothing was thrown');
}

/** Max |a[i] − b[i]|. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-6): void {
  const d = maxAbsDiff(actual, expected);
  if (!(d <= tol)) expect.fail(`[${Array.from(actual).join(', ')}] differs from [${Array.from(expected).join(', ')}] by ${d} > ${tol}`);
}

/**
 * Compares two float4 key arrays key by key, allowing a key to match with its sign flipped
 * (quaternions q and −q are the same rotation). Returns the number of keys that matched only
 * after flipping; fails when a key matches neither way within `tol`.
 */
export function countSignFlips(a: Float32Array, b: Float32Array, tol: number, allowFlip: (key: number) => boolean = () => true): number {
  expect(a.length).toBe(b.length);
  let flips = 0;
  for (let k = 0; k < a.length / 4; k++) {
    let same = 0;
    let flipped = 0;
    for (let c = 0; c < 4; c++) {
      same = Math.max(same, Math.abs(a[4 * k + c]! - b[4 * k + c]!));
      flipped = Math.max(flipped, Math.abs(a[4 * k + c]! + b[4 * k + c]!));
    }
    if (same <= tol) continue;
    if (flipped <= tol && allowFlip(k)) {
      flips++;
      continue;
    }
    expect.fail(`key ${k} differs: [${a.subarray(4 * k, 4 * k + 4).join(', ')}] vs [${b.subarray(4 * k, 4 * k + 4).join(', ')}]`);
  }
  return flips;
}

/** The model content of a resource's clips, for `toEqual` comparisons across formats. */
export function clipContent(resource: AnimResource): unknown[] {
  return resource.clips.map((c) => ({
    keyCount: c.keyCount,
    keyDuration: c.keyDuration,
    duration: c.duration,
    pre: c.preInfinity,
    post: c.postInfinity,
    events: c.events,
    curves: c.curves.map((curve) => ({
      curveType: curve.curveType,
      active: curve.active,
      target: curve.target,
      encoding: curve.keys.encoding,
      values: curve.keys.encoding === 'static' ? Array.from(curve.keys.value) : Array.from((curve.keys as UniformKeys).values),
    })),
  }));
}

export interface SynthNax2Curve {
  ipol: number;
  first: number;
  isAnimated?: number;
  key?: [number, number, number, number];
}

export interface SynthNax2Group {
  startKey?: number;
  numKeys: number;
  keyStride: number;
  keyTime?: number;
  fadeIn?: number;
  loopType?: number;
  metadata?: string;
  curves: SynthNax2Curve[];
}

/** Builds a synthetic `.nax2` in layout A, B, C512 or C256 (spec nebula.md §1.3). */
export function buildNax2(layout: 'A' | 'B' | 'C512' | 'C256', groups: SynthNax2Group[], keys: number[][]): Uint8Array {
  const w = new ByteWriter(true);
  for (const ch of layout.startsWith('C') ? '3XAN' : '2XAN') w.u8(ch.charCodeAt(0));
  w.i32(groups.length);
  w.i32(keys.length);
  for (const g of groups) {
    w.i32(g.curves.length);
    w.i32(g.startKey ?? 0);
    w.i32(g.numKeys);
    w.i32(g.keyStride);
    w.f32(g.keyTime ?? 0.04);
    if (layout !== 'A') w.f32(g.fadeIn ?? 0);
    w.i32(g.loopType ?? 1);
    if (layout === 'C512') w.fixedString(g.metadata ?? '', 512);
    if (layout === 'C256') w.fixedString(g.metadata ?? '', 256);
  }
  for (const g of groups) {
    for (const c of g.curves) {
      if (layout === 'A') w.i16(c.ipol);
      else w.i32(c.ipol);
      w.i32(c.first);
      if (layout !== 'A') w.i32(c.isAnimated ?? 1);
      w.f32Array(c.key ?? [0, 0, 0, 0]);
    }
  }
  for (const k of keys) w.f32Array(k);
  return w.finish();
}

/** Writes `s` as raw latin-1 bytes. */
export function ascii(w: ByteWriter, s: string): void {
  for (const ch of s) w.u8(ch.charCodeAt(0));
}
