import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimResource, type AnimClip, type SampleOptions } from '../../src/anim/index.js';
import { type AnimCore, resample } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { mrtkToResource, readMrtk } from '../../src/formats/mrtk/index.js';
import { createCore } from '../helpers/core.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { arbitraryKeyedClip, arbitraryMixedClip, arbitraryUniformClip } from '../helpers/random-clip.js';
import { arbitraryUnityClip } from '../helpers/random-unity.js';

/**
 * Largest difference between `a` sampled at b's key times and b's stored keys (b is a's
 * resampling; its static curves are a's own), rotations up to sign.
 */
function keyTimeError(core: AnimCore, a: AnimClip, b: AnimClip, options: SampleOptions = {}): number {
  const ra = new AnimResource({ format: 'test', clips: [a] });
  core.load(ra);
  const buffer = core.createSampleBuffer(a);
  let worst = 0;
  try {
    for (let k = 0; k < b.keyCount; k++) {
      core.sampler.sample(a, k * b.keyDuration, buffer, options);
      b.curves.forEach((c, i) => {
        if (c.keys.encoding !== 'uniform') return expect(c).toBe(a.curves[i]);
        const x = buffer.sampleOf(i);
        const y = c.keys.values.subarray(4 * k, 4 * k + 4);
        const same = Math.max(...x.map((v, j) => Math.abs(v - y[j]!)));
        const flipped = Math.max(...x.map((v, j) => Math.abs(v + y[j]!)));
        worst = Math.max(worst, c.curveType === 'rotation' ? Math.min(same, flipped) : same);
      });
    }
  } finally {
    buffer.dispose();
    ra.dispose();
  }
  return worst;
}

describe('resample', () => {
  let core: AnimCore;
  let scalar: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
    scalar = await createCore('scalar');
  });

  it.each([
    ['keyed (AAF, Meteor)', arbitraryKeyedClip],
    ['mixed uniform and keyed', arbitraryMixedClip],
  ] as const)('resamples random %s clips in both builds: equal to the sampler at key times', (_, arbitraryClip) => {
    fc.assert(
      fc.property(arbitraryClip, fc.constantFrom(10, 30, 60), fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>, (clip, fps, rotation) => {
        for (const c of [core, scalar]) {
          const { clip: out } = resample(c, clip, { fps, rotation, measureDeviation: false });
          expect(out.curves.every((x) => x.keys.encoding === 'uniform' || x.keys.encoding === 'static')).toBe(true);
          expect(keyTimeError(c, clip, out, { rotation })).toBeLessThanOrEqual(1e-5);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("keeps MRTK's raw rotations with rotation 'raw' and refuses it for other clips", () => {
    fc.assert(
      fc.property(arbitraryUnityClip, (clip) => {
        const { clip: out } = resample(scalar, clip, { fps: 30, rotation: 'raw', measureDeviation: false });
        expect(keyTimeError(scalar, clip, out, { rotation: 'raw' })).toBeLessThanOrEqual(1e-5);
      }),
      { numRuns: 50 },
    );
    const uniform = fc.sample(arbitraryUniformClip.filter((c) => c.curves.some((x) => x.keys.encoding !== 'static')), 1)[0]!;
    expect(() => resample(core, uniform, { fps: 30, rotation: 'raw' })).toThrow(UsageError);
    expect(core.isLoaded(uniform)).toBe(false);
  });

  it('turns random Unity-curve clips into uniform clips that equal them at key times', () => {
    fc.assert(
      fc.property(arbitraryUnityClip, fc.constantFrom(10, 24, 30, 60), (clip, fps) => {
        const { clip: out, maxDeviation } = resample(core, clip, { fps });
        expect(out.curves.every((c) => c.keys.encoding !== 'unity')).toBe(true);
        expect(out.keyDuration).toBeCloseTo(1 / fps, 12);
        expect(keyTimeError(core, clip, out)).toBeLessThanOrEqual(1e-5);
        expect(maxDeviation).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 200 },
    );
  });

  it('resamples uniform (Nebula) clips, keeping cycling periods', () => {
    fc.assert(
      fc.property(arbitraryUniformClip, fc.constantFrom(7, 30, 60), (clip, fps) => {
        const { clip: out } = resample(core, clip, { fps });
        if (clip.postInfinity === 'cycle') expect(out.duration).toBeCloseTo(clip.duration, 9);
        expect(keyTimeError(core, clip, out)).toBeLessThanOrEqual(1e-5);
      }),
      { numRuns: 200 },
    );
  });

  /** Whether some rotation moves about 180° between neighbouring keys, where both arcs are shortest. */
  const hasHalfTurn = (clip: AnimClip) =>
    clip.curves.some((c) => {
      if (c.curveType !== 'rotation' || c.keys.encoding !== 'uniform') return false;
      const v = c.keys.values;
      for (let k = 0; k < clip.keyCount; k++) {
        const j = (k + 1) % clip.keyCount;
        let dot = 0;
        for (let m = 0; m < 4; m++) dot += v[4 * k + m]! * v[4 * j + m]!;
        if (Math.abs(dot) < 0.01) return true;
      }
      return false;
    });

  it('reports no deviation for a clip already on the new key grid', () => {
    fc.assert(
      fc.property(arbitraryUniformClip, (clip) => {
        fc.pre(!hasHalfTurn(clip));
        const { maxDeviation } = resample(core, clip, { fps: 1 / clip.keyDuration });
        expect(maxDeviation).toBeLessThanOrEqual(1e-4);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a bad fps and leaves nothing loaded', () => {
    const clip = fc.sample(arbitraryUniformClip, 1)[0]!;
    for (const fps of [0, -1, NaN, Infinity]) expect(() => resample(core, clip, { fps })).toThrow(UsageError);
    resample(core, clip, { fps: 30 });
    expect(core.isLoaded(clip)).toBe(false);
  });

  it.runIf(haveFixtures('mrtk'))('resamples the large MRTK recording at 60 fps: equal at key times, deviation reported', () => {
    const res = mrtkToResource(readMrtk(readFixture('mrtk', 'InputAnimation-20201027-134946.bin')));
    const clip = res.clip(0);
    const { clip: out, maxDeviation, maxDeviationAt } = resample(core, clip, { fps: 60 });
    expect(out.keyCount).toBe(Math.ceil(clip.duration * 60) + 1);
    expect(out.duration).toBeGreaterThanOrEqual(clip.duration);
    expect(keyTimeError(core, clip, out)).toBeLessThanOrEqual(1e-5);
    expect(maxDeviation).toBeGreaterThan(0);
    expect(maxDeviation).toBeLessThan(2);
    expect(maxDeviationAt).not.toBeNull();
  });
});
