import { beforeAll, describe, expect, it } from 'vitest';
import type { BlendOptions } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer, localToModel } from '../../src/core/index.js';
import { bindJoints } from '../../src/anim/index.js';
import { PoseLayout } from '../../src/sequencer/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { layeredByTwin } from '../helpers/layered-twin.js';
import { character } from '../sequencer/helpers.js';

// A layered SampleManyJob (one call: every layer sampled, blended, composed) against the same
// frame done step by step: the core's sampler per layer, then the plain-TypeScript blend twin.

describe.each(BUILDS)('SampleManyJob with layers (%s build)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  // A mask of 0 and 1 under `weighted` takes the kernel's planned path (curve classes planned once
  // per call), a fractional one the general path; some instances give a layer weight 0, which
  // drops it from their classes.
  for (const [blend, maskWeight] of [
    [{ rule: 'priority', rotation: 'nlerp' }, 0.75],
    [{ rule: 'weighted', rotation: 'slerp', threshold: 1 }, 0.75],
    [{ rule: 'weighted', rotation: 'nlerp', threshold: 0 }, 0.75],
    [{ rule: 'weighted', rotation: 'slerp', threshold: 1 }, 1],
    [{ rule: 'weighted', rotation: 'nlerp', threshold: 0 }, 1],
    [{ rule: 'weighted', rotation: 'nlerp', threshold: 1.5 }, 1],
  ] as [BlendOptions, number][]) {
    it(`blends five layers per instance, two of them additive with their own reference poses (${blend.rule}, ${blend.rotation}, τ ${blend.threshold ?? '-'}, mask weight ${maskWeight})`, () => {
      const resource = character();
      core.load(resource);
      const layout = new PoseLayout(resource);
      const [ramp, walk, wave] = ['ramp', 'walk', 'wave'].map((n) => resource.clip(n));
      const upper = layout.mask(['Spine'], { children: true, weight: maskWeight });
      const layers = [
        { clip: walk! },
        { clip: ramp! },
        { clip: wave!, mask: upper },
        { clip: ramp!, mode: 'additive' as const, reference: 0.25 },
        // A second additive layer: its reference pose is inverted into a table of its own.
        { clip: wave!, mode: 'additive' as const, reference: 0.6 },
      ];
      const instances = 5;
      const job = core.createSampleMany({ clip: walk!, layers, blend, instances, output: 'model', skeleton: resource.skeleton!, rotation: blend.rotation });
      const L = layers.length;
      const times = Float64Array.from({ length: L * instances }, (_, k) => 0.13 * k - 0.4);
      const weights = Float32Array.from({ length: L * instances }, (_, k) => (k % 7 === 3 ? 0 : [0.6, 0.4, 1, 0.5, 0.3][k % L]! * (1 + (k % 3) * 0.25)));
      job.run(times, weights);
      const n = layout.curveCount;
      const wants = layeredByTwin(core, layers, times, weights, instances, layout.curveTypes, layout.rest, blend);
      for (let i = 0; i < instances; i++) {
        const want = wants[i]!;
        const got = job.samples.subarray(4 * n * i, 4 * n * (i + 1));
        expect(Array.from(job.counts.subarray(n * i, n * (i + 1)))).toEqual(Array.from(want.counts));
        for (let k = 0; k < 4 * n; k++) expect(Math.abs(got[k]! - want.samples[k]!)).toBeLessThan(1e-5);
        // model space from the blended pose, as LocalToModelJob composes it
        const pose = core.createSampleBuffer(walk!);
        pose.samples.set(got);
        pose.counts.set(job.counts.subarray(n * i, n * (i + 1)));
        const model = new Float32Array(32);
        localToModel(core, pose, bindJoints(walk!.curves, resource.skeleton!), model);
        expect(Array.from(job.matrices.subarray(32 * i, 32 * (i + 1)))).toEqual(Array.from(model));
        pose.dispose();
      }
      job.dispose();
      resource.dispose();
    });
  }

  it('refuses more than 8 layers, mixWith with layers, and times that are not per layer', () => {
    const resource = character();
    core.load(resource);
    const walk = resource.clip('walk');
    expect(() => core.createSampleMany({ clip: walk, layers: Array.from({ length: 9 }, () => ({ clip: walk })), instances: 1 })).toThrow(/at most 8/);
    expect(() => core.createSampleMany({ clip: walk, mixWith: walk, layers: [{ clip: walk }], instances: 1 })).toThrow(/not both/);
    const job = core.createSampleMany({ clip: walk, layers: [{ clip: walk }, { clip: walk }], instances: 2 });
    expect(() => job.run([0, 0, 0], [1, 1, 1])).toThrow(/multiple of the 2 layers/);
    expect(() => job.run([0, 0], [1, -1])).toThrow(/weights\[1\] must be in \[0, /);
    // Stored as float32: a weight beyond it would be Infinity there and blend into NaN.
    for (const w of [1e39, Infinity, NaN]) expect(() => job.run([0, 0], [1, w])).toThrow(/weights\[1\] must be in \[0, 3.4028234663852886e\+38\] \(float32\)/);
    job.run([0, 0], [1, 3.4028234663852886e38]);
    job.dispose();
    const mixing = core.createSampleMany({ clip: walk, mixWith: walk, instances: 1 });
    expect(() => mixing.run([0], [-1e39])).toThrow(/weights\[0\] must be in \[-3.4028234663852886e\+38, /);
    mixing.run([0], [-2]);
    mixing.dispose();
    const a = new AnimSampleBuffer(core, walk.curves.map((c) => c.curveType));
    expect(() => core.mixer.mix(a, a, 1e39, a)).toThrow(/weight must be in/);
    a.dispose();
  });
});
