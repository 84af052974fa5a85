import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, type AnimCurve, type BlendLayer, type BlendOptions, dropKeys, type SampleArrays } from '../../src/anim/index.js';
import { quatInverse, quatMultiply } from '../../src/anim/quaternion.js';
import type { AnimCore } from '../../src/core/index.js';
import { additiveDeltaClip } from '../../src/core/additive-deltas.js';
import { referenceBlend } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { makeRig } from '../helpers/rig.js';

// A layered SampleManyJob samples an additive layer from a copy of its clip whose keys are deltas
// against the reference pose (three.js makeClipAdditive), where the clip's keys allow it; the twin
// takes the delta of each sample. Both must agree on every path of the kernel: the planned one
// (masks of 0 and 1; SIMD: four rotations at a time), the general one (a fractional mask), both
// rules, slerp and nlerp — and where the copy is refused (compressed keys, a reference rotation
// that is not unit), the per-sample deltas.

const JOINTS = 16;
const KEYS = 31;

/** `clip` with its uniform curves as keyed curves at the same key times. */
function keyedCopy(clip: AnimClip): AnimClip {
  const times = Float32Array.from({ length: clip.keyCount }, (_, k) => k * clip.keyDuration);
  return clip.withCurves(clip.curves.map((c) => (c.keys.encoding === 'uniform' ? { ...c, keys: { encoding: 'keyed', times, values: c.keys.values } } : c)));
}

/** `clip` with key 0 of every rotation curve scaled by `factor` (not unit: its inverse is no rotation). */
function scaledFirstKey(clip: AnimClip, factor: number): AnimClip {
  return clip.withCurves(
    clip.curves.map((c): AnimCurve => {
      if (c.curveType !== 'rotation' || c.keys.encoding !== 'uniform') return c;
      const values = c.keys.values.slice();
      for (let i = 0; i < 4; i++) values[i]! *= factor;
      return { ...c, keys: { ...c.keys, values } };
    }),
  );
}

/** Rest values: translation 0, rotation identity, scale 1 (w 0). */
function restPose(clip: AnimClip): Float32Array {
  const rest = new Float32Array(4 * clip.curves.length);
  clip.curves.forEach((c, i) => rest.set(c.curveType === 'rotation' ? [0, 0, 0, 1] : c.curveType === 'scale' ? [1, 1, 1, 0] : [0, 0, 0, 0], 4 * i));
  return rest;
}

describe.each(BUILDS)('additive layers from delta keys (%s build)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  /** Runs a layered job over walk, run, wave (masked) and `additive`, and checks it against sampling step by step and the twin. */
  function checkAgainstTwin(clips: AnimClip[], blend: BlendOptions, maskWeight: number, load: (r: AnimResource) => void = (r) => core.load(r), referenceTime = 0.2): void {
    const resource = new AnimResource({ format: 'test', clips });
    load(resource);
    const [walk, run, wave, additive] = clips as [AnimClip, AnimClip, AnimClip, AnimClip];
    const n = walk.curves.length;
    // The upper half of the joints (3 curves each).
    const mask = Float32Array.from({ length: n }, (_, c) => (Math.floor(c / 3) >= JOINTS / 2 ? maskWeight : 0));
    const layers = [{ clip: walk }, { clip: run }, { clip: wave, mask }, { clip: additive, mode: 'additive' as const, reference: referenceTime }];
    const rest = restPose(walk);
    const instances = 6;
    const L = layers.length;
    const rotation = blend.rotation;
    const job = core.createSampleMany({ clip: walk, layers, blend, instances, rest, rotation });
    const times = Float64Array.from({ length: L * instances }, (_, k) => 0.037 * k + 0.1 * (k % L));
    const weights = Float32Array.from({ length: L * instances }, (_, k) => [0.7, 0.3 + 0.1 * (k % 3), 0.8, 0.25 + 0.3 * (k % 2)][k % L]!);
    job.run(times, weights);
    const buf = core.createSampleBuffer(walk);
    const sampled = (clip: AnimClip, t: number): SampleArrays => {
      core.sampler.sample(clip, t, buf, { rotation });
      return { samples: buf.samples.slice(), counts: buf.counts.slice() };
    };
    const reference = sampled(additive, referenceTime);
    const types = walk.curves.map((c) => c.curveType);
    for (let i = 0; i < instances; i++) {
      const blendLayers: BlendLayer[] = layers.map((l, k) => ({
        samples: sampled(l.clip, times[L * i + k]!),
        weight: weights[L * i + k]!,
        mask: l.mask ?? null,
        mode: l.mode ?? 'normal',
        ...(l.mode === 'additive' ? { reference } : {}),
      }));
      const want: SampleArrays = { samples: new Float32Array(4 * n), counts: new Uint8Array(n) };
      referenceBlend(types, rest, blendLayers, want, blend);
      expect(Array.from(job.counts.subarray(n * i, n * (i + 1)))).toEqual(Array.from(want.counts));
      const got = job.samples.subarray(4 * n * i, 4 * n * (i + 1));
      for (let k = 0; k < 4 * n; k++) expect(Math.abs(got[k]! - want.samples[k]!)).toBeLessThan(1e-5);
    }
    buf.dispose();
    job.dispose();
    resource.dispose();
  }

  const rigs = (): AnimClip[] => [1, 2, 3, 4].map((seed) => makeRig(JOINTS, KEYS, seed));
  const blends: [BlendOptions, number][] = [
    [{ rule: 'weighted', rotation: 'slerp', threshold: 1 }, 1],
    [{ rule: 'weighted', rotation: 'slerp', threshold: 1 }, 0.6],
    [{ rule: 'weighted', rotation: 'nlerp', threshold: 1 }, 1],
    [{ rule: 'priority', rotation: 'slerp' }, 1],
    [{ rule: 'priority', rotation: 'nlerp' }, 0.6],
  ];

  it.each(blends)('equals the twin with uniform and keyed clips (%o, mask weight %s)', (blend, maskWeight) => {
    checkAgainstTwin(rigs(), blend, maskWeight);
    checkAgainstTwin(rigs().map(keyedCopy), blend, maskWeight);
  });

  it('equals the twin where the deltas are taken per sample: compressed keys, a reference rotation that is not unit', () => {
    const blend: BlendOptions = { rule: 'weighted', rotation: 'slerp', threshold: 1 };
    checkAgainstTwin(rigs(), blend, 1, (r) => core.load(r, { compression: { translation: 1e-3, rotation: 1e-3, scale: 1e-3 } }));
    const clips = rigs();
    // Key 0 lengthened, the reference at time 0.
    const longFirst = scaledFirstKey(clips[3]!, 1.5);
    expect(additiveDeltaClip(longFirst, sampleAt(longFirst, 0), new Uint8Array(longFirst.curves.length).fill(1))).toBeNull();
    checkAgainstTwin([clips[0]!, clips[1]!, clips[2]!, longFirst], blend, 1, (r) => core.load(r), 0);
  });

  /** `clip` sampled at `t` by the core (slerp). */
  function sampleAt(clip: AnimClip, t: number): Float32Array {
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    const buf = core.createSampleBuffer(clip);
    core.sampler.sample(clip, t, buf, { rotation: 'slerp' });
    const samples = buf.samples.slice();
    buf.dispose();
    resource.dispose();
    return samples;
  }
});

describe('additiveDeltaClip', () => {
  const clip = makeRig(4, 9, 5);
  const n = clip.curves.length;
  const reference = new Float32Array(4 * n);
  // The reference pose: key 3 of each curve (unit rotations).
  clip.curves.forEach((c, i) => reference.set((c.keys as { values: Float32Array }).values.subarray(12, 16), 4 * i));
  const counts = new Uint8Array(n).fill(1);

  it('rewrites rotation keys as ref⁻¹ ⊗ key and other keys as key − ref; curves of count 0 keep theirs', () => {
    counts[0] = 0;
    const deltas = additiveDeltaClip(clip, reference, counts)!;
    counts[0] = 1;
    expect(deltas.curves[0]).toBe(clip.curves[0]);
    clip.curves.forEach((c, i) => {
      if (i === 0) return;
      const v = (c.keys as { values: Float32Array }).values;
      const d = (deltas.curves[i]!.keys as { values: Float32Array }).values;
      const r = reference.subarray(4 * i, 4 * i + 4);
      for (let o = 0; o < v.length; o += 4) {
        const want = c.curveType === 'rotation' ? quatMultiply(quatInverse(r), v.subarray(o, o + 4)) : [0, 1, 2, 3].map((k) => v[o + k]! - r[k]!);
        want.forEach((x, k) => expect(d[o + k]).toBe(Math.fround(x)));
      }
      // The reference key itself becomes identity (rotations) or zero.
      expect(Array.from(d.subarray(12, 16)).map((x) => Math.round(x * 1e6) / 1e6 + 0)).toEqual(c.curveType === 'rotation' ? [0, 0, 0, 1] : [0, 0, 0, 0]);
    });
    expect(deltas.keyCount).toBe(clip.keyCount);
    expect(deltas.keyDuration).toBe(clip.keyDuration);
  });

  it('refuses cubic keys, a reference rotation that is not unit and dropped keys', () => {
    const cubic = clip.withCurves(clip.curves.map((c, i) => (i === 1 ? { ...c, keys: { encoding: 'cubic', times: Float32Array.of(0), values: new Float32Array(12) } } : c)));
    expect(additiveDeltaClip(cubic, reference, counts)).toBeNull();
    const long = reference.slice();
    long.set([0, 0, 0, 1.001], 4);
    expect(additiveDeltaClip(clip, long, counts)).toBeNull();
    const dropped = clip.withCurves([...clip.curves]);
    dropKeys(dropped);
    expect(additiveDeltaClip(dropped, reference, counts)).toBeNull();
  });
});
