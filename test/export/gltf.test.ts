import { NodeIO } from '@gltf-transform/core';
import validator from 'gltf-validator';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AnimClip, AnimResource } from '../../src/anim/index.js';
import { openFile } from '../../src/cli/open-file.js';
import type { AnimCore } from '../../src/core/index.js';
import { toGltfDocument, writeGlb, type GltfExportOptions } from '../../src/export/gltf.js';
import { createCore } from '../helpers/core.js';
import { distanceToKeyTime, sampleGltfChannel } from '../helpers/gltf-sampler.js';
import { exportInputs } from '../helpers/export-inputs.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { gltfExpected } from '../helpers/gltf-fixtures.js';

const TIMES_PER_CLIP = 200;
const TOLERANCE = 1e-4;
/** STEP samplers jump at key times: times this close (seconds) to one are not compared. */
const STEP_GUARD = 1e-5;

/** Largest difference between glTF's sample and animcore's (slerp; rotations normalised, up to sign). */
async function maxDeviation(core: AnimCore, bytes: Uint8Array, clips: readonly AnimClip[], step: boolean, seed: number): Promise<{ d: number; where: string }> {
  const doc = await new NodeIO().readBinary(bytes);
  const resource = new AnimResource({ format: 'exported', clips: clips.filter((c) => !core.isLoaded(c)) });
  core.load(resource);
  let worst = { d: 0, where: '' };
  try {
    const animations = doc.getRoot().listAnimations();
    expect(animations.map((a) => a.getName())).toEqual(clips.map((c) => c.name));
    animations.forEach((animation, a) => {
      const clip = clips[a]!;
      const buf = core.createSampleBuffer(clip);
      const times = fc.sample(fc.double({ min: 0, max: clip.duration, noNaN: true }), { numRuns: TIMES_PER_CLIP, seed: seed + a });
      const channels = animation.listChannels().map((ch) => {
        const name = ch.getTargetNode()!.getName();
        const path = ch.getTargetPath()!;
        const curve = clip.curves.findIndex((c) => c.active && c.target.joint === name && c.target.property === path);
        expect(curve, `${clip.name} ${name}.${path}`).toBeGreaterThanOrEqual(0);
        return { ch, curve, path };
      });
      for (const t of times) {
        core.sampler.sample(clip, t, buf, { rotation: 'slerp', sampleType: step ? 'step' : 'linear' });
        const s = buf.samples;
        for (const { ch, curve, path } of channels) {
          if (step && distanceToKeyTime(ch, t) < STEP_GUARD) continue;
          const got = sampleGltfChannel(ch, t);
          let want = Array.from(s.subarray(4 * curve, 4 * curve + got.length));
          if (path === 'rotation') {
            const len = Math.hypot(...want);
            want = len === 0 ? [0, 0, 0, 1] : want.map((x) => x / len);
          }
          const same = Math.max(...got.map((x, i) => Math.abs(x - want[i]!)));
          const flipped = path === 'rotation' ? Math.max(...got.map((x, i) => Math.abs(x + want[i]!))) : Infinity;
          const d = Math.min(same, flipped);
          if (d > worst.d) worst = { d, where: `${clip.name} ${ch.getTargetNode()!.getName()}.${path} at ${t}` };
        }
      }
      buf.dispose();
    });
  } finally {
    resource.dispose();
  }
  return worst;
}

const MODES: [string, GltfExportOptions][] = [
  ['own key times', {}],
  ['60 fps', { fps: 60 }],
  ['own key times, STEP', { interpolation: 'step' }],
  // Another conversion than the default Y-up (every source turned, MRTK's mirror with it) and a length scale.
  ['Z-up, centimetres to metres', { up: 'z', scale: 0.01 }],
];

describe('glTF export', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  // glTF fixtures too, written as new documents (a source document keeps its own axes).
  const inputs = [...exportInputs(), ...(haveFixtures('gltf') ? Object.keys(gltfExpected().files).map((f) => fixturePath('gltf', f)) : [])];
  it.each(inputs.flatMap((path) => MODES.map(([mode, options]) => [path, mode, options] as const)))(
    '%s (%s) passes the Khronos validator and samples like animcore',
    async (path, mode, options) => {
      const resource = (await openFile(path)).resource;
      core.load(resource);
      const exported = toGltfDocument(core, resource, options);
      const glb = await writeGlb(exported.document);
      const report = await validator.validateBytes(glb);
      const errors = report.issues.messages.filter((m) => m.severity === 0);
      expect(errors, JSON.stringify(errors.slice(0, 5))).toEqual([]);
      // A clip that drives only morph weights has no channel in a new document (its mesh's targets stay in the source document): the export says so.
      const written = exported.clips.filter((c) => !exported.warnings.includes(`clip "${c.name}" has no active translation, rotation or scale curve on a node; glTF animations need one, so it is not exported`));
      if (!path.includes('AnimatedMorphCube')) expect(written).toEqual(exported.clips);
      const { d, where } = await maxDeviation(core, glb, written, options.interpolation === 'step', path.length);
      expect(d, where).toBeLessThan(TOLERANCE);
      resource.dispose();
    },
  );
});
