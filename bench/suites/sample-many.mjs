// sample-many (issue 7 / 8): the 64-joint uniform rig played by 100 instances at their own times,
// sampled with one SampleManyJob call per frame (one JS↔wasm crossing); joint samples per second.
// reference-ts: referenceSampleMany; threejs: one AnimationMixer per instance.
import * as THREE from 'three';
import { AnimResource, referenceSampleMany, SampleManyJob } from '../../dist/index.js';
import { makeRigClip, makeThreeRig, toThreeClip } from '../clips.mjs';

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
  const mixers = Array.from({ length: INSTANCES }, (_, i) => {
    const mixer = new THREE.AnimationMixer(makeThreeRig(THREE, JOINTS));
    mixer.clipAction(threeClip).play();
    mixer.setTime(i * 0.0137);
    return mixer;
  });
  contenders.threejs = () => {
    for (const m of mixers) m.update(FRAME);
  };
  return [{ name: 'sample-many', unitsPerRun: JOINTS * INSTANCES, unit: 'joint samples/s', contenders }];
}
