// sample-uniform-quantized (issue 16): the sample-uniform workload (a 64-joint T/R/S rig, 61 keys
// at 30 Hz, 100 instances forward at 60 Hz, one `sample` call per instance) on the same keys loaded
// with `compression` (every curve quantized: 4.75 bytes per key); joint samples/s, to compare with
// sample-uniform in the same run. reference-ts: `referenceSampleQuantized`, the twin.
import { AnimResource, referenceSampleQuantized } from '../../dist/index.js';
import { makeRigClip } from '../clips.mjs';
import { CROWD_COMPRESSION } from './crowd-cold.mjs';

const JOINTS = 64;
const INSTANCES = 100;
const FRAME = 1 / 60;

export default function sampleQuantized({ cores }) {
  const clip = makeRigClip({ joints: JOINTS, seed: 1, name: 'a-quantized' });
  const resource = new AnimResource({ format: 'bench', clips: [clip] });
  const contenders = {};
  for (const [name, core] of Object.entries(cores)) {
    core.load(resource, { compression: CROWD_COMPRESSION });
    if (core.loadedSize(clip).encoding !== 'quantized') throw new Error('sample-uniform-quantized: the rig did not load quantized');
    const bufs = Array.from({ length: INSTANCES }, () => core.createSampleBuffer(clip));
    let frame = 0;
    contenders[name] = () => {
      const t0 = frame++ * FRAME;
      for (let i = 0; i < INSTANCES; i++) core.sampler.sample(clip, t0 + i * 0.0137, bufs[i]);
    };
  }
  const refs = Array.from({ length: INSTANCES }, () => ({ samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) }));
  let refFrame = 0;
  contenders['reference-ts'] = () => {
    const t0 = refFrame++ * FRAME;
    for (let i = 0; i < INSTANCES; i++) referenceSampleQuantized(clip, CROWD_COMPRESSION, t0 + i * 0.0137, refs[i]);
  };
  return [{ name: 'sample-uniform-quantized', unitsPerRun: JOINTS * INSTANCES, unit: 'joint samples/s', contenders }];
}
