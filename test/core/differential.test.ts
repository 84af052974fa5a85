import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimResource, type CurveType, type SampleArrays } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer } from '../../src/core/index.js';
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
  it('mixes buffers whose every count is > 0 (the path without per-curve tests, four rotations at a time in SIMD) bit for bit as the per-curve path', () => {
    // Quaternions of either sign, zero ones and opposite pairs (whose 50/50 nlerp is a zero rotation: identity).
    // (Components in steps of 1/1000: fc.double favours tiny values, which float32 turns into zero rotations.)
    const component = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);
    const quat = fc.oneof(fc.tuple(component, component, component, component), fc.constant([0, 0, 0, 0] as [number, number, number, number]));
    const curve = fc.record({ type: fc.constantFrom<CurveType>('translation', 'rotation', 'rotation', 'scale'), a: quat, b: quat, opposite: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(curve, { minLength: 1, maxLength: 23 }),
        fc.constantFrom(0, 0.25, 0.5, 1, 1.5, -0.5),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        fc.boolean(),
        (curves, weight, rotation, alias) => {
          const types = curves.map((c) => c.type);
          const n = types.length;
          const run = (inactive: number): { samples: Float32Array; counts: Uint8Array } => {
            const [a, b, out] = [0, 1, 2].map(() => new AnimSampleBuffer(core, types));
            try {
              curves.forEach((c, i) => {
                a!.samples.set(c.a, 4 * i);
                b!.samples.set(c.opposite ? c.a.map((v) => -v) : c.b, 4 * i);
              });
              a!.counts.fill(1);
              b!.counts.fill(2);
              // One inactive curve (beyond the last) sends the mix down its per-curve path.
              if (inactive >= 0) b!.counts[inactive] = 0;
              const target = alias ? a! : out!;
              core.mixer.mix(a!, b!, weight, target, { rotation });
              return { samples: target.samples.slice(), counts: target.counts.slice() };
            } finally {
              for (const x of [a, b, out]) x!.dispose();
            }
          };
          const fast = run(-1);
          expect(Array.from(fast.counts)).toEqual(Array<number>(n).fill(3));
          for (let inactive = 0; inactive < n; inactive += Math.max(1, n >> 2)) {
            const general = run(inactive);
            for (let i = 0; i < n; i++) {
              if (i === inactive) continue;
              for (let k = 4 * i; k < 4 * i + 4; k++) expect(Object.is(fast.samples[k], general.samples[k])).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
