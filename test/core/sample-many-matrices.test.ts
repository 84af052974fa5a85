import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, bindJoints, type CurveType, Skeleton } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer, LocalToModelJob, SampleManyJob } from '../../src/core/index.js';
import { BUILDS, createCore } from '../helpers/core.js';

// `sampleMany` composes a clip's samples with counts 0 (every bound curve read) when no count of
// the instance is 0 — checked once per call for one clip without a mix — and by their counts
// otherwise (assembly/sample-many.ts). Either way its matrices are bit for bit those of the
// sampler followed by a LocalToModelJob, which always reads the counts; and both builds agree.
// Joints no curve drives, nor their ancestors, are composed for the first instance only (the
// skinning scratch keeps them, model outputs copy them). The SIMD build skins four instances at a
// time (assembly/skinning-four.ts) where their samples are read whole: up to 9 instances cover
// groups of four and the instances after them, one-instance jobs the per-instance path. It samples
// each group of four into instances 0 … 3's slots, so samples and counts are written again when
// read: they too must be those of one-instance jobs.

const f = (min: number, max: number) => fc.float({ min, max, noNaN: true, noDefaultInfinity: true });

/** glTF-like characters: a tree of joints, keyed T/R/S curves, some inactive (count 0). */
const arbitraryCharacter = fc.integer({ min: 1, max: 24 }).chain((n) =>
  fc.record({
    parents: fc.tuple(...Array.from({ length: n }, (_, i) => fc.integer({ min: -1, max: i - 1 }))),
    // Joints no curve drives: under a driven joint or not (then the same matrix for every pose).
    undriven: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    // Inactive curves at both ends of the counts: in the 16-count SIMD runs and the tail.
    inactive: fc.constantFrom(-1, -1, 0, 5, 3 * n - 1),
    keys: fc.array(f(-2, 2), { minLength: 3 * n * 8, maxLength: 3 * n * 8 }),
    // Translations near float32's limit: products overflow for some poses, whose matrices are then
    // composed again on the checked paths (for four instances at a time, each of the four).
    translationScale: fc.constantFrom(1, 1, 1, 1e38),
    // Scales up to 1.8e38: twice such a scale overflows (the four-instance pass composes with 2·s).
    scaleScale: fc.constantFrom(1, 1, 1, 1.2e38),
    times: fc.array(fc.double({ min: -0.5, max: 1.5, noNaN: true }), { minLength: 1, maxLength: 9 }),
  }),
);

type Character = typeof arbitraryCharacter extends fc.Arbitrary<infer T> ? T : never;

/** The skeleton and clip of a random character. */
function character(c: Character) {
  const n = c.parents.length;
  const skeleton = new Skeleton(c.parents.map((parent, i) => ({ name: `j${i}`, parent, rest: { translation: [0, 0.5, 0.25 * i], rotation: [Math.sin(0.2 * i), 0, 0, Math.cos(0.2 * i)], scale: [1, 1 + 0.125 * i, 1] } })));
  const types: CurveType[] = ['translation', 'rotation', 'scale'];
  const curves: AnimCurve[] = Array.from({ length: 3 * n }, (_, k): AnimCurve => {
    const curveType = types[k % 3]!;
    const v = c.keys.slice(8 * k, 8 * k + 8);
    // Scales away from 0, rotations of any length (the kernels take the samples as they are).
    const values = curveType === 'scale' ? v.map((x) => (1 + 0.25 * x) * c.scaleScale) : curveType === 'translation' ? v.map((x) => x * c.translationScale) : v;
    const joint = c.undriven[Math.floor(k / 3)] ? `none${k}` : `j${Math.floor(k / 3)}`;
    return { curveType, active: k !== c.inactive, target: { joint, property: curveType }, keys: { encoding: 'keyed', times: Float32Array.from([0, 1]), values: Float32Array.from(values) } };
  });
  return { skeleton, clip: new AnimClip({ name: 'walk', curves }) };
}

/** The job's matrices, and those of the sampler and a LocalToModelJob per instance. */
function run(core: AnimCore, c: Character, output: 'model' | 'skinning'): { job: Uint32Array; alone: Uint32Array } {
  const { skeleton, clip } = character(c);
  const resource = new AnimResource({ format: 'test', clips: [clip] });
  core.load(resource);
  const n = c.times.length;
  const job = new SampleManyJob(core, { clip, instances: n, output, skeleton });
  const buffer = new AnimSampleBuffer(
    core,
    clip.curves.map((k) => k.curveType),
  );
  const model = new LocalToModelJob(core, bindJoints(clip.curves, skeleton));
  try {
    job.run(c.times);
    const alone = new Float32Array(16 * skeleton.size * n);
    c.times.forEach((t, i) => {
      core.sampler.sample(clip, t, buffer);
      model.run(buffer);
      alone.set(model.matrices, 16 * skeleton.size * i);
    });
    return { job: new Uint32Array(Float32Array.from(job.matrices).buffer), alone: new Uint32Array(alone.buffer) };
  } finally {
    model.dispose();
    buffer.dispose();
    job.dispose();
    resource.dispose();
  }
}

describe('SampleManyJob matrices', () => {
  let cores: Record<(typeof BUILDS)[number], AnimCore>;
  beforeAll(async () => {
    cores = { simd: await createCore('simd'), scalar: await createCore('scalar') };
  });

  it.each(BUILDS)('%s build: model matrices are bit for bit the sampler and LocalToModelJob', (build) => {
    fc.assert(
      fc.property(arbitraryCharacter, (c) => {
        const { job, alone } = run(cores[build], c, 'model');
        expect(job).toEqual(alone);
      }),
      { numRuns: 200 },
    );
  });

  it.each(BUILDS)('%s build: skinning matrices, and samples and counts once read, are bit for bit those of one-instance jobs', (build) => {
    const core = cores[build];
    fc.assert(
      fc.property(arbitraryCharacter, (c) => {
        const { skeleton, clip } = character(c);
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource);
        const size = 16 * skeleton.size;
        const job = new SampleManyJob(core, { clip, instances: c.times.length, output: 'skinning', skeleton });
        const one = new SampleManyJob(core, { clip, instances: 1, output: 'skinning', skeleton });
        try {
          job.run(c.times);
          const curves = clip.curves.length;
          c.times.forEach((t, i) => {
            one.run([t]);
            expect(new Uint32Array(Float32Array.from(job.matrices.subarray(size * i, size * (i + 1))).buffer)).toEqual(new Uint32Array(Float32Array.from(one.matrices).buffer));
            expect(new Uint32Array(Float32Array.from(job.samples.subarray(4 * curves * i, 4 * curves * (i + 1))).buffer)).toEqual(new Uint32Array(Float32Array.from(one.samples).buffer));
            expect(Array.from(job.counts.subarray(curves * i, curves * (i + 1)))).toEqual(Array.from(one.counts));
          });
        } finally {
          one.dispose();
          job.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 100 },
    );
  });

  it.each(BUILDS)('%s build: the last row of every model and skinning matrix is exactly (+0, +0, +0, 1)', (build) => {
    // Not the ±0 that the float32 products of the parent's last row give by the signs of their
    // terms (the four-instance pass does not compute the row); 1 wherever the translation column is finite.
    const ONE = 0x3f800000;
    fc.assert(
      fc.property(arbitraryCharacter, fc.constantFrom('model', 'skinning') as fc.Arbitrary<'model' | 'skinning'>, (c, output) => {
        const { job } = run(cores[build], c, output);
        const f = new Float32Array(job.buffer);
        for (let m = 0; m < job.length; m += 16) {
          expect([job[m + 3], job[m + 7], job[m + 11]]).toEqual([0, 0, 0]);
          if (Number.isFinite(f[m + 12]! + f[m + 13]! + f[m + 14]!)) expect(job[m + 15]).toBe(ONE);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('SIMD and scalar builds write the same model and skinning matrices bit for bit', () => {
    fc.assert(
      fc.property(arbitraryCharacter, fc.constantFrom('model', 'skinning') as fc.Arbitrary<'model' | 'skinning'>, (c, output) => {
        expect(run(cores.simd, c, output).job).toEqual(run(cores.scalar, c, output).job);
      }),
      { numRuns: 200 },
    );
  });
});
