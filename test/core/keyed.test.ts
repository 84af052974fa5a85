import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryKeyedClip, arbitraryOwnTimesKeyedClip } from '../helpers/random-clip.js';
import { expectSamplesLikeReference } from '../helpers/sample-like-reference.js';

function keyed(times: number[], xs: number[]): AnimCurve {
  return {
    curveType: 'translation',
    active: true,
    target: { joint: 'a', property: 'translation' },
    keys: { encoding: 'keyed', times: Float32Array.from(times), values: Float32Array.from(xs.flatMap((x) => [x, 2 * x, 0, 0])) },
  };
}

describe.each(BUILDS)('keyed curves, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  function sampleX(clip: AnimClip, times: number[]): number[] {
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    const buf = core.createSampleBuffer(clip);
    const xs = times.map((t) => (core.sampler.sample(clip, t, buf), buf.samples[0]!));
    buf.dispose();
    resource.dispose();
    return xs;
  }

  it('holds before the first key and after the last, steps on equal times, holds a single key', () => {
    const clip = new AnimClip({ name: 'k', curves: [keyed([0.5, 1, 1, 2], [10, 20, 30, 40])] });
    expect(clip.duration).toBe(2);
    expect(sampleX(clip, [-1, 0.5, 0.75, 0.999, 1, 1.5, 2, 3])).toEqual([10, 10, 15, expect.closeTo(19.98, 4), 30, 35, 40, 40]);
    const single = new AnimClip({ name: 's', curves: [keyed([0.25], [7])] });
    expect(sampleX(single, [-5, 0.25, 9])).toEqual([7, 7, 7]);
  });

  it('takes the key of the interval that holds the time in float64, where float32 rounds the time onto the next key', () => {
    // 1 − 2⁻³⁰ rounds to 1 in float32: the cursor's float32 hint lands on key 1, the float64 check
    // keeps key 0 (a STEP curve shows which key was taken), for a curve of its own and a time group.
    const t = 1 - 2 ** -30;
    const times = Float32Array.of(0, 1, 2);
    const stepCurve = (joint: string, keyTimes: Float32Array): AnimCurve => ({
      ...keyed([], []),
      target: { joint, property: 'translation' },
      keys: { encoding: 'keyed', times: keyTimes, values: Float32Array.of(10, 20, 0, 0, 20, 40, 0, 0, 30, 60, 0, 0), interpolation: 'step' },
    });
    const own = new AnimClip({ name: 'own', curves: [stepCurve('a', times)] });
    expect(sampleX(own, [0.5, t, 1, t])).toEqual([10, 10, 20, 10]);
    const shared = new AnimClip({ name: 'shared', curves: [stepCurve('a', times), stepCurve('b', times)] });
    expect(sampleX(shared, [0.5, t, 1, t])).toEqual([10, 10, 20, 10]);
  });

  it('gives the same results whatever the cursor holds (forward, backward and random playback)', () => {
    fc.assert(
      fc.property(arbitraryKeyedClip, fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 2, maxLength: 20 }), (clip, times) => {
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource);
        const sorted = [...times].sort((a, b) => a - b);
        expectSamplesLikeReference(core, clip, [...sorted, ...[...sorted].reverse(), ...times], {});
        resource.dispose();
      }),
      { numRuns: 500 },
    );
  });

  // Curves with times of their own are sampled in chunks of 64, a key pass listing the curves to
  // interpolate and an interpolation pass over the list (the SIMD build nlerps four listed
  // rotations at a time, each with its own weight): many curves of different key counts, held and
  // interpolated curves side by side, catch a key, weight or output taken from the wrong lane.
  it('samples many curves with times of their own like the reference (chunks, lanes, held keys; nlerp, slerp, step)', () => {
    fc.assert(
      fc.property(
        arbitraryOwnTimesKeyedClip,
        fc.array(fc.double({ min: -1, max: 3, noNaN: true }), { minLength: 2, maxLength: 8 }),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        fc.constantFrom('linear', 'linear', 'step') as fc.Arbitrary<'linear' | 'step'>,
        (clip, times, rotation, sampleType) => {
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          const sorted = [...times].sort((a, b) => a - b);
          try {
            expectSamplesLikeReference(core, clip, [...sorted, ...[...sorted].reverse(), ...times], { rotation, sampleType });
          } finally {
            resource.dispose();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

// The SIMD build finds a curve's interval with vector compares (the cursor's next times in one
// load, the interval's two times as an f64 pair) where the scalar build compares time by time;
// both take the same key and weight, so forward playback in small steps (the cursor staying,
// moving one or two keys, or searching), jumps back and held keys give the same bits.
describe('curves with times of their own, SIMD and scalar builds', () => {
  it('sample the same bits (nlerp, slerp, step; forward steps, jumps)', async () => {
    const cores = await Promise.all(BUILDS.map((build) => createCore(build)));
    fc.assert(
      fc.property(
        arbitraryOwnTimesKeyedClip,
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.array(fc.oneof(fc.constant(1 / 60), fc.double({ min: 0, max: 0.4, noNaN: true }), fc.double({ min: -2, max: 0, noNaN: true })), { minLength: 1, maxLength: 40 }),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        fc.constantFrom('linear', 'linear', 'step') as fc.Arbitrary<'linear' | 'step'>,
        (clip, start, steps, rotation, sampleType) => {
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          const [a, b] = cores.map((core) => {
            core.load(resource);
            const buf = core.createSampleBuffer(clip);
            const bits: number[] = [];
            let t = start;
            for (const step of [0, ...steps]) {
              t += step;
              core.sampler.sample(clip, t, buf, { rotation, sampleType });
              bits.push(...new Uint32Array(buf.samples.buffer, buf.samples.byteOffset, buf.samples.length));
            }
            buf.dispose();
            return bits;
          });
          resource.dispose();
          expect(a).toEqual(b);
        },
      ),
      { numRuns: 200 },
    );
  });
});
