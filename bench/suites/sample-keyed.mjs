// sample-keyed (issue 5): keyed (non-uniform) T/R/S curves of a 64-object scene, 120 keys per
// channel at irregular times, forward playback at 60 Hz by 100 instances; joint samples/s.
// three.js samples the same keyframe tracks natively (one AnimationMixer per instance).
import * as THREE from 'three';
import { AnimClip, AnimResource, referenceSample } from '../../dist/index.js';
import { random, threeContender } from '../clips.mjs';

const OBJECTS = 64;
const KEYS = 120;
const INSTANCES = 100;
const FRAME = 1 / 60;

function makeKeyedClip() {
  const rnd = random(7);
  const curves = [];
  const tracks = [];
  for (let j = 0; j < OBJECTS; j++) {
    for (const [curveType, property, width] of [
      ['translation', 'position', 3],
      ['rotation', 'quaternion', 4],
      ['scale', 'scale', 3],
    ]) {
      const times = new Float32Array(KEYS);
      const values = new Float32Array(4 * KEYS);
      let t = 0;
      for (let k = 0; k < KEYS; k++) {
        times[k] = t;
        t += 0.01 + 0.05 * rnd();
        if (curveType === 'rotation') {
          const a = rnd() * 0.5 + k * 0.05;
          values.set([Math.sin(a), 0, 0, Math.cos(a)], 4 * k);
        } else {
          values.set([rnd(), rnd(), rnd(), 0], 4 * k);
        }
      }
      curves.push({ curveType, active: true, target: { joint: `j${j}`, property: curveType }, keys: { encoding: 'keyed', times, values } });
      const threeValues = new Float32Array(width * KEYS);
      for (let k = 0; k < KEYS; k++) for (let c = 0; c < width; c++) threeValues[width * k + c] = values[4 * k + c];
      const Track = curveType === 'rotation' ? THREE.QuaternionKeyframeTrack : THREE.VectorKeyframeTrack;
      tracks.push(new Track(`j${j}.${property}`, times, threeValues));
    }
  }
  const clip = new AnimClip({ name: 'keyed', curves, postInfinity: 'cycle' });
  return { clip, threeClip: new THREE.AnimationClip('keyed', clip.duration, tracks) };
}

export default function sampleKeyed({ cores }) {
  const { clip, threeClip } = makeKeyedClip();
  const resource = new AnimResource({ format: 'bench', clips: [clip] });
  const timeOf = (i, frame) => (frame * FRAME + i * 0.0137) % clip.duration;
  const contenders = {};
  for (const [name, core] of Object.entries(cores)) {
    core.load(resource);
    const bufs = Array.from({ length: INSTANCES }, () => core.createSampleBuffer(clip));
    let frame = 0;
    contenders[name] = () => {
      frame++;
      for (let i = 0; i < INSTANCES; i++) core.sampler.sample(clip, timeOf(i, frame), bufs[i]);
    };
  }
  const refs = Array.from({ length: INSTANCES }, () => ({ samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) }));
  let refFrame = 0;
  contenders['reference-ts'] = () => {
    refFrame++;
    for (let i = 0; i < INSTANCES; i++) referenceSample(clip, timeOf(i, refFrame), refs[i]);
  };
  const offset = (i) => timeOf(i, 0);
  contenders.threejs = threeContender(THREE, [threeClip], { joints: OBJECTS, count: INSTANCES, frame: FRAME, offset });
  contenders['threejs-25'] = threeContender(THREE, [threeClip], { joints: OBJECTS, count: 25, frame: FRAME, offset });
  return [{ name: 'sample-keyed', unitsPerRun: OBJECTS * INSTANCES, unitsPerRunOf: { 'threejs-25': OBJECTS * 25 }, unit: 'joint samples/s', contenders }];
}
