import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, type AnimCurve, type BlendOptions } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { additiveDeltaClip } from '../../src/core/additive-deltas.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { layeredByTwin } from '../helpers/layered-twin.js';
import { makeRig } from '../helpers/rig.js';

// A layered SampleManyJob over rig clips against the same frame done step by step (the core's
// sampler per layer, then the blend twin). Two things the job does that a BlendJob call does not:
// an additive layer is sampled from a copy of its clip whose keys are deltas against the reference
// pose (three.js makeClipAdditive), where the clip's keys allow it, while the twin takes the delta
// of each sample; and a layer with a mask of 0 and 1 over a uniform clip samples only the slots
// whose curves the planned blend reads (runs of slots; the twin samples the whole clip). Both must
// agree on every path of the kernel: the planned one (masks of 0 and 1; SIMD: four rotations at a
// time), the general one (a fractional mask), both rules, slerp and nlerp — and where the delta
// copy is refused (compressed keys, a reference rotation that is not unit), the per-sample deltas.

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

describe.each(BUILDS)('SampleManyJob with layers over rig clips (%s build)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  /** Runs a layered job over walk, run, wave (masked) and `additive`, and checks it against sampling step by step and the twin. */
  function checkAgainstTwin(
    clips: AnimClip[],
    blend: BlendOptions,
    maskWeight: number,
    load: (r: AnimResource) => void = (r) => core.load(r),
    referenceTime = 0.2,
    maskOf: (curve: number) => boolean = (c) => Math.floor(c / 3) >= JOINTS / 2,
  ): void {
    const resource = new AnimResource({ format: 'test', clips });
    load(resource);
    const [walk, run, wave, additive] = clips as [AnimClip, AnimClip, AnimClip, AnimClip];
    const n = walk.curves.length;
    // By default the upper half of the joints (3 curves each).
    const mask = Float32Array.from({ length: n }, (_, c) => (maskOf(c) ? maskWeight : 0));
    const layers = [{ clip: walk }, { clip: run }, { clip: wave, mask }, { clip: additive, mode: 'additive' as const, reference: referenceTime }];
    const rest = restPose(walk);
    const instances = 6;
    const L = layers.length;
    const rotation = blend.rotation;
    const job = core.createSampleMany({ clip: walk, layers, blend, instances, rest, rotation });
    const times = Float64Array.from({ length: L * instances }, (_, k) => 0.037 * k + 0.1 * (k % L));
    const weights = Float32Array.from({ length: L * instances }, (_, k) => [0.7, 0.3 + 0.1 * (k % 3), 0.8, 0.25 + 0.3 * (k % 2)][k % L]!);
    job.run(times, weights);
    const wants = layeredByTwin(core, layers, times, weights, instances, walk.curves.map((c) => c.curveType), rest, blend);
    for (let i = 0; i < instances; i++) {
      const want = wants[i]!;
      expect(Array.from(job.counts.subarray(n * i, n * (i + 1)))).toEqual(Array.from(want.counts));
      const got = job.samples.subarray(4 * n * i, 4 * n * (i + 1));
      for (let k = 0; k < 4 * n; k++) expect(Math.abs(got[k]! - want.samples[k]!)).toBeLessThan(1e-5);
    }
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

  it.each([
    ['every third joint', (c: number) => Math.floor(c / 3) % 3 === 1],
    ['rotations of joints 1–3, 5 and 8–12 (runs of 3, 1 and 5 rotations)', (c: number) => c % 3 === 1 && [1, 2, 3, 5, 8, 9, 10, 11, 12].includes(Math.floor(c / 3))],
    ['translations and scales only', (c: number) => c % 3 !== 1],
    ['no curve', () => false],
    ['every curve', () => true],
  ])('samples a masked layer where the blend reads it only, and equals the twin (mask: %s)', (_, maskOf) => {
    for (const [blend] of blends) checkAgainstTwin(rigs(), blend, 1, (r) => core.load(r), 0.2, maskOf);
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
