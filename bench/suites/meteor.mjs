// sample-meteor (issue 4): the 9 available P0 poses played by 1,000 instances (instance i plays
// pose i mod 9 at its own time, looping between LoopStart and LoopEnd), joint samples/s.
// local-to-model: model-space matrices for 1,000 instances of the 36-joint Meteor skeleton, joints/s.
import { bindJoints, LocalToModelJob, meteorLoopTime, openMeteorCharacter, referenceLocalToModel, referenceSample } from '../../dist/index.js';
import { fixture } from '../fixtures.mjs';

const INSTANCES = 1000;
const FRAME = 1 / 60;

export default function meteorSuite({ cores }) {
  const amb = fixture('meteor', 'p0.amb');
  const bnc = fixture('meteor', 'P0.bnc');
  const pos = fixture('meteor', 'P0.pos');
  if (!amb || !bnc || !pos) return [];
  const resource = openMeteorCharacter({ amb, bnc, pos });
  const clips = resource.clips;
  const skeleton = resource.skeleton;
  const joints = skeleton.size;
  const clipOf = (i) => clips[i % clips.length];
  const timeOf = (i, frame) => meteorLoopTime(clipOf(i), frame * FRAME + i * 0.0137);
  const sample = {};
  const l2m = {};
  for (const [name, core] of Object.entries(cores)) {
    core.load(resource);
    const bufs = Array.from({ length: INSTANCES }, (_, i) => core.createSampleBuffer(clipOf(i)));
    const jobs = clips.map((c) => new LocalToModelJob(core, bindJoints(c.curves, skeleton)));
    bufs.forEach((b, i) => core.sampler.sample(clipOf(i), timeOf(i, 0), b, { rotation: 'slerp' }));
    let frame = 0;
    sample[name] = () => {
      frame++;
      for (let i = 0; i < INSTANCES; i++) core.sampler.sample(clipOf(i), timeOf(i, frame), bufs[i], { rotation: 'slerp' });
    };
    l2m[name] = () => {
      for (let i = 0; i < INSTANCES; i++) jobs[i % clips.length].run(bufs[i]);
    };
  }
  const refs = Array.from({ length: INSTANCES }, (_, i) => ({
    samples: new Float32Array(4 * clipOf(i).curves.length),
    counts: new Uint8Array(clipOf(i).curves.length),
  }));
  const bindings = clips.map((c) => bindJoints(c.curves, skeleton));
  const matrices = new Float32Array(16 * joints);
  refs.forEach((r, i) => referenceSample(clipOf(i), timeOf(i, 0), r, { rotation: 'slerp' }));
  let frame = 0;
  sample['reference-ts'] = () => {
    frame++;
    for (let i = 0; i < INSTANCES; i++) referenceSample(clipOf(i), timeOf(i, frame), refs[i], { rotation: 'slerp' });
  };
  l2m['reference-ts'] = () => {
    for (let i = 0; i < INSTANCES; i++) referenceLocalToModel(refs[i], bindings[i % clips.length], matrices);
  };
  return [
    { name: 'sample-meteor', unitsPerRun: INSTANCES * joints, unit: 'joint samples/s', contenders: sample },
    { name: 'local-to-model', unitsPerRun: INSTANCES * joints, unit: 'joints/s', contenders: l2m },
  ];
}
