// browser-sample-many (issue 8): in one page of headless Chromium, 1,000 instances of the 64-joint
// bench rig per frame with skinning matrices, for animcore's SIMD and scalar builds (one
// SampleManyJob call per frame) and three.js (an AnimationMixer per instance, then
// updateMatrixWorld and skeleton.update(); `threejs-25`: 25 characters, its best case). Results: joint samples per second, the median of the
// rounds and their spread (median absolute deviation / median), on `window.__bench` as
// { "<contender>": { median, spread } } (`?quick` for short rounds).
import { AnimCore, AnimResource, Skeleton } from 'animcore';
import { toThreeAnimationClip, toThreeSkeleton } from 'animcore/three';
import * as THREE from 'three';
import { makeRigClip, makeRigSkeleton } from '../../bench/clips.mjs';
import { type Frame, measureEach, publish, type Rate } from './bench-rate.js';

const JOINTS = 64;
const INSTANCES = 1000;
const FRAME = 1 / 60;

async function run(): Promise<Record<string, Rate>> {
  const clip = makeRigClip({ joints: JOINTS, seed: 1, name: 'rig' });
  const skeleton = makeRigSkeleton(Skeleton, JOINTS);
  const resource = new AnimResource({ format: 'bench', clips: [clip], skeleton });
  const frames: Record<string, Frame> = {};
  const jobs = [];
  for (const build of ['simd', 'scalar'] as const) {
    const core = await AnimCore.create({ build });
    core.load(resource);
    const job = core.createSampleMany({ clip, instances: INSTANCES, output: 'skinning', skeleton });
    const times = Float64Array.from({ length: INSTANCES }, (_, i) => i * 0.0137);
    frames[`animcore-${build}`] = [
      () => {
        for (let i = 0; i < INSTANCES; i++) times[i]! += FRAME;
        job.run(times);
      },
      INSTANCES * JOINTS,
    ];
    jobs.push(job);
  }
  // three.js: an AnimationMixer per character; also at 25 characters, its best case (issue 16).
  const threeClip = toThreeAnimationClip(clip, skeleton);
  for (const [name, count] of [['threejs', INSTANCES], ['threejs-25', 25]] as const) {
    const characters = Array.from({ length: count }, (_, i) => {
      const s = toThreeSkeleton(skeleton);
      const root = new THREE.Group();
      for (const b of s.bones) if (!(b.parent instanceof THREE.Bone)) root.add(b);
      const mixer = new THREE.AnimationMixer(root);
      mixer.clipAction(threeClip).play();
      mixer.setTime(i * 0.0137);
      return { mixer, root, skeleton: s };
    });
    frames[name] = [
      () => {
        for (const c of characters) {
          c.mixer.update(FRAME);
          c.root.updateMatrixWorld(true);
          c.skeleton.update();
        }
      },
      count * JOINTS,
    ];
  }
  const results = measureEach(frames);
  for (const job of jobs) job.dispose();
  return results;
}

publish(run());
