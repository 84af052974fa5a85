import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AnimClip, AnimResource, bindJoints, Skeleton } from '../../src/anim/index.js';
import { type AnimCore, SampleManyJob } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceSampleMany } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryKeyedClip, arbitraryMixedClip, arbitraryUniformClip } from '../helpers/random-clip.js';
import { arbitraryUnityClip } from '../helpers/random-unity.js';

const maxAbs = (a: ArrayLike<number>) => Math.max(0, ...Array.from(a, Math.abs));

/**
 * Within `tol` relative to max(1, |value|) — or, with `block` (16 for matrices), relative to the
 * largest entry of the value's block, or `blockScale(b)` when larger: float32 products of large
 * transforms cancel to small entries, so the error follows the factors' size, not the result's.
 */
function expectClose(actual: Float32Array, expected: Float32Array, tol = 1e-5, block = 1, blockScale?: (b: number) => number): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const start = i - (i % block);
    const scale = Math.max(1, maxAbs(expected.subarray(start, start + block)), blockScale?.(start / block) ?? 0);
    if (!(Math.abs(actual[i]! - expected[i]!) <= tol * scale)) {
      throw new Error(`index ${i}: wasm ${actual[i]} vs reference ${expected[i]}`);
    }
  }
}

/**
 * One joint per curve (`j<i>`, as the random clips target them) in chains of three: deep chains of
 * the random clips' large scales compound float32 error beyond 1e-5 (the chain itself is tested in
 * local-to-model.test.ts).
 */
function chainSkeleton(clip: AnimClip): Skeleton {
  return new Skeleton(
    clip.curves.map((_, i) => ({
      name: `j${i}`,
      parent: i % 3 === 0 ? -1 : i - 1,
      rest: { translation: [0.1 * i, 1, 0], rotation: [0, Math.sin(0.1 * i), 0, Math.cos(0.1 * i)], scale: [1, 1 + 0.05 * i, 1] },
    })),
  );
}

const time = fc.double({ min: -20, max: 20, noNaN: true });
const times = fc.array(time, { minLength: 1, maxLength: 6 });

describe.each(BUILDS)('SampleManyJob, %s build, equals referenceSampleMany', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it.each([
    ['uniform', arbitraryUniformClip],
    ['keyed', arbitraryKeyedClip],
    ['mixed uniform and keyed', arbitraryMixedClip],
    ['unity', arbitraryUnityClip],
  ] as const)('samples random %s clips for many instances, mixed or not, with skinning matrices', (_, arbitraryClip) => {
    fc.assert(
      fc.property(
        arbitraryClip,
        times,
        times,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
        fc.constantFrom('samples', 'model', 'skinning') as fc.Arbitrary<'samples' | 'model' | 'skinning'>,
        fc.boolean(),
        (clip, ta, tb, weights, output, mix) => {
          const n = ta.length;
          const timesB = tb.concat(ta).slice(0, n);
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          const skeleton = chainSkeleton(clip);
          const job = new SampleManyJob(core, { clip, mixWith: mix ? clip : undefined, instances: 6, output, skeleton });
          try {
            // Two frames: the second starts from the cursors the first left.
            for (const frame of [0, 1]) {
              const t = ta.map((x) => x + frame * 0.3);
              job.run(t, weights.slice(0, n), timesB);
              const c = clip.curves.length;
              const ref = { samples: new Float32Array(4 * c * n), counts: new Uint8Array(c * n), matrices: new Float32Array(16 * c * n) };
              referenceSampleMany(clip, t, ref, {
                mixWith: mix ? clip : undefined,
                weights,
                timesB,
                binding: output === 'samples' ? undefined : bindJoints(clip.curves, skeleton),
                inverseBindMatrices: output === 'skinning' ? job.inverseBindMatrices : undefined,
              });
              expect(Array.from(job.counts.subarray(0, c * n))).toEqual(Array.from(ref.counts));
              expectClose(job.samples.subarray(0, 4 * c * n), ref.samples);
              if (output === 'model') expectClose(job.matrices.subarray(0, 16 * c * n), ref.matrices, 1e-5, 16);
              if (output === 'skinning') {
                // Skinning = model · inverse bind: the error scales with both factors.
                const model = { ...ref, matrices: new Float32Array(16 * c * n) };
                referenceSampleMany(clip, t, model, { mixWith: mix ? clip : undefined, weights, timesB, binding: bindJoints(clip.curves, skeleton) });
                const ibm = job.inverseBindMatrices;
                const factors = (b: number) => maxAbs(model.matrices.subarray(16 * b, 16 * b + 16)) * maxAbs(ibm.subarray(16 * (b % c), 16 * (b % c) + 16));
                expectClose(job.matrices.subarray(0, 16 * c * n), ref.matrices, 1e-5, 16, factors);
              }
            }
          } finally {
            job.dispose();
            resource.dispose();
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives identity skinning matrices in the rest pose', () => {
    const clip = fc.sample(arbitraryUniformClip, { numRuns: 1, seed: 7 })[0]!;
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    const skeleton = chainSkeleton(clip);
    const idle = new Skeleton(skeleton.joints.map((j) => ({ ...j, name: `rest-${j.name}` }))); // no curve binds
    const job = new SampleManyJob(core, { clip, instances: 2, output: 'skinning', skeleton: idle });
    job.run([0, 1]);
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    for (let i = 0; i < job.matrices.length; i++) expect(job.matrices[i]).toBeCloseTo(identity[i % 16]!, 5);
    job.dispose();
    resource.dispose();
  });

  it('refuses misuse', () => {
    const clip = fc.sample(arbitraryUniformClip, { numRuns: 1, seed: 3 })[0]!;
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    expect(() => new SampleManyJob(core, { clip, instances: 1 })).toThrow(UsageError); // not loaded
    core.load(resource);
    expect(() => new SampleManyJob(core, { clip, instances: 0 })).toThrow(UsageError);
    expect(() => new SampleManyJob(core, { clip, instances: 1, output: 'model' })).toThrow(UsageError);
    const job = new SampleManyJob(core, { clip, instances: 2, mixWith: clip });
    expect(() => job.run([0, 1, 2], [0, 0, 0])).toThrow(UsageError);
    expect(() => job.run([0, 1])).toThrow(UsageError);
    expect(() => job.run([0, NaN], [0, 0])).toThrow(UsageError);
    job.dispose();
    expect(() => job.samples).toThrow(UsageError);
    resource.dispose();
  });
});
