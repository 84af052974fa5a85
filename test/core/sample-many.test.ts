import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, bindJoints, type CurveType, InfinityType, Skeleton, staticKeys } from '../../src/anim/index.js';
import { type AnimCore, SampleManyJob, type SampleManyOutput } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceSampleMany } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryKeyedClip, arbitraryMixedClip, arbitraryUniformClip } from '../helpers/random-clip.js';
import { arbitraryUnityClip } from '../helpers/random-unity.js';
import { expectMatricesWithinBound, expectSamplesWithinBound } from '../helpers/float32-bounds.js';

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

function keyedCurve(joint: string, curveType: CurveType, times: number[], values: number[]): AnimCurve {
  return { curveType, active: true, target: { joint, property: curveType }, keys: { encoding: 'keyed', times: Float32Array.from(times), values: Float32Array.from(values) } };
}

/**
 * Runs a SampleManyJob of 6 instances over two frames (the second starting from the cursors the
 * first left) and compares its counts, samples and matrices with the reference, within the
 * float32 error bounds of test/helpers/float32-bounds.ts.
 */
function checkJob(core: AnimCore, clip: AnimClip, ta: number[], tb: number[], weights: number[], output: SampleManyOutput, mix: boolean): void {
  const n = ta.length;
  const timesB = tb.concat(ta).slice(0, n);
  const resource = new AnimResource({ format: 'test', clips: [clip] });
  core.load(resource);
  const skeleton = chainSkeleton(clip);
  const job = new SampleManyJob(core, { clip, mixWith: mix ? clip : undefined, instances: 6, output, skeleton });
  try {
    for (const frame of [0, 1]) {
      const t = ta.map((x) => x + frame * 0.3);
      job.run(t, weights.slice(0, n), timesB);
      const c = clip.curves.length;
      const ref = { samples: new Float32Array(4 * c * n), counts: new Uint8Array(c * n), matrices: new Float32Array(16 * c * n) };
      referenceSampleMany(clip, t, ref, { mixWith: mix ? clip : undefined, weights, timesB });
      expect(Array.from(job.counts.subarray(0, c * n))).toEqual(Array.from(ref.counts));
      expectSamplesWithinBound(job.samples, ref.samples, clip, n);
      if (output !== 'samples') {
        const inverseBind = output === 'skinning' ? job.inverseBindMatrices : undefined;
        expectMatricesWithinBound(job.matrices, job.samples, job.counts, bindJoints(clip.curves, skeleton), n, inverseBind);
      }
    }
  } finally {
    job.dispose();
    resource.dispose();
  }
}
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
        (clip, ta, tb, weights, output, mix) => checkJob(core, clip, ta, tb, weights, output, mix),
      ),
      { numRuns: 300 },
    );
  });

  // The kernel takes the affine product (three terms a column) only where every inverse bind
  // matrix's last row is (0, 0, 0, 1), checked on every call: the job's inverseBindMatrices is a
  // live view, so a projective row written between calls must reach the next call's product.
  it('multiplies by affine and projective inverse bind matrices, read afresh on every call', () => {
    const entry = fc.double({ min: -2, max: 2, noNaN: true }).map(Math.fround);
    fc.assert(
      fc.property(arbitraryUniformClip, times, fc.array(entry, { minLength: 16, maxLength: 16 }), fc.nat(), (clip, t, projective, joint) => {
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource);
        const skeleton = chainSkeleton(clip);
        const job = new SampleManyJob(core, { clip, instances: 6, output: 'skinning', skeleton });
        try {
          const check = () => {
            job.run(t);
            expectMatricesWithinBound(job.matrices, job.samples, job.counts, bindJoints(clip.curves, skeleton), t.length, job.inverseBindMatrices);
          };
          check(); // rest-pose inverses: affine
          const at = 16 * (joint % skeleton.size);
          job.inverseBindMatrices.set(projective, at);
          job.inverseBindMatrices[at + 3] = 0.5; // a last row other than (0, 0, 0, 1)
          check();
        } finally {
          job.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 100 },
    );
  });

  // Counterexamples fast-check found under other seeds (FC_SEED=124 and 200, keyed clips, scalar
  // build) while the tolerance was a fixed 1e-5: cancellation in a lerp (a scale of −8 mixed
  // towards ≈0) left small entries with the error of the large keys. Kept as regression cases.
  it.each([
    [
      'a scale lerped from −8 towards 0 and mixed',
      new AnimClip({
        name: 'fc-124',
        curves: [
          keyedCurve('j0', 'scale', [0, 0, 0, 0.125, 0.125, 0.125], [0, 0, -0.0000080170611909125, 0, 0, 0, 0, 0, 0, 0, -8.000008583068848, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
          { ...keyedCurve('j1', 'float4', [-0.25], [0, 0, 0, 0]), active: false },
          { curveType: 'scale', active: true, target: { joint: 'j2', property: 'scale' }, keys: staticKeys(0, 0, 99.99954223632812, 0) },
        ],
      }),
      [0, 0],
      [0, -5e-324, 0],
      [0, 0.998504251241684, 0, 0, 0, 0],
      true,
    ],
    [
      'a scale stepping from −32 to 5e-5 under a translation of 33',
      new AnimClip({
        name: 'fc-200',
        postInfinity: InfinityType.Cycle,
        curves: [
          { curveType: 'bool', active: true, target: { joint: 'j0', property: 'bool' }, keys: staticKeys(0, 0, 0, 0) },
          { curveType: 'scale', active: true, target: { joint: 'j1', property: 'scale' }, keys: staticKeys(0, 0, 0, 0) },
          { ...keyedCurve('j2', 'float', [-0.25], [0, 0, 0, 0]), active: false },
          keyedCurve('j3', 'scale', [-0.125, 0, 0], [0, 0, -31.999950408935547, 0, 0, 0, 0.00005063625212642364, 0, 0, 0, 0, 0]),
          keyedCurve('j4', 'velocity', [-0.25], [0, 0, 0, 0]),
          keyedCurve('j5', 'translation', [-0.25, 0, 0], [0, 0, 0, 0, 33.3331184387207, 0, 0, 0, 0, 0, 0, 0]),
        ],
      }),
      [-5e-324],
      [0],
      [0, 0, 0, 0, 0, 0],
      false,
    ],
  ] as const)('kept counterexample: %s', (_, clip, ta, tb, weights, mix) => {
    checkJob(core, clip, [...ta], [...tb], [...weights], 'skinning', mix);
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

  // The overflow rule of assembly/local-to-model.ts for skinning matrices: model · inverse bind
  // fits float32 (3.24e38) although a term of its float32 product (2.12e19 · 2e19) does not.
  it('computes a skinning matrix that fits float32 whatever its intermediates', () => {
    const half = Math.PI / 8; // 45° about z
    const skeleton = new Skeleton([{ name: 'a', parent: -1, rest: { translation: [-1e38, -1e38, 0], rotation: [0, 0, Math.sin(half), Math.cos(half)], scale: [3e19, 3e19, 1] } }]);
    const clip = new AnimClip({ name: 'idle', curves: [{ curveType: 'float', active: true, target: { joint: 'x', property: 'float' }, keys: staticKeys(0, 0, 0, 0) }] });
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    const inverseBind = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2e19, 0, 0, 1];
    const job = new SampleManyJob(core, { clip, instances: 1, output: 'skinning', skeleton, inverseBindMatrices: inverseBind });
    try {
      job.run([0]);
      const ref = { samples: new Float32Array(4), counts: new Uint8Array(1), matrices: new Float32Array(16) };
      referenceSampleMany(clip, [0], ref, { binding: bindJoints(clip.curves, skeleton), inverseBindMatrices: inverseBind });
      expect(ref.matrices[12]).toBeGreaterThan(3e38);
      ref.matrices.forEach((v, i) => expect(Math.abs(job.matrices[i]! - v)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(v))));
    } finally {
      job.dispose();
      resource.dispose();
    }
  });

  // The SIMD build composes the model matrices unchecked and checks only the skinning matrices
  // they enter (assembly/sample-many.ts): a model matrix that overflows float32 on the fast path
  // (2·x²·s of a rotation of |q| ≈ 1e19) although its parent's scale brings it back must still be
  // composed again wide, with affine and other inverse bind matrices.
  it('computes skinning matrices of a model matrix that fits float32 whatever its intermediates', () => {
    const skeleton = new Skeleton([
      { name: 'a', parent: -1, rest: { translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [0.5, 0.25, 0.5] } },
      { name: 'b', parent: 0, rest: { translation: [0, 0, 0], rotation: [1.2e19, 0.5, 0, 1], scale: [2, 2, 2] } },
    ]);
    const clip = new AnimClip({ name: 'idle', curves: [{ curveType: 'float', active: true, target: { joint: 'x', property: 'float' }, keys: staticKeys(0, 0, 0, 0) }] });
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const projective = [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    for (const inverseBind of [[...identity, ...identity], [...projective, ...projective]]) {
      const job = new SampleManyJob(core, { clip, instances: 3, output: 'skinning', skeleton, inverseBindMatrices: inverseBind });
      try {
        job.run([0, 0.5, 1]);
        const ref = { samples: new Float32Array(4), counts: new Uint8Array(1), matrices: new Float32Array(32) };
        referenceSampleMany(clip, [0], ref, { binding: bindJoints(clip.curves, skeleton), inverseBindMatrices: inverseBind });
        expect(Math.max(...ref.matrices.map(Math.abs))).toBeGreaterThan(1e38);
        for (let i = 0; i < job.matrices.length; i++) {
          const v = ref.matrices[i % 32]!;
          expect(Math.abs(job.matrices[i]! - v)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(v)));
        }
      } finally {
        job.dispose();
      }
    }
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
