import { beforeAll, describe, expect, it } from 'vitest';
import { bindJoints } from '../../src/anim/index.js';
import { type AnimCore, localToModel } from '../../src/core/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { haveFixtures } from '../helpers/fixtures.js';
import { channelCurves, type GltfExpected, gltfExpected, openGltfFixture } from '../helpers/gltf-fixtures.js';

const have = haveFixtures('gltf');
const expected: GltfExpected = have ? gltfExpected() : { files: {} };

function expectClose(actual: ArrayLike<number>, want: readonly number[], tol: number, what: string): void {
  want.forEach((w, i) => {
    if (!(Math.abs(actual[i]! - w) <= tol * Math.max(1, Math.abs(w)))) throw new Error(`${what}[${i}]: ${actual[i]} vs expected ${w}`);
  });
}

describe.skipIf(!have).each(BUILDS)('glTF fixtures through AnimCore, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it.each(Object.keys(expected.files))('%s: every channel value of expected.json (1e-4), every node in model space (1e-3)', async (file) => {
    const want = expected.files[file]!;
    const resource = await openGltfFixture(file);
    core.load(resource);
    const skeleton = resource.skeleton!;
    want.animations.forEach((a, i) => {
      const clip = resource.clips[i]!;
      const buf = core.createSampleBuffer(clip);
      const first = channelCurves(a);
      for (const sample of a.samples) {
        core.sampler.sample(clip, sample.t, buf);
        sample.values.forEach((value, c) => {
          const got = a.channels[c]!.path === 'weights' ? value.map((_, k) => buf.samples[4 * (first[c]! + k)]!) : buf.samples.subarray(4 * first[c]!, 4 * first[c]! + value.length);
          expectClose(got, value, 1e-4, `animation ${i} t=${sample.t} channel ${c}`);
        });
      }
      const binding = bindJoints(clip.curves, skeleton);
      const matrices = new Float32Array(16 * skeleton.size);
      for (const frame of a.modelSpace) {
        core.sampler.sample(clip, frame.t, buf);
        localToModel(core, buf, binding, matrices);
        for (const node of frame.nodes) expectClose(matrices.subarray(16 * node.node, 16 * node.node + 16), node.world, 1e-3, `t=${frame.t} node ${node.node}`);
      }
      buf.dispose();
    });
    resource.dispose();
  });
});
