import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimResource, type SampleArrays } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { referenceMix, referenceSample } from '../../src/reference/index.js';
import { expectCloseRelative, sampleArrays } from '../helpers/compare.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryKeyedClip, arbitraryMixedClip, arbitraryUniformClip } from '../helpers/random-clip.js';

const time = fc.double({ min: -20, max: 20, noNaN: true });

describe.each(BUILDS)('%s build equals src/reference', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('reports its build', () => {
    expect(core.simd).toBe(build === 'simd');
  });

  it.each([
    ['uniform', arbitraryUniformClip],
    ['keyed', arbitraryKeyedClip],
    ['mixed uniform and keyed', arbitraryMixedClip],
  ] as const)('samples random %s clips like the reference (nlerp, slerp, step, time factor)', (_, arbitraryClip) => {
    fc.assert(
      fc.property(
        arbitraryClip,
        fc.array(time, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        fc.constantFrom('linear', 'step') as fc.Arbitrary<'linear' | 'step'>,
        fc.constantFrom(1, 0.5, 2),
        (clip, times, rotation, sampleType, timeFactor) => {
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          const buf = core.createSampleBuffer(clip);
          const ref = sampleArrays(clip.curves.length);
          try {
            for (const t of times) {
              const options = { rotation, sampleType, timeFactor };
              core.sampler.sample(clip, t, buf, options);
              referenceSample(clip, t, ref, options);
              expect(Array.from(buf.counts)).toEqual(Array.from(ref.counts));
              expectCloseRelative(buf.samples, ref.samples);
            }
          } finally {
            buf.dispose();
            resource.dispose();
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('mixes random sample buffers like the reference, including aliasing out = a', () => {
    fc.assert(
      fc.property(
        arbitraryUniformClip,
        time,
        time,
        fc.double({ min: -0.5, max: 1.5, noNaN: true }),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        fc.boolean(),
        (clip, ta, tb, weight, rotation, alias) => {
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          const [a, b, out] = [0, 1, 2].map(() => core.createSampleBuffer(clip)) as [never, never, never];
          const n = clip.curves.length;
          const [ra, rb, rout] = [sampleArrays(n), sampleArrays(n), sampleArrays(n)];
          try {
            core.sampler.sample(clip, ta, a);
            core.sampler.sample(clip, tb, b);
            // Random counts exercise every mix rule (both, one side, none).
            const counts = Array.from({ length: n }, (_, i) => [(i * 7 + 3) % 3, (i * 5 + 1) % 3] as const);
            counts.forEach(([ca, cb], i) => {
              (a as { counts: Uint8Array }).counts[i] = ca;
              (b as { counts: Uint8Array }).counts[i] = cb;
            });
            ra.samples.set((a as SampleArrays).samples);
            ra.counts.set((a as SampleArrays).counts);
            rb.samples.set((b as SampleArrays).samples);
            rb.counts.set((b as SampleArrays).counts);
            core.mixer.mix(a, b, weight, alias ? a : out, { rotation });
            referenceMix(
              clip.curves.map((c) => c.curveType),
              ra,
              rb,
              weight,
              rout,
              { rotation },
            );
            const result = (alias ? a : out) as SampleArrays;
            expect(Array.from(result.counts)).toEqual(Array.from(rout.counts));
            expectCloseRelative(result.samples, rout.samples);
          } finally {
            for (const x of [a, b, out] as { dispose(): void }[]) x.dispose();
            resource.dispose();
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
