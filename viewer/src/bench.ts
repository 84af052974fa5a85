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

const JOINTS = 64;
const INSTANCES = 1000;
const FRAME = 1 / 60;
const quick = new URLSearchParams(location.search).has('quick');
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 150 : 600;

interface Rate {
  median: number;
  spread: number;
}

const medianOf = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Joint samples per second of `frame` (which animates `instances` characters) over ROUNDS rounds of
 * ROUND_MS each (after a warm-up round).
 */
function measure(frame: () => void, instances = INSTANCES): Rate {
  const rates: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    let frames = 0;
    const start = performance.now();
    let now = start;
    while (now - start < ROUND_MS) {
      frame();
      frames++;
      now = performance.now();
    }
    if (round >= 0) rates.push((frames * JOINTS * instances * 1000) / (now - start));
  }
  const median = medianOf(rates);
  return { median, spread: medianOf(rates.map((r) => Math.abs(r - median))) / median };
}

async function run(): Promise<Record<string, Rate>> {
  const clip = makeRigClip({ joints: JOINTS, seed: 1, name: 'rig' });
  const skeleton = makeRigSkeleton(Skeleton, JOINTS);
  const resource = new AnimResource({ format: 'bench', clips: [clip], skeleton });
  const times = Float64Array.from({ length: INSTANCES }, (_, i) => i * 0.0137);
  const results: Record<string, Rate> = {};
  for (const build of ['simd', 'scalar'] as const) {
    const core = await AnimCore.create({ build });
    core.load(resource);
    const job = core.createSampleMany({ clip, instances: INSTANCES, output: 'skinning', skeleton });
    results[`animcore-${build}`] = measure(() => {
      for (let i = 0; i < INSTANCES; i++) times[i]! += FRAME;
      job.run(times);
    });
    job.dispose();
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
      mixer.setTime(times[i]!);
      return { mixer, root, skeleton: s };
    });
    results[name] = measure(() => {
      for (const c of characters) {
        c.mixer.update(FRAME);
        c.root.updateMatrixWorld(true);
        c.skeleton.update();
      }
    }, count);
  }
  return results;
}

run().then(
  (results) => {
    (window as unknown as { __bench: Record<string, Rate> }).__bench = results;
    document.getElementById('out')!.textContent = JSON.stringify(results, null, 2);
  },
  (e: unknown) => {
    (window as unknown as { __benchError: string }).__benchError = String(e);
  },
);
