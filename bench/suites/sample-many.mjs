// sample-many (issue 7 / 8): the 64-joint uniform rig played by 100 instances at their own times,
// sampled with one SampleManyJob call per frame (one JS↔wasm crossing); joint samples per second.
// reference-ts: referenceSampleMany; threejs: one AnimationMixer per instance (threejs-25: 25 of them).
import * as THREE from 'three';
import { AnimResource, referenceSampleMany, SampleManyJob } from '../../dist/index.js';
import { makeRigClip, threeContender, toThreeClip } from '../clips.mjs';

const JOINTS = 64;
const INSTANCES = 100;
const FRAME = 1 / 60;

export default function sampleMany({ cores }) {
  const clip = makeRigClip({ joints: JOINTS, seed: 1, name: 'a' });
  const resource = new AnimResource({ format: 'bench', clips: [clip] });
  const times = new Float64Array(INSTANCES);
  const advance = (frame) => {
    for (let i = 0; i < INSTANCES; i++) times[i] = frame * FRAME + i * 0.0137;
  };
  const contenders = {};
  for (const [name, core] of Object.entries(cores)) {
    core.load(resource);
    const job = new SampleManyJob(core, { clip, instances: INSTANCES });
    let frame = 0;
    contenders[name] = () => {
      advance(frame++);
      job.run(times);
    };
  }
  const out = { samples: new Float32Array(4 * clip.curves.length * INSTANCES), counts: new Uint8Array(clip.curves.length * INSTANCES) };
  let refFrame = 0;
  contenders['reference-ts'] = () => {
    advance(refFrame++);
    referenceSampleMany(clip, times, out);
  };
  const threeClip = toThreeClip(THREE, clip);
  contenders.threejs = threeContender(THREE, [threeClip], { joints: JOINTS, count: INSTANCES, frame: FRAME });
  contenders['threejs-25'] = threeContender(THREE, [threeClip], { joints: JOINTS, count: 25, frame: FRAME });
  return [{ name: 'sample-many', unitsPerRun: JOINTS * INSTANCES, unitsPerRunOf: { 'threejs-25': JOINTS * 25 }, unit: 'joint samples/s', contenders }];
}
