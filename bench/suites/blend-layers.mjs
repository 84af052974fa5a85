// blend-layers (issue 19): a 64-joint skeleton, four active jobs per character — walk and run
// cross-fading on track 0, a masked upper-body clip on track 1, an additive clip — for 1,000
// characters through one layered SampleManyJob call per frame with model-space output (weighted
// rule, slerp). Units: joints posed per second. Contenders: both wasm builds; `reference` (the
// plain-TypeScript twins: referenceSample × 4, referenceBlend, referenceLocalToModel per
// character); `threejs-25` (three.js AnimationMixer with the same four actions, 25 characters, its
// best case, plus updateMatrixWorld); `sample-4-clips-simd` (the four clips sampled alone, four
// SampleManyJob calls without blending or matrices: the "sample-uniform × 4" yardstick).
import * as THREE from 'three';
import { AnimResource, referenceBlend, referenceLocalToModel, referenceSample, SampleManyJob, Skeleton, bindJoints } from '../../dist/index.js';
import { makeRigClip, makeRigSkeleton, makeThreeRig, toThreeClip } from '../clips.mjs';

const JOINTS = 64;
const CHARACTERS = 1000;
const THREE_CHARACTERS = 25;
// The plain-TypeScript reference poses 25 characters per run too (1,000 take over a second a run).
const REFERENCE_CHARACTERS = 25;
const FRAME = 1 / 60;
const LAYERS = 4;

export default function blendLayers({ cores }) {
  const clips = [1, 2, 3, 4].map((seed, i) => makeRigClip({ joints: JOINTS, seed, name: ['walk', 'run', 'wave', 'breathe'][i] }));
  const skeleton = makeRigSkeleton(Skeleton, JOINTS);
  const resource = new AnimResource({ format: 'bench', clips, skeleton });
  const n = clips[0].curves.length;
  // Upper body: the second half of the joints (3 curves per joint).
  const mask = Float32Array.from({ length: n }, (_, c) => (Math.floor(c / 3) >= JOINTS / 2 ? 1 : 0));
  const layers = [{ clip: clips[0] }, { clip: clips[1] }, { clip: clips[2], mask }, { clip: clips[3], mode: 'additive' }];
  const blend = { rule: 'weighted', rotation: 'slerp', threshold: 1 };
  const times = new Float64Array(LAYERS * CHARACTERS);
  const weights = new Float32Array(LAYERS * CHARACTERS);
  const advance = (frame) => {
    const fade = (frame % 120) / 120; // walk → run, over and over
    for (let i = 0; i < CHARACTERS; i++) {
      for (let l = 0; l < LAYERS; l++) times[LAYERS * i + l] = frame * FRAME + i * 0.0137 + l * 0.1;
      weights.set([1 - fade, fade, 0.8, 0.5], LAYERS * i);
    }
  };
  const contenders = {};
  for (const [name, core] of Object.entries(cores)) {
    core.load(resource);
    const job = new SampleManyJob(core, { clip: clips[0], layers, blend, instances: CHARACTERS, output: 'model', skeleton, rotation: 'slerp' });
    let frame = 0;
    contenders[name] = () => {
      advance(frame++);
      job.run(times, weights);
    };
  }
  {
    const core = cores['animcore-simd'];
    const jobs = clips.map((clip) => new SampleManyJob(core, { clip, instances: CHARACTERS, rotation: 'slerp' }));
    const t = new Float64Array(CHARACTERS);
    let frame = 0;
    contenders['sample-4-clips-simd'] = () => {
      advance(frame++);
      jobs.forEach((job, l) => {
        for (let i = 0; i < CHARACTERS; i++) t[i] = times[LAYERS * i + l];
        job.run(t);
      });
    };
  }
  {
    const arrays = () => ({ samples: new Float32Array(4 * n), counts: new Uint8Array(n) });
    const sampled = clips.map(arrays);
    const reference = arrays();
    referenceSample(clips[3], 0, reference, { rotation: 'slerp' });
    const out = arrays();
    const matrices = new Float32Array(16 * JOINTS);
    const binding = bindJoints(clips[0].curves, skeleton);
    const rest = new Float32Array(4 * n);
    let frame = 0;
    contenders.reference = () => {
      advance(frame++);
      for (let i = 0; i < REFERENCE_CHARACTERS; i++) {
        clips.forEach((clip, l) => referenceSample(clip, times[LAYERS * i + l], sampled[l], { rotation: 'slerp' }));
        referenceBlend(clips[0].curves.map((c) => c.curveType), rest, layers.map((l, k) => ({ ...l, samples: sampled[k], weight: weights[LAYERS * i + k], reference })), out, blend);
        referenceLocalToModel(out, binding, matrices);
      }
    };
  }
  {
    const threeClips = clips.map((clip) => toThreeClip(THREE, clip));
    THREE.AnimationUtils.makeClipAdditive(threeClips[3]);
    // three.js masks by leaving tracks out: the upper-body clip keeps the upper joints' tracks.
    threeClips[2].tracks = threeClips[2].tracks.filter((t) => Number(t.name.slice(1, t.name.indexOf('.'))) >= JOINTS / 2);
    const characters = Array.from({ length: THREE_CHARACTERS }, (_, i) => {
      const root = makeThreeRig(THREE, JOINTS);
      const mixer = new THREE.AnimationMixer(root);
      const actions = threeClips.map((c, l) => {
        const a = mixer.clipAction(c);
        if (l === 3) a.blendMode = THREE.AdditiveAnimationBlendMode;
        a.setEffectiveWeight([1, 0, 0.8, 0.5][l]).play();
        return a;
      });
      mixer.setTime(i * 0.0137);
      return { root, mixer, actions };
    });
    let frame = 0;
    contenders['threejs-25'] = () => {
      const fade = (frame++ % 120) / 120;
      for (const c of characters) {
        c.actions[0].setEffectiveWeight(1 - fade);
        c.actions[1].setEffectiveWeight(fade);
        c.mixer.update(FRAME);
        c.root.updateMatrixWorld(true);
      }
    };
  }
  // Units per run differ by contender (three.js and the reference pose 25 characters): each reports joints per run.
  return [{ name: 'blend-layers', unitsPerRun: JOINTS * CHARACTERS, unitsPerRunOf: { 'threejs-25': JOINTS * THREE_CHARACTERS, reference: JOINTS * REFERENCE_CHARACTERS }, unit: 'joints posed/s', contenders }];
}
