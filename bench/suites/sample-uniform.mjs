// sample-uniform (issue 2 / 7): a 64-joint T/R/S uniform clip (30 Hz keys) played forward at 60 Hz
// by 100 instances; joint samples per second. sample-uniform-slerp: the same with exact slerp.
// sample-mix: two clips sampled and mixed 50/50 per instance; output joints per second.
import * as THREE from 'three';
import { AnimResource, referenceMix, referenceSample } from '../../dist/index.js';
import { makeRigClip, threeContender, toThreeClip } from '../clips.mjs';

const JOINTS = 64;
const INSTANCES = 100;
const FRAME = 1 / 60;

/**
 * Instance i's time in `frame`. Computed in the loop, not as an array per frame: allocating that
 * array cost ~47 ns per instance (14 % of the simd contender's frame), which the three.js
 * contenders (`mixer.update(frame)`) do not pay.
 */
function instanceTime(frame, i) {
  return frame * FRAME + i * 0.0137;
}

function arrays(n) {
  return { samples: new Float32Array(4 * n), counts: new Uint8Array(n) };
}

export default function sampleUniform({ cores }) {
  const clip = makeRigClip({ joints: JOINTS, seed: 1, name: 'a' });
  const clipB = makeRigClip({ joints: JOINTS, seed: 2, name: 'b' });
  const resource = new AnimResource({ format: 'bench', clips: [clip, clipB] });
  const jointsPerFrame = JOINTS * INSTANCES;
  const cases = { 'sample-uniform': {}, 'sample-uniform-slerp': {}, 'sample-mix': {} };

  for (const [name, core] of Object.entries(cores)) {
    core.load(resource);
    const bufs = Array.from({ length: INSTANCES }, () => core.createSampleBuffer(clip));
    const bufsB = Array.from({ length: INSTANCES }, () => core.createSampleBuffer(clip));
    let frame = 0;
    cases['sample-uniform'][name] = () => {
      const f = frame++;
      for (let i = 0; i < INSTANCES; i++) core.sampler.sample(clip, instanceTime(f, i), bufs[i]);
    };
    cases['sample-uniform-slerp'][name] = () => {
      const f = frame++;
      for (let i = 0; i < INSTANCES; i++) core.sampler.sample(clip, instanceTime(f, i), bufs[i], { rotation: 'slerp' });
    };
    cases['sample-mix'][name] = () => {
      const f = frame++;
      for (let i = 0; i < INSTANCES; i++) {
        core.sampler.sample(clip, instanceTime(f, i), bufs[i]);
        core.sampler.sample(clipB, instanceTime(f, i), bufsB[i]);
        core.mixer.mix(bufs[i], bufsB[i], 0.5, bufs[i]);
      }
    };
  }

  const refs = Array.from({ length: INSTANCES }, () => arrays(clip.curves.length));
  const refsB = Array.from({ length: INSTANCES }, () => arrays(clip.curves.length));
  const types = clip.curves.map((c) => c.curveType);
  let refFrame = 0;
  cases['sample-uniform']['reference-ts'] = () => {
    const f = refFrame++;
    for (let i = 0; i < INSTANCES; i++) referenceSample(clip, instanceTime(f, i), refs[i]);
  };
  cases['sample-uniform-slerp']['reference-ts'] = () => {
    const f = refFrame++;
    for (let i = 0; i < INSTANCES; i++) referenceSample(clip, instanceTime(f, i), refs[i], { rotation: 'slerp' });
  };
  cases['sample-mix']['reference-ts'] = () => {
    const f = refFrame++;
    for (let i = 0; i < INSTANCES; i++) {
      referenceSample(clip, instanceTime(f, i), refs[i]);
      referenceSample(clipB, instanceTime(f, i), refsB[i]);
      referenceMix(types, refs[i], refsB[i], 0.5, refs[i]);
    }
  };

  // three.js: one AnimationMixer per character, at 100 characters and at its best case, 25.
  const threeClip = toThreeClip(THREE, clip);
  const threeClipB = toThreeClip(THREE, clipB);
  for (const [name, count] of [['threejs', INSTANCES], ['threejs-25', 25]]) {
    cases['sample-uniform'][name] = threeContender(THREE, [threeClip], { joints: JOINTS, count, frame: FRAME });
    cases['sample-mix'][name] = threeContender(THREE, [threeClip, threeClipB], { joints: JOINTS, count, frame: FRAME });
  }

  return Object.entries(cases).map(([caseName, contenders]) => ({
    name: caseName,
    unitsPerRun: jointsPerFrame,
    unitsPerRunOf: { 'threejs-25': JOINTS * 25 },
    unit: caseName === 'sample-mix' ? 'output joints/s' : 'joint samples/s',
    contenders,
  }));
}
