import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, type CurveType, Skeleton } from '../../src/anim/index.js';
import { type AnimCore, SampleManyJob } from '../../src/core/index.js';
import { referenceSampleMany } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { expectSamplesWithinBound } from '../helpers/float32-bounds.js';

// Skinning from the keys (assembly/skinning-four.ts `keyedSkinningFour`): a keyed clip whose curves
// form one time group (glTF's usual animation; slerp or nlerp) is skinned four instances at a time
// straight from its keys in the SIMD build, its samples written only when read. Its matrices must
// be bit for bit those of one-instance jobs (which sample, then compose), and its samples and
// counts, once read, those of one-instance jobs too; both builds' samples stay within the float32
// bounds of the reference twin. Characters vary what the pass must get right per instance: times
// before the first key, on exact key times, beyond the last; wide key gaps (slerped in f64 lane by
// lane), STEP groups, poses that overflow (composed again on the checked paths), nlerp, and clips
// the pass must leave to the sampled path (two time groups).

const f = (min: number, max: number) => fc.float({ min, max, noNaN: true, noDefaultInfinity: true });

const arbitraryCharacter = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc.integer({ min: 1, max: 6 }).chain((keyCount) =>
    fc.record({
      parents: fc.tuple(...Array.from({ length: n }, (_, i) => fc.integer({ min: -1, max: i - 1 }))),
      undriven: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      // Key times: sorted, equal neighbours allowed (a step).
      times: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: keyCount, maxLength: keyCount }).map((t) => t.sort((a, b) => a - b).map((x) => x / 8)),
      keys: fc.array(f(-2, 2), { minLength: 12 * n * keyCount, maxLength: 12 * n * keyCount }),
      // Per rotation: how far its keys turn from one to the next (small, past slerp4's ~20°, any).
      turn: fc.array(fc.constantFrom(0.02, 0.02, 0.3, 3), { minLength: n, maxLength: n }),
      interpolation: fc.constantFrom('linear', 'linear', 'linear', 'step') as fc.Arbitrary<'linear' | 'step'>,
      // 'two groups': the translations on times of their own; 'nlerp': the clip under nlerp.
      variant: fc.constantFrom('one group', 'one group', 'one group', 'two groups', 'nlerp'),
      translationScale: fc.constantFrom(1, 1, 1, 1e38),
      instanceTimes: fc.array(fc.oneof(fc.double({ min: -0.5, max: 1.5, noNaN: true }), fc.integer({ min: 0, max: 8 }).map((k) => k / 8)), { minLength: 0, maxLength: 9 }),
    }),
  ),
);

type Character = typeof arbitraryCharacter extends fc.Arbitrary<infer T> ? T : never;

/** The skeleton and the clip of a random character. */
function character(c: Character) {
  const n = c.parents.length;
  const keyCount = c.times.length;
  const skeleton = new Skeleton(c.parents.map((parent, i) => ({ name: `j${i}`, parent, rest: { translation: [0, 0.5, 0.25 * i], rotation: [Math.sin(0.2 * i), 0, 0, Math.cos(0.2 * i)], scale: [1, 1 + 0.125 * i, 1] } })));
  const types: CurveType[] = ['translation', 'rotation', 'scale'];
  const shared = Float32Array.from(c.times);
  const own = Float32Array.from(c.times, (t) => t * 0.75);
  const curves: AnimCurve[] = Array.from({ length: 3 * n }, (_, k): AnimCurve => {
    const curveType = types[k % 3]!;
    const joint = Math.floor(k / 3);
    const v = c.keys.slice(4 * keyCount * k, 4 * keyCount * (k + 1));
    let values: number[];
    if (curveType === 'rotation') {
      // Unit quaternions, each key turned from the one before by up to `turn` per component.
      values = [];
      let q = [v[0]!, v[1]!, v[2]!, v[3]! + 3];
      for (let key = 0; key < keyCount; key++) {
        if (key > 0) q = q.map((x, i) => x + c.turn[joint]! * v[4 * key + i]!);
        const len = Math.hypot(...q);
        values.push(...q.map((x) => x / len));
      }
    } else {
      values = curveType === 'scale' ? v.map((x) => 1 + 0.25 * x) : v.map((x) => x * c.translationScale);
    }
    const times = c.variant === 'two groups' && curveType === 'translation' ? own : shared;
    const target = { joint: c.undriven[joint] ? `none${k}` : `j${joint}`, property: curveType };
    return { curveType, active: true, target, keys: { encoding: 'keyed', times, values: Float32Array.from(values), interpolation: c.interpolation } };
  });
  const clip = new AnimClip({ name: 'walk', curves, rotation: c.variant === 'nlerp' ? 'nlerp' : 'slerp' });
  return { skeleton, clip };
}

const bits = (a: Float32Array) => new Uint32Array(Float32Array.from(a).buffer);

/** A job of `times.length` instances skins from the keys, each instance as a one-instance job. */
function expectKeysLikeOneInstanceJobs(core: AnimCore, skeleton: Skeleton, clip: AnimClip, times: number[]): void {
  const resource = new AnimResource({ format: 'test', clips: [clip] });
  core.load(resource);
  const size = 16 * skeleton.size;
  const job = new SampleManyJob(core, { clip, instances: times.length, output: 'skinning', skeleton });
  const one = new SampleManyJob(core, { clip, instances: 1, output: 'skinning', skeleton });
  try {
    job.run(times);
    expect((job as unknown as { unsampled: number }).unsampled).toBe(times.length);
    const matrices = job.matrices.slice();
    times.forEach((time, i) => {
      one.run([time]);
      expect(bits(matrices.subarray(size * i, size * (i + 1)))).toEqual(bits(one.matrices));
    });
  } finally {
    one.dispose();
    job.dispose();
    resource.dispose();
  }
}

describe('SampleManyJob skinning from the keys', () => {
  let cores: Record<(typeof BUILDS)[number], AnimCore>;
  beforeAll(async () => {
    cores = { simd: await createCore('simd'), scalar: await createCore('scalar') };
  });

  it.each(BUILDS)('%s build: matrices, samples and counts are bit for bit those of one-instance jobs, two frames', (build) => {
    const core = cores[build];
    let fromKeys = 0;
    fc.assert(
      fc.property(arbitraryCharacter, (c) => {
        const { skeleton, clip } = character(c);
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource);
        const n = c.instanceTimes.length;
        const curves = clip.curves.length;
        const size = 16 * skeleton.size;
        const job = new SampleManyJob(core, { clip, instances: Math.max(n, 1), output: 'skinning', skeleton });
        const one = new SampleManyJob(core, { clip, instances: 1, output: 'skinning', skeleton });
        try {
          for (const frame of [0, 1]) {
            const times = c.instanceTimes.map((t) => t + frame / 24);
            job.run(times);
            if ((job as unknown as { unsampled: number }).unsampled > 0) fromKeys++;
            const matrices = job.matrices.slice();
            times.forEach((t, i) => {
              one.run([t]);
              expect(bits(matrices.subarray(size * i, size * (i + 1)))).toEqual(bits(one.matrices));
              expect(bits(job.samples.subarray(4 * curves * i, 4 * curves * (i + 1)))).toEqual(bits(one.samples));
              expect(Array.from(job.counts.subarray(curves * i, curves * (i + 1)))).toEqual(Array.from(one.counts));
            });
            // Reading the samples wrote them: the matrices stay as they were.
            expect(bits(job.matrices.subarray(0, size * n))).toEqual(bits(matrices.subarray(0, size * n)));
            // Keys near float32's limit overflow in f32 lerps (b − a), not in the reference's f64.
            if (c.translationScale !== 1) continue;
            const ref = { samples: new Float32Array(4 * curves * n), counts: new Uint8Array(curves * n), matrices: new Float32Array(size * n) };
            referenceSampleMany(clip, times, ref, {});
            expectSamplesWithinBound(job.samples, ref.samples, clip, n);
          }
        } finally {
          one.dispose();
          job.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 150 },
    );
    // The SIMD build took the keys' path for some characters (four or more instances of one group).
    if (build === 'simd') expect(fromKeys).toBeGreaterThan(20);
    else expect(fromKeys).toBe(0);
  });

  it('CesiumMan-like wide gaps: every instance of a 100-instance job skins as one-instance jobs do', () => {
    // One group of 19 rotations whose third key pair turns one rotation by ~60°: the lanes of the
    // instances in that interval are slerped in f64, the others' in f32, within one group of four.
    const core = cores.simd;
    const n = 19;
    const skeleton = new Skeleton(Array.from({ length: n }, (_, i) => ({ name: `j${i}`, parent: i - 1, rest: { translation: [0, 0.1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })));
    const times = Float32Array.from({ length: 6 }, (_, k) => k / 5);
    const curves: AnimCurve[] = [];
    for (let j = 0; j < n; j++) {
      const angle = (k: number) => (j === 7 && k >= 3 ? 1.1 : 0.05 * k * Math.sin(j + 1));
      const rotation = Array.from({ length: 6 }, (_, k) => [Math.sin(angle(k) / 2), 0, 0, Math.cos(angle(k) / 2)]).flat();
      curves.push({ curveType: 'rotation', active: true, target: { joint: `j${j}`, property: 'rotation' }, keys: { encoding: 'keyed', times, values: Float32Array.from(rotation) } });
    }
    const clip = new AnimClip({ name: 'wide', curves, rotation: 'slerp' });
    expectKeysLikeOneInstanceJobs(core, skeleton, clip, Array.from({ length: 100 }, (_, i) => (i * 0.0137) % 1));
  });

  it('nlerp: every instance of a 100-instance job skins as one-instance jobs do, from the keys', () => {
    // Under nlerp the pass lerps and normalises four instances' rotations at a time (`normalizeSoa4`):
    // keys on opposite hemispheres (the shorter arc), times before the first key and after the last
    // (held lanes), and two keys shorter than 1e-6, between which every result is a zero rotation
    // (identity, not normalised): those groups of four are sampled and composed again on the
    // sampled path.
    const core = cores.simd;
    const n = 8;
    const skeleton = new Skeleton(Array.from({ length: n }, (_, i) => ({ name: `j${i}`, parent: i - 1, rest: { translation: [0, 0.1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })));
    const times = Float32Array.from({ length: 6 }, (_, k) => k / 5);
    const curves: AnimCurve[] = [];
    for (let j = 0; j < n; j++) {
      const key = (k: number) => {
        const a = 0.3 * k * Math.sin(j + 1);
        const q = [Math.sin(a / 2), 0, 0, Math.cos(a / 2)];
        if (j === 5 && (k === 2 || k === 3)) return q.map((x) => 1e-7 * x);
        // Joint 3's odd keys stored negated: the same rotations, dot < 0 between neighbours.
        return j === 3 && k % 2 === 1 ? q.map((x) => -x) : q;
      };
      curves.push({ curveType: 'translation', active: true, target: { joint: `j${j}`, property: 'translation' }, keys: { encoding: 'keyed', times, values: Float32Array.from(Array.from({ length: 6 }, (_, k) => [0.01 * k, 0.1, -0.02 * j, 0]).flat()) } });
      curves.push({ curveType: 'rotation', active: true, target: { joint: `j${j}`, property: 'rotation' }, keys: { encoding: 'keyed', times, values: Float32Array.from(Array.from({ length: 6 }, (_, k) => key(k)).flat()) } });
    }
    const clip = new AnimClip({ name: 'nlerp', curves, rotation: 'nlerp' });
    expectKeysLikeOneInstanceJobs(core, skeleton, clip, Array.from({ length: 100 }, (_, i) => -0.2 + ((i * 0.0173) % 1.5)));
  });
});
