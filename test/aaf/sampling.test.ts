import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimClip, AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { aafAnimationToResource } from '../../src/formats/aaf/to-resource.js';
import { openAafScene } from '../../src/formats/aaf/open.js';
import { readAafAnimation } from '../../src/formats/aaf/read-animation.js';
import { makeTeapotMan } from '../../src/formats/aaf/teapot-man.js';
import { referenceSample } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';

const example = makeTeapotMan();
const FPS = 30;
/** Frames to sample: before the first key, on and between keys, the step at 20, after the last. */
const FRAMES = [-10, -0.5, 0, 0.25, 3.3, 5, 6.9, 7, 12.5, 19.99, 20, 20.01, 27, 33.3, 39.9, 40, 40.5, 100];
/** Seconds to sample, plus frame 20 as float32 seconds: exactly the time of the two step keys. */
const TIMES = [...FRAMES.map((f) => f / FPS), Math.fround(20 / FPS)];

function expectCoreMatchesReference(core: AnimCore, resource: AnimResource, times: number[], rotation: 'nlerp' | 'slerp'): void {
  core.load(resource);
  const clip = resource.clip(0);
  const buf = core.createSampleBuffer(clip);
  const ref = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
  // Forward playback (the cursor path), then backward and jumping (the binary search path).
  for (const t of [...times, ...[...times].reverse(), ...times.filter((_, i) => i % 3 === 0)]) {
    core.sampler.sample(clip, t, buf, { rotation });
    referenceSample(clip, t, ref, { rotation });
    for (let i = 0; i < ref.samples.length; i++) {
      expect(Math.abs(buf.samples[i]! - ref.samples[i]!), `t=${t} float ${i}`).toBeLessThanOrEqual(1e-5);
    }
    expect([...buf.counts]).toEqual([...ref.counts]);
  }
  buf.dispose();
  resource.dispose();
}

function curveOf(clip: AnimClip, joint: string, property: string): number {
  return clip.curves.findIndex((c) => c.target.joint === joint && c.target.property === property);
}

describe.each(BUILDS)('sampling the teapot man, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it.each(['nlerp', 'slerp'] as const)('scene + animation: the core equals the reference within 1e-5 (%s)', (rotation) => {
    expectCoreMatchesReference(core, openAafScene(example), TIMES, rotation);
  });

  it('animation alone and scene alone (rest clip) equal the reference', () => {
    expectCoreMatchesReference(core, aafAnimationToResource(readAafAnimation(example.animation)), TIMES, 'nlerp');
    expectCoreMatchesReference(core, openAafScene({ scene: example.scene }), [-1, 0, 1], 'nlerp');
  });

  it('holds before the first and after the last key, steps at equal times, holds a single key, keeps rest without a channel', () => {
    const resource = openAafScene(example);
    core.load(resource);
    const clip = resource.clip(0);
    const buf = core.createSampleBuffer(clip);
    // Key times are float32 seconds: sample at the float32 time so that frame 20 is exactly on the step.
    const at = (frame: number, joint: string, property: string) => {
      core.sampler.sample(clip, Math.fround(frame / FPS), buf);
      return buf.sampleOf(curveOf(clip, joint, property));
    };
    const wave = (degrees: number) => Math.sin((degrees * Math.PI) / 360);
    // wrist.R keys: -30° at 0, 0° at 10, 30° at 20, -30° at 20 (the step), 0° at 30, 30° at 40 (about z).
    expect(at(-5, 'wrist.R', 'rotation')[2]).toBeCloseTo(wave(-30), 5);
    expect(at(19.999, 'wrist.R', 'rotation')[2]).toBeCloseTo(wave(30), 3);
    expect(at(20, 'wrist.R', 'rotation')[2]).toBeCloseTo(wave(-30), 5);
    expect(at(45, 'wrist.R', 'rotation')[2]).toBeCloseTo(wave(30), 5);
    // wrist.L has one key: -10° about x, at every time.
    for (const f of [-1, 0, 17, 99]) expect(at(f, 'wrist.L', 'rotation')[0]).toBeCloseTo(wave(-10), 5);
    // forearm.R has no channel: its rest pose from the scene.
    expect(at(13, 'forearm.R', 'translation').slice(0, 3)).toEqual([0, expect.closeTo(-0.3, 6), 0]);
    expect(at(13, 'forearm.R', 'rotation')).toEqual([0, 0, 0, 1]);
    buf.dispose();
    resource.dispose();
  });
});
