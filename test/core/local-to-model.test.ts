import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AnimCurve, bindJoints, JOINT_PROPERTIES, type Joint, Skeleton } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer, LocalToModelJob, localToModel } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceLocalToModel } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';

const f = (min: number, max: number) => fc.float({ min, max, noNaN: true, noDefaultInfinity: true });
const vec3 = (min: number, max: number) => fc.tuple(f(min, max), f(min, max), f(min, max));
const quat = fc
  .tuple(f(-1, 1), f(-1, 1), f(-1, 1), f(-1, 1))
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => {
    const l = Math.hypot(...q);
    return q.map((v) => v / l) as [number, number, number, number];
  });

/** Random skeletons (parents precede children) and a random clip's sampled pose bound to them. */
const arbitraryPose = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.record({
    joints: fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          parent: fc.integer({ min: -1, max: i - 1 }),
          translation: vec3(-3, 3),
          rotation: quat,
          scale: vec3(0.5, 1.5),
        }),
      ),
    ),
    curves: fc.array(
      fc.record({
        joint: fc.integer({ min: 0, max: n }), // n: a joint the skeleton does not have
        property: fc.constantFrom(...JOINT_PROPERTIES, 'velocity'),
        count: fc.constantFrom(0, 1, 2),
        translation: vec3(-3, 3),
        rotation: quat,
        scale: vec3(0.5, 1.5),
      }),
      { maxLength: 3 * n + 4 },
    ),
  }),
);

type Pose = typeof arbitraryPose extends fc.Arbitrary<infer T> ? T : never;

function bindPose(pose: Pose) {
  const joints: Joint[] = pose.joints.map((j, i) => ({
    name: `j${i}`,
    parent: j.parent,
    rest: { translation: j.translation, rotation: j.rotation, scale: j.scale },
  }));
  const skeleton = new Skeleton(joints);
  const curves: AnimCurve[] = pose.curves.map((c) => ({
    curveType: c.property === 'translation' ? 'translation' : c.property === 'rotation' ? 'rotation' : c.property === 'scale' ? 'scale' : 'velocity',
    target: { joint: `j${c.joint}`, property: c.property },
    active: true,
    keys: { encoding: 'static', value: new Float32Array(4) },
  }));
  const samples = new Float32Array(4 * curves.length);
  pose.curves.forEach((c, i) => {
    const v = c.property === 'rotation' ? c.rotation : c.property === 'scale' ? [...c.scale, 0] : [...c.translation, 0];
    samples.set(v, 4 * i);
  });
  const counts = Uint8Array.from(pose.curves, (c) => c.count);
  return { skeleton, curves, samples, counts, binding: bindJoints(curves, skeleton) };
}

describe('bindJoints', () => {
  it('maps curves to joints by target joint name and property; the first curve wins', () => {
    const skeleton = new Skeleton([
      { name: 'root', parent: -1, rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
      { name: 'arm', parent: 0, rest: { translation: [1, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
    ]);
    const curve = (joint: string, property: string): AnimCurve => ({
      curveType: 'float4',
      target: { joint, property },
      active: true,
      keys: { encoding: 'static', value: new Float32Array(4) },
    });
    const b = bindJoints([curve('arm', 'rotation'), curve('root', 'velocity'), curve('arm', 'rotation'), curve('root', 'translation'), curve('x', 'scale')], skeleton);
    expect(Array.from(b.curves)).toEqual([3, -1, -1, -1, 0, -1]);
    expect(b.curveCount).toBe(5);
  });
});

describe('referenceLocalToModel', () => {
  it('composes T·R·S down the hierarchy, column-major', () => {
    const s = Math.SQRT1_2;
    const skeleton = new Skeleton([
      // 90° about z, translated and scaled by 2.
      { name: 'a', parent: -1, rest: { translation: [1, 2, 3], rotation: [0, 0, s, s], scale: [2, 2, 2] } },
      { name: 'b', parent: 0, rest: { translation: [1, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
    ]);
    const out = new Float32Array(32);
    referenceLocalToModel({ samples: new Float32Array(0), counts: new Uint8Array(0) }, bindJoints([], skeleton), out);
    const close = (xs: Float32Array, ys: number[]) => ys.forEach((y, i) => expect(xs[i]).toBeCloseTo(y, 6));
    close(out.subarray(0, 16), [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1]);
    // b's origin: a's origin + R·S·(1, 0, 0) = (1, 2, 3) + (0, 2, 0).
    close(out.subarray(28, 32), [1, 4, 3, 1]);
  });
});

describe.each(BUILDS)('localToModel, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('equals the reference within 1e-5 on random skeletons and poses', () => {
    fc.assert(
      fc.property(arbitraryPose, (pose) => {
        const { skeleton, curves, samples, counts, binding } = bindPose(pose);
        const buf = new AnimSampleBuffer(
          core,
          curves.map((c) => c.curveType),
        );
        buf.samples.set(samples);
        buf.counts.set(counts);
        const ref = new Float32Array(16 * skeleton.size);
        referenceLocalToModel({ samples, counts }, binding, ref);
        const out = new Float32Array(16 * skeleton.size);
        localToModel(core, buf, binding, out);
        const job = new LocalToModelJob(core, binding);
        job.run(buf);
        const viaJob = job.matrices.slice();
        job.dispose();
        buf.dispose();
        expect(viaJob).toEqual(out);
        for (let i = 0; i < ref.length; i++) {
          expect(Math.abs(out[i]! - ref[i]!)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(ref[i]!)));
        }
      }),
      { numRuns: 300 },
    );
  });

  // Issue 13, fuzz seed 2246009700 #76183: slerp and raw samples are not renormalised, so a
  // rotation of |q| ≈ 1e19 reaches the local matrix, whose 2·x²·s overflows float32 although the
  // parent's scale brings the model matrix back within range.
  it('computes a model matrix that fits float32 whatever its intermediates (non-unit rotation under a scaled parent)', () => {
    const skeleton = new Skeleton([
      { name: 'a', parent: -1, rest: { translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [0.5, 0.25, 0.5] } },
      { name: 'b', parent: 0, rest: { translation: [0, 0, 0], rotation: [1.2e19, 0.5, 0, 1], scale: [2, 2, 2] } },
    ]);
    const binding = bindJoints([], skeleton);
    const buf = new AnimSampleBuffer(core, []);
    const out = new Float32Array(32);
    localToModel(core, buf, binding, out);
    buf.dispose();
    const ref = new Float64Array(32);
    referenceLocalToModel({ samples: new Float32Array(0), counts: new Uint8Array(0) }, binding, ref as unknown as Float32Array);
    expect(Math.max(...ref.map(Math.abs))).toBeGreaterThan(1e38); // within float32, near its end
    expect(Math.max(...ref.map(Math.abs))).toBeLessThan(3.4e38);
    for (let i = 0; i < 32; i++) expect(Math.abs(out[i]! - ref[i]!)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(ref[i]!)));
  });

  it('is non-finite only where the float64 reference is beyond float32, on poses of extreme values', () => {
    const big = (limit: number, small: number) => fc.oneof(f(-small, small), f(-Math.fround(limit), Math.fround(limit)));
    const extremePose = fc.integer({ min: 1, max: 6 }).chain((n) =>
      fc.tuple(
        ...Array.from({ length: n }, (_, i) =>
          fc.record({
            parent: fc.integer({ min: -1, max: i - 1 }),
            translation: fc.tuple(big(1e38, 3), big(1e38, 3), big(1e38, 3)),
            rotation: fc.tuple(big(2e19, 1), big(2e19, 1), big(2e19, 1), big(2e19, 1)),
            scale: fc.tuple(big(1e20, 2), big(1e20, 2), big(1e20, 2)),
          }),
        ),
      ),
    );
    let representable = 0;
    fc.assert(
      fc.property(extremePose, (joints) => {
        const skeleton = new Skeleton(joints.map((j, i) => ({ name: `j${i}`, parent: j.parent, rest: j })));
        const binding = bindJoints([], skeleton);
        const buf = new AnimSampleBuffer(core, []);
        const out = new Float32Array(16 * skeleton.size);
        localToModel(core, buf, binding, out);
        buf.dispose();
        const ref = new Float64Array(16 * skeleton.size);
        referenceLocalToModel({ samples: new Float32Array(0), counts: new Uint8Array(0) }, binding, ref as unknown as Float32Array);
        if (!ref.every((v) => Math.abs(v) <= 3.4028234663852886e38)) return;
        representable++;
        expect(out.every(Number.isFinite)).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect(representable).toBeGreaterThan(100);
  });

  it('rejects buffers of another clip, short outputs and disposed jobs', () => {
    const skeleton = new Skeleton([{ name: 'a', parent: -1, rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }]);
    const binding = bindJoints([], skeleton);
    const buf = new AnimSampleBuffer(core, ['translation']);
    expect(() => localToModel(core, buf, binding, new Float32Array(16))).toThrow(UsageError);
    const empty = new AnimSampleBuffer(core, []);
    expect(() => localToModel(core, empty, binding, new Float32Array(8))).toThrow(UsageError);
    const job = new LocalToModelJob(core, binding);
    job.dispose();
    expect(() => job.run(empty)).toThrow(UsageError);
    buf.dispose();
    empty.dispose();
  });
});

// The SIMD build composes four joints' local matrices at a time and checks a pose once
// (assembly/local-to-model.ts, `composeFast`); the scalar build composes and checks joint by
// joint. Same operations in the same order: the same bits.
describe('localToModel, SIMD and scalar builds', () => {
  it('write the same matrices bit for bit', async () => {
    const [simd, scalar] = await Promise.all([createCore('simd'), createCore('scalar')]);
    fc.assert(
      fc.property(arbitraryPose, (pose) => {
        const { skeleton, curves, samples, counts, binding } = bindPose(pose);
        const [a, b] = [simd, scalar].map((core) => {
          const buf = new AnimSampleBuffer(
            core,
            curves.map((c) => c.curveType),
          );
          buf.samples.set(samples);
          buf.counts.set(counts);
          const out = new Float32Array(16 * skeleton.size);
          localToModel(core, buf, binding, out);
          buf.dispose();
          return new Uint32Array(out.buffer);
        });
        expect(a).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });
});
