import fc from 'fast-check';
import { Quaternion } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReduceTrack } from '../../src/anim/index.js';
import { type AnimCore, reduceKeys } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceReduceKeys } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryReduceGroup, arbitraryReduceTrack } from '../helpers/random-track.js';

/**
 * The track `kept` leaves, sampled as a glTF viewer does (three.js: `Quaternion.slerpFlat` for
 * rotations, lerp otherwise, the held key for STEP) at `t` seconds.
 */
function sampleKept(track: ReduceTrack, kept: Uint32Array, t: number): number[] {
  const key = (k: number) => Array.from(track.values.subarray(4 * k, 4 * k + 4));
  let j = 0;
  while (j + 1 < kept.length && track.times[kept[j + 1]!]! <= t) j++;
  const a = kept[j]!;
  if (track.step || j + 1 >= kept.length) return key(a);
  const b = kept[j + 1]!;
  const u = (t - track.times[a]!) / (track.times[b]! - track.times[a]!);
  if (!track.rotation) return key(a).map((x, c) => x + (track.values[4 * b + c]! - x) * u);
  const out = [0, 0, 0, 0];
  Quaternion.slerpFlat(out, 0, Array.from(track.values), 4 * a, Array.from(track.values), 4 * b, u);
  return out;
}

/** The source at `t` the same way (every key kept). */
function sampleSource(track: ReduceTrack, t: number): number[] {
  return sampleKept(track, Uint32Array.from(track.times, (_, k) => k), t);
}

/** Distance (or rotation angle, radians) between two samples. */
function error(track: ReduceTrack, a: number[], b: number[]): number {
  if (!track.rotation) return Math.hypot(...a.map((x, c) => x - b[c]!));
  const dot = Math.abs(a.reduce((s, x, c) => s + x * b[c]!, 0)) / (Math.hypot(...a) * Math.hypot(...b));
  return 2 * Math.acos(Math.min(1, dot));
}

/** The largest error of `kept` against the source at every source key and at `between` points inside each source interval. */
function measured(track: ReduceTrack, kept: Uint32Array, between: number[]): number {
  let worst = 0;
  const n = track.times.length;
  for (let k = 0; k < n; k++) {
    const fractions = k + 1 < n ? [0, ...between] : [0];
    for (const f of fractions) {
      const t = k + 1 < n ? track.times[k]! + f * (track.times[k + 1]! - track.times[k]!) : track.times[k]!;
      // STEP jumps at key times; sample just inside the interval instead.
      worst = Math.max(worst, error(track, sampleKept(track, kept, t), sampleSource(track, t)));
    }
  }
  return worst;
}

describe('keyframe reduction (reduceKeys)', () => {
  const cores: Partial<Record<(typeof BUILDS)[number], AnimCore>> = {};
  beforeAll(async () => {
    for (const build of BUILDS) cores[build] = await createCore(build);
  });

  it('keeps the same keys as the plain-TypeScript twin in both builds, with the same largest error', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(arbitraryReduceTrack.map((t) => [t]), arbitraryReduceGroup), { minLength: 1, maxLength: 4 }), (groups) => {
        const tracks = groups.flat();
        const want = referenceReduceKeys(tracks);
        for (const build of BUILDS) {
          const got = reduceKeys(cores[build]!, tracks);
          got.forEach((g, i) => {
            expect(Array.from(g.kept), `${build} track ${i}`).toEqual(Array.from(want[i]!.kept));
            expect(g.error).toBeCloseTo(want[i]!.error, 9);
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the first and last key exactly and stays within tolerance at every source key and halfway between', () => {
    fc.assert(
      fc.property(arbitraryReduceTrack, (track) => {
        const { kept, error: reported } = reduceKeys(cores.simd!, [track])[0]!;
        const n = track.times.length;
        expect(kept[0]).toBe(0);
        if (kept.length > 1) expect(kept[kept.length - 1]).toBe(n - 1);
        for (let i = 1; i < kept.length; i++) expect(kept[i]!).toBeGreaterThan(kept[i - 1]!);
        // One key ⇔ every key within tolerance of key 0 and, for rotations, less than 180° of turning on the way.
        const key = (k: number) => Array.from(track.values.subarray(4 * k, 4 * k + 4));
        const constant = Math.max(...Array.from({ length: n }, (_, k) => error(track, key(k), key(0))));
        let turning = 0;
        for (let k = 1; k < n; k++) turning += error(track, key(k), key(k - 1));
        const clearly = constant <= track.tolerance * (1 - 1e-6) - 1e-9 && (!track.rotation || turning < Math.PI - 1e-6);
        if (kept.length === 1) expect(constant).toBeLessThanOrEqual(track.tolerance + 2e-6);
        if (clearly) expect(kept.length).toBe(1);
        // Measured independently (three.js slerp): the keys and midpoints the kernel checks.
        const slack = track.rotation ? 2e-6 : 1e-6 * Math.max(1, track.tolerance);
        const atChecked = kept.length === 1 ? constant : measured(track, kept, [0.5]);
        expect(atChecked).toBeLessThanOrEqual(track.tolerance + slack);
        expect(Math.abs(atChecked - reported)).toBeLessThanOrEqual(slack + 1e-3 * reported);
      }),
      { numRuns: 400 },
    );
  });

  it('a group keeps one set of keys, within every member\'s tolerance (morph weights of one sampler)', () => {
    fc.assert(
      fc.property(arbitraryReduceGroup, (group) => {
        const got = reduceKeys(cores.scalar!, group);
        got.forEach((g, i) => {
          expect(Array.from(g.kept)).toEqual(Array.from(got[0]!.kept));
          const track = group[i]!;
          const e = g.kept.length === 1 ? Math.max(...Array.from({ length: track.times.length }, (_, k) => error(track, Array.from(track.values.subarray(4 * k, 4 * k + 4)), Array.from(track.values.subarray(0, 4))))) : measured(track, g.kept, [0.5]);
          expect(e).toBeLessThanOrEqual(track.tolerance + (track.rotation ? 2e-6 : 1e-6 * Math.max(1, track.tolerance)));
          expect(Math.abs(e - g.error)).toBeLessThanOrEqual(2e-6 + 1e-3 * g.error);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('reduces a smooth curve: a 2 s sine at 60 keys/s to a few keys within 1e-3, a steady turn to two', () => {
    const n = 121;
    const times = Float32Array.from({ length: n }, (_, k) => k / 60);
    const sine = new Float32Array(4 * n);
    for (let k = 0; k < n; k++) sine.set([0.1 * Math.sin((Math.PI / 2) * times[k]!), 2 * times[k]!, 0, 0], 4 * k);
    const turn = new Float32Array(4 * n);
    for (let k = 0; k < n; k++) turn.set([0, Math.sin((0.5 * times[k]!) / 2), 0, Math.cos((0.5 * times[k]!) / 2)], 4 * k);
    const [a, b] = reduceKeys(cores.scalar!, [
      { times, values: sine, rotation: false, step: false, tolerance: 1e-3 },
      { times, values: turn, rotation: true, step: false, tolerance: (0.1 * Math.PI) / 180 },
    ]);
    // |x''| ≤ 0.1·(π/2)² ≈ 0.25, so a chord of H seconds strays at most 0.25·H²/8: within 1e-3
    // for H ≤ 0.18 s (11 keys at the peak), longer where the sine is straighter: 9–16 keys of 121.
    expect(a!.kept.length).toBeGreaterThanOrEqual(9);
    expect(a!.kept.length).toBeLessThanOrEqual(16);
    expect(a!.error).toBeLessThanOrEqual(1e-3);
    // A steady turn about one axis is a slerp: first and last key.
    expect(Array.from(b!.kept)).toEqual([0, n - 1]);
  });

  it('never collapses keys across a turn of 180° or more, whatever the tolerance (glTF-Transform issue #501)', () => {
    // 400° about y in 8 turns of 50°: key 0 and key 8 are 40° apart the short way.
    const n = 9;
    const times = Float32Array.from({ length: n }, (_, k) => k);
    const values = new Float32Array(4 * n);
    const half = (25 * Math.PI) / 180;
    for (let k = 0; k < n; k++) values.set([0, Math.sin(k * half), 0, Math.cos(k * half)], 4 * k);
    const track = { times, values, rotation: true, step: false, tolerance: 3 };
    for (const build of BUILDS) {
      // Spans of at most 150° (3 turns): 0, 3, 6, 8 — with a tolerance of 3 rad every span's slerp would pass otherwise.
      expect(Array.from(reduceKeys(cores[build]!, [track])[0]!.kept)).toEqual([0, 3, 6, 8]);
    }
    expect(Array.from(referenceReduceKeys([track])[0]!.kept)).toEqual([0, 3, 6, 8]);
  });

  it('keeps one key of a constant curve (rotations q and −q alike) and bakes nothing away at tolerance 0 but exact repeats', () => {
    const times = Float32Array.of(0, 0.5, 1, 1.5);
    const q = [0.5, 0.5, 0.5, 0.5];
    const constant = Float32Array.from([...q, ...q.map((x) => -x), ...q, ...q]);
    const ramp = Float32Array.of(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3.5, 0, 0, 0);
    const [c, r] = reduceKeys(cores.simd!, [
      { times, values: constant, rotation: true, step: false, tolerance: 0 },
      { times, values: ramp, rotation: false, step: false, tolerance: 0 },
    ]);
    expect(Array.from(c!.kept)).toEqual([0]);
    // 0, 1, 2 lie on a line (kept 0 and 2 reproduce 1 exactly); 3.5 breaks it.
    expect(Array.from(r!.kept)).toEqual([0, 2, 3]);
    expect(r!.error).toBe(0);
  });

  it('STEP: a key is dropped only when it holds the kept value within tolerance', () => {
    const times = Float32Array.of(0, 1, 2, 3, 4);
    const values = Float32Array.of(0, 0, 0, 0, 0.05, 0, 0, 0, 1, 0, 0, 0, 1.02, 0, 0, 0, 1, 0, 0, 0);
    const { kept, error: e } = reduceKeys(cores.scalar!, [{ times, values, rotation: false, step: true, tolerance: 0.1 }])[0]!;
    expect(Array.from(kept)).toEqual([0, 2, 4]);
    expect(e).toBeCloseTo(0.05, 6);
  });

  it('refuses tracks it cannot reduce with a UsageError', () => {
    const ok = { times: Float32Array.of(0, 1), values: new Float32Array(8), rotation: false, step: false, tolerance: 0.1 };
    expect(() => reduceKeys(cores.simd!, [{ ...ok, times: new Float32Array(0), values: new Float32Array(0) }])).toThrow(UsageError);
    expect(() => reduceKeys(cores.simd!, [{ ...ok, values: new Float32Array(4) }])).toThrow(UsageError);
    expect(() => reduceKeys(cores.simd!, [{ ...ok, times: Float32Array.of(1, 1) }])).toThrow(/does not increase/);
    expect(() => reduceKeys(cores.simd!, [{ ...ok, times: Float32Array.of(0, NaN) }])).toThrow(UsageError);
    expect(() => reduceKeys(cores.simd!, [{ ...ok, tolerance: -1 }])).toThrow(/tolerance/);
    expect(() => reduceKeys(cores.simd!, [{ ...ok, tolerance: Infinity }])).toThrow(/tolerance/);
    expect(() => reduceKeys(cores.simd!, [{ ...ok, withPrevious: true }])).toThrow(/goes with the previous track but is the first/);
    expect(() => reduceKeys(cores.simd!, [ok, { ...ok, times: Float32Array.of(0, 2), withPrevious: true }])).toThrow(/their times differ/);
  });
});
