// blend-layers (issue 19): a 64-joint skeleton, four active jobs per character — walk and run
// cross-fading on track 0, a masked upper-body clip on track 1, an additive clip — for 1,000
// characters through one layered SampleManyJob call per frame with model-space output (weighted
// rule, slerp). Units: joints posed per second. Contenders: both wasm builds; `reference` (the
// plain-TypeScript twins: referenceSample × 4, referenceBlend, referenceLocalToModel per
// character); `threejs-25` (three.js AnimationMixer with the same four actions, 25 characters, its
// best case, plus updateMatrixWorld); `sample-4-clips-simd` (the four clips sampled alone, four
// SampleManyJob calls without blending or matrices: the "sample-uniform × 4" yardstick).
// Two cases: `blend-layers`, the issue's, whose four clips are unrelated random poses (the layers'
// rotations mostly far apart: gaps over 120° are common, where the slerp is at its costliest);
// `blend-layers-related`, the same job on four clips of one character's motion (at their layers'
// times run and wave show the walk two and four keys on, the additive clip is the walk's rotations
// at 15 % of their angle), whose gaps are those of one motion's nearby poses (up to about 40°).
import * as THREE from 'three';
import { AnimClip, AnimResource, referenceBlend, referenceLocalToModel, referenceSample, SampleManyJob, Skeleton, bindJoints } from '../../dist/index.js';
import { makeRigClip, makeRigSkeleton, makeThreeRig, toThreeClip } from '../clips.mjs';

const JOINTS = 64;
const CHARACTERS = 1000;
const THREE_CHARACTERS = 25;
// The plain-TypeScript reference poses 25 characters per run too (1,000 take over a second a run).
const REFERENCE_CHARACTERS = 25;
const FRAME = 1 / 60;
const LAYERS = 4;

export default function blendLayers({ cores }) {
  const unrelated = [1, 2, 3, 4].map((seed, i) => makeRigClip({ joints: JOINTS, seed, name: NAMES[i] }));
  const walk = makeRigClip({ joints: JOINTS, seed: 1, name: 'walk' });
  // Layer l plays 0.1·l s (three keys per layer) after layer 0: run and wave are the walk moved
  // back so that at their layer's time they show the walk's pose two and four keys on.
  const related = [walk, shifted(walk, 2 - 3, 'run'), shifted(walk, 4 - 6, 'wave'), scaledRotations(walk, 0.15, 'breathe')];
  return [blendCase('blend-layers', unrelated, cores), blendCase('blend-layers-related', related, cores)];
}

const NAMES = ['walk', 'run', 'wave', 'breathe'];

/** `clip` with every curve's keys moved on by `keys` (cycling; negative: back): the same motion, shifted in time. */
function shifted(clip, keys, name) {
  const curves = clip.curves.map((c) => {
    const v = c.keys.values;
    const at = (((4 * keys) % v.length) + v.length) % v.length;
    const values = new Float32Array(v.length);
    values.set(v.subarray(at));
    values.set(v.subarray(0, at), v.length - at);
    return { ...c, keys: { ...c.keys, values } };
  });
  return new AnimClip({ name, curves, keyCount: clip.keyCount, keyDuration: clip.keyDuration, preInfinity: 'cycle', postInfinity: 'cycle' });
}

/** `clip` with every rotation key's angle scaled by `factor` (same axis): a small version of the motion. */
function scaledRotations(clip, factor, name) {
  const curves = clip.curves.map((c) => {
    if (c.curveType !== 'rotation') return c;
    const v = c.keys.values;
    const values = new Float32Array(v.length);
    for (let o = 0; o < v.length; o += 4) {
      const s = Math.hypot(v[o], v[o + 1], v[o + 2]);
      const h = Math.atan2(s, v[o + 3]) * factor;
      const k = s > 0 ? Math.sin(h) / s : 0;
      values.set([v[o] * k, v[o + 1] * k, v[o + 2] * k, Math.cos(h)], o);
    }
    return { ...c, keys: { ...c.keys, values } };
  });
  return new AnimClip({ name, curves, keyCount: clip.keyCount, keyDuration: clip.keyDuration, preInfinity: 'cycle', postInfinity: 'cycle' });
}

/** One case: the layered job on `clips` (walk, run, wave, breathe) and its contenders. */
function blendCase(name, clips, cores) {
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
  return { name, unitsPerRun: JOINTS * CHARACTERS, unitsPerRunOf: { 'threejs-25': JOINTS * THREE_CHARACTERS, reference: JOINTS * REFERENCE_CHARACTERS }, unit: 'joints posed/s', contenders };
}
