import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer } from '../../src/core/index.js';
import { exactSlerp, slerp } from '../../src/reference/quat.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { angleDeg, expectWithinBudget, keyPair } from '../helpers/slerp-budget.js';

// The slerp bound of issue 16 and its float32 budget: test/helpers/slerp-budget.ts.

describe('the slerp polynomial (Eberly 2011) against the exact slerp', () => {
  it.each([
    [90, 1e-5],
    [180, 1e-3],
  ])('reference twin: within the bound for key gaps up to %s°', (gap, bound) => {
    fc.assert(
      fc.property(keyPair(gap), ({ q0, q1, w }) => {
        expect(angleDeg(slerp(q0, 0, q1, 0, w), exactSlerp(q0, 0, q1, 0, w))).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 5000 },
    );
  });
});

describe.each(BUILDS)('%s build slerp', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  /** Mixes 64 random key pairs at one random weight per run with the mixer's slerp; `check` gets each result. */
  const mixPairs = (pair: ReturnType<typeof keyPair>, numRuns: number, check: (got: Float32Array, q0: Float32Array, q1: Float32Array, w: number) => void) => {
    const types = Array<'rotation'>(64).fill('rotation');
    const [a, b, out] = [0, 1, 2].map(() => new AnimSampleBuffer(core, types)) as [AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer];
    try {
      fc.assert(
        fc.property(fc.array(pair, { minLength: 64, maxLength: 64 }), fc.double({ min: 0, max: 1, noNaN: true }), (pairs, weight) => {
          const w = Math.fround(weight);
          pairs.forEach(({ q0, q1 }, i) => {
            a.samples.set(q0, 4 * i);
            b.samples.set(q1, 4 * i);
          });
          a.counts.fill(1);
          b.counts.fill(1);
          core.mixer.mix(a, b, w, out, { rotation: 'slerp' });
          pairs.forEach(({ q0, q1 }, i) => check(out.samples.subarray(4 * i, 4 * i + 4), q0, q1, w));
        }),
        { numRuns },
      );
    } finally {
      for (const x of [a, b, out]) x.dispose();
    }
  };

  it.each([
    [20, 1e-5],
    [90, 1e-5],
    [180, 1e-3],
  ])('mixes within the budget and the bound of the exact slerp for key gaps up to %s°', (gap, bound) => {
    mixPairs(keyPair(gap), 200, (got, q0, q1, w) => expectWithinBudget(got, q0, q1, w, bound));
  });

  // The uniform sampler slerps a clip's rotations four at a time (SIMD: `slerp4` in f32 when the
  // four gaps are small), and so does the keyed sampler with the members of a time group (here
  // all 66 curves share one array of times); 66 curves also leave two to the one-at-a-time path.
  const sampledPairs = (encoding: 'uniform' | 'keyed') => (gap: number, bound: number) => {
    const CURVES = 66;
    const times = Float32Array.of(0, 1);
    fc.assert(
      fc.property(fc.array(keyPair(gap), { minLength: CURVES, maxLength: CURVES }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (pairs, weight) => {
        // Two keys 1 s apart: the sample at w seconds has weight w exactly.
        const w = Math.fround(weight);
        const curves = pairs.map(({ q0, q1 }, i) => {
          const values = Float32Array.from([...q0, ...q1]);
          return {
            curveType: 'rotation' as const,
            active: true,
            target: { joint: `j${i}`, property: 'rotation' as const },
            keys: encoding === 'uniform' ? { encoding, values } : { encoding, times, values },
          };
        });
        const clip = new AnimClip({ name: 'pairs', curves, ...(encoding === 'uniform' && { keyCount: 2, keyDuration: 1 }) });
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource);
        const buf = core.createSampleBuffer(clip);
        try {
          core.sampler.sample(clip, w, buf, { rotation: 'slerp' });
          pairs.forEach(({ q0, q1 }, i) => expectWithinBudget(buf.samples.subarray(4 * i, 4 * i + 4), q0, q1, w, bound));
        } finally {
          buf.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 300 },
    );
  };
  const gaps: [number, number][] = [
    [20, 1e-5],
    [90, 1e-5],
    [180, 1e-3],
  ];

  it.each(gaps)('samples uniform clips within the budget and the bound of the exact slerp for key gaps up to %s°', sampledPairs('uniform'));
  it.each(gaps)('samples keyed time groups within the budget and the bound of the exact slerp for key gaps up to %s°', sampledPairs('keyed'));

  it('halves gaps over 120° (the polynomial on the half that holds w): bit for bit the twin, within 1e-5° of the exact slerp', () => {
    mixPairs(keyPair(180, 121), 100, (got, q0, q1, w) => {
      expect(Array.from(got)).toEqual(Array.from(Float32Array.from(slerp(q0, 0, q1, 0, w))));
      expect(angleDeg(got, exactSlerp(q0, 0, q1, 0, w))).toBeLessThanOrEqual(1e-5);
    });
  });
});
