import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, type CurveKeys } from '../../src/anim/index.js';
import { type AnimCore, SampleManyJob } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceSampleMany } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { expectSamplesWithinBound } from '../helpers/float32-bounds.js';
import { arbitraryKeyedClip, arbitraryMixedClip, arbitraryUniformClip } from '../helpers/random-clip.js';
import { makeRig } from '../helpers/rig.js';

/** Keys of `values` (`stride` floats each) in reverse order when `v` is odd, turned by `v` keys otherwise. */
function reorder(values: Float32Array, stride: number, v: number): Float32Array {
  const n = values.length / stride;
  const out = new Float32Array(values.length);
  for (let k = 0; k < n; k++) {
    const from = v % 2 === 1 ? n - 1 - k : (k + v) % n;
    out.set(values.subarray(stride * from, stride * (from + 1)), stride * k);
  }
  return out;
}

/** Clip `v` of a crowd of one layout: `clip`'s curves (same types, encodings, times) with their keys reordered. */
function variant(clip: AnimClip, v: number): AnimClip {
  const curves = clip.curves.map((curve): AnimCurve => {
    const k = curve.keys;
    let keys: CurveKeys = k;
    if (k.encoding === 'uniform') keys = { ...k, values: reorder(k.values, 4, v) };
    else if (k.encoding === 'keyed') keys = { ...k, values: reorder(k.values, 4, v) };
    else if (k.encoding === 'cubic') keys = { ...k, values: reorder(k.values, 12, v) };
    return { ...curve, keys };
  });
  return clip.withCurves(curves);
}

/** The rig's curves as keyed curves: key k at k / 30 s. */
function keyedCopy(clip: AnimClip): AnimClip {
  const times = Float32Array.from({ length: clip.keyCount }, (_, k) => k * clip.keyDuration);
  const curves = clip.curves.map((c): AnimCurve => ({ ...c, keys: { encoding: 'keyed', times, values: (c.keys as { values: Float32Array }).values } }));
  return new AnimClip({ name: `${clip.name}-keyed`, curves, duration: clip.duration, preInfinity: clip.preInfinity, postInfinity: clip.postInfinity });
}

/** Instance i's samples and counts by `sampler.sample` into a fresh buffer. */
function samplePerInstance(core: AnimCore, clips: readonly AnimClip[], times: readonly number[], options: { rotation?: 'nlerp' | 'slerp' } = {}) {
  const c = clips[0]!.curves.length;
  const samples = new Float32Array(4 * c * times.length);
  const counts = new Uint8Array(c * times.length);
  times.forEach((t, i) => {
    const buffer = core.createSampleBuffer(clips[i]!);
    core.sampler.sample(clips[i]!, t, buffer, options);
    samples.set(buffer.samples, 4 * c * i);
    counts.set(buffer.counts, c * i);
    buffer.dispose();
  });
  return { samples, counts };
}

const time = fc.double({ min: -20, max: 20, noNaN: true });

describe.each(BUILDS)('SampleManyJob with a clip per instance (clips, setClip), %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it.each([
    ['uniform', arbitraryUniformClip],
    ['keyed', arbitraryKeyedClip],
    ['mixed uniform and keyed', arbitraryMixedClip],
  ] as const)('samples a crowd of random %s clips as sampler.sample does per instance, and as the twin', (_, arbitraryClip) => {
    fc.assert(
      fc.property(arbitraryClip, fc.array(time, { minLength: 1, maxLength: 6 }), fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>, (clip, ta, rotation) => {
        const crowd = [0, 1, 2].map((v) => variant(clip, v));
        const resource = new AnimResource({ format: 'test', clips: crowd });
        core.load(resource);
        const clips = ta.map((_, i) => crowd[i % 3]!);
        const job = new SampleManyJob(core, { clip: crowd[0]!, clips, instances: 6, rotation });
        try {
          const c = clip.curves.length;
          const n = ta.length;
          for (const frame of [0, 1]) {
            const t = ta.map((x) => x + frame * 0.3);
            job.run(t);
            const alone = samplePerInstance(core, clips, t, { rotation });
            expect(Array.from(job.samples.subarray(0, 4 * c * n))).toEqual(Array.from(alone.samples));
            expect(Array.from(job.counts.subarray(0, c * n))).toEqual(Array.from(alone.counts));
            const ref = { samples: new Float32Array(4 * c * n), counts: new Uint8Array(c * n) };
            referenceSampleMany(crowd[0]!, t, ref, { clips, rotation });
            expect(Array.from(job.counts.subarray(0, c * n))).toEqual(Array.from(ref.counts));
            for (let i = 0; i < n; i++) {
              expectSamplesWithinBound(job.samples.subarray(4 * c * i, 4 * c * (i + 1)), ref.samples.subarray(4 * c * i, 4 * c * (i + 1)), clips[i]!, 1);
            }
          }
        } finally {
          job.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('plays a crowd of one rig in several encodings (uniform, keyed, quantized) and switches clips with setClip', () => {
    const rigs = [1, 2, 3, 4].map((seed) => makeRig(8, 40, seed));
    const keyed = keyedCopy(makeRig(8, 40, 5));
    const float = new AnimResource({ format: 'test', clips: [...rigs.slice(0, 2), keyed] });
    const quantized = new AnimResource({ format: 'test', clips: rigs.slice(2) });
    core.load(float);
    core.load(quantized, { compression: { translation: 1e-4, rotation: 1e-4, scale: 1e-4 } });
    expect(core.loadedSize(rigs[2]!).encoding).toBe('quantized');
    const clips = [rigs[0]!, keyed, rigs[2]!, rigs[1]!, rigs[3]!, keyed, rigs[0]!];
    const job = core.createSampleMany({ clip: rigs[0]!, clips, instances: 8 });
    try {
      const frames = [0, 1, 2, 3].map((f) => clips.map((_, i) => 0.37 * i + f / 60 + (f === 3 ? -1.1 : 0)));
      for (const [f, t] of frames.entries()) {
        if (f === 2) {
          // A keyed instance moves to a uniform clip and back to keyed elsewhere: cursors start afresh.
          job.setClip(1, rigs[3]!);
          job.setClip(4, keyed);
          clips[1] = rigs[3]!;
          clips[4] = keyed;
        }
        job.run(t);
        const alone = samplePerInstance(core, clips, t);
        expect(Array.from(job.samples.subarray(0, alone.samples.length))).toEqual(Array.from(alone.samples));
        expect(Array.from(job.counts.subarray(0, alone.counts.length))).toEqual(Array.from(alone.counts));
      }
      // Instance 7 was given no clip: it plays `clip`; null gives an instance `clip` back.
      expect(job.clipOf(7)).toBe(rigs[0]);
      job.setClip(2, null);
      expect(job.clipOf(2)).toBe(rigs[0]);
      job.run([0.5, 0.5, 0.5]);
      const alone = samplePerInstance(core, [clips[0]!, clips[1]!, rigs[0]!], [0.5, 0.5, 0.5]);
      expect(Array.from(job.samples.subarray(0, alone.samples.length))).toEqual(Array.from(alone.samples));
    } finally {
      job.dispose();
      float.dispose();
      quantized.dispose();
    }
  });

  it('mixes each instance’s own clip with mixWith', () => {
    const rigs = [11, 12, 13].map((seed) => makeRig(4, 20, seed));
    const resource = new AnimResource({ format: 'test', clips: rigs });
    core.load(resource);
    const job = core.createSampleMany({ clip: rigs[0]!, clips: [rigs[1]!, rigs[0]!], mixWith: rigs[2]!, instances: 2 });
    try {
      const times = [0.2, 0.55];
      const weights = [0.3, 0.8];
      job.run(times, weights);
      const c = rigs[0]!.curves.length;
      const ref = { samples: new Float32Array(4 * c * 2), counts: new Uint8Array(c * 2) };
      referenceSampleMany(rigs[0]!, times, ref, { clips: [rigs[1]!, rigs[0]!], mixWith: rigs[2]!, weights });
      for (let i = 0; i < 2; i++) {
        expectSamplesWithinBound(job.samples.subarray(4 * c * i, 4 * c * (i + 1)), ref.samples.subarray(4 * c * i, 4 * c * (i + 1)), rigs[i === 0 ? 1 : 0]!, 1);
      }
    } finally {
      job.dispose();
      resource.dispose();
    }
  });

  it('refuses misuse, and a clip whose resource was disposed (instead of reading freed memory)', () => {
    const rigs = [21, 22].map((seed) => makeRig(4, 20, seed));
    const other = makeRig(5, 20, 23);
    const unloaded = makeRig(4, 20, 24);
    const resource = new AnimResource({ format: 'test', clips: [...rigs, other] });
    core.load(resource);
    expect(() => core.createSampleMany({ clip: rigs[0]!, clips: [rigs[1]!, rigs[1]!, rigs[1]!], instances: 2 })).toThrow(/3 clips for a job of 2 instances/);
    expect(() => core.createSampleMany({ clip: rigs[0]!, clips: [other], instances: 2 })).toThrow(/differs from .* in curve count or types/);
    expect(() => core.createSampleMany({ clip: rigs[0]!, clips: [unloaded], instances: 2 })).toThrow(/not loaded/);
    expect(() => core.createSampleMany({ clip: rigs[0]!, clips: [rigs[1]!], layers: [{ clip: rigs[0]! }], instances: 2 })).toThrow(/clips or layers/);
    const job = core.createSampleMany({ clip: rigs[0]!, instances: 2 });
    expect(() => job.setClip(2, rigs[1]!)).toThrow(UsageError);
    expect(() => job.setClip(0.5, rigs[1]!)).toThrow(UsageError);

    const later = makeRig(4, 20, 25);
    const laterResource = new AnimResource({ format: 'test', clips: [later] });
    core.load(laterResource);
    job.setClip(1, later);
    job.run([0.1, 0.2]);
    laterResource.dispose();
    expect(() => job.run([0.1, 0.2])).toThrow(/not loaded/);
    // Loaded again (a new block elsewhere): the job follows it.
    core.load(laterResource);
    job.run([0.1, 0.2]);
    const alone = samplePerInstance(core, [rigs[0]!, later], [0.1, 0.2]);
    expect(Array.from(job.samples.subarray(0, alone.samples.length))).toEqual(Array.from(alone.samples));
    job.dispose();
    expect(() => job.setClip(0, rigs[1]!)).toThrow(/disposed/);
    resource.dispose();
  });

  it('writes each record\'s copy of its clip\'s header (and quantized tables) again when the clip is loaded again elsewhere, in another encoding', () => {
    const rigs = [31, 32, 34].map((seed) => makeRig(4, 20, seed));
    const resource = new AnimResource({ format: 'test', clips: rigs });
    core.load(resource);
    const job = core.createSampleMany({ clip: rigs[0]!, clips: [rigs[0]!, rigs[1]!, rigs[1]!], instances: 3 });
    const times = [0.1, 0.45, 0.8];
    try {
      job.run(times);
      resource.dispose();
      // A clip of another layout takes the freed blocks, so headers copied before would now point at its keys.
      const filler = new AnimResource({ format: 'test', clips: [makeRig(5, 20, 33)] });
      core.load(filler);
      core.load(resource, { compression: { translation: 1e-3, rotation: 1e-3, scale: 1e-3 } });
      expect(core.loadedSize(rigs[1]!).encoding).toBe('quantized');
      job.run(times);
      const alone = samplePerInstance(core, [rigs[0]!, rigs[1]!, rigs[1]!], times);
      expect(Array.from(job.samples.subarray(0, alone.samples.length))).toEqual(Array.from(alone.samples));
      expect(Array.from(job.counts.subarray(0, alone.counts.length))).toEqual(Array.from(alone.counts));
      // A quantized clip the job's table copies do not hold reads its own tables.
      job.setClip(2, rigs[2]!);
      job.run(times);
      const switched = samplePerInstance(core, [rigs[0]!, rigs[1]!, rigs[2]!], times);
      expect(Array.from(job.samples.subarray(0, switched.samples.length))).toEqual(Array.from(switched.samples));
      filler.dispose();
    } finally {
      job.dispose();
      resource.dispose();
    }
  });
});
