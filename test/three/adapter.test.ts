import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, Skeleton } from '../../src/anim/index.js';
import { openAafScene } from '../../src/formats/aaf/open.js';
import { openMrtk } from '../../src/formats/mrtk/open.js';
import type { AnimCore } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { InstancedBoneTexture, SkeletonPlayer, toThreeAnimationClip, toThreeSkeleton, UNITY_BAKE_RATE } from '../../src/three/index.js';
import { BUILDS, createCore } from '../helpers/core.js';

const examples = join(import.meta.dirname, '..', '..', 'examples');

/** A 6-joint chain, T/R/S uniform curves at 30 keys/s, rotation keys with q → −q flips. */
function rig(post: 'cycle' | 'constant'): AnimResource {
  const keyCount = 20;
  const joints = Array.from({ length: 6 }, (_, j) => ({
    name: `bone${j}`,
    parent: j - 1,
    rest: { translation: [0, 0.5, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], scale: [1, 1, 1] as [number, number, number] },
  }));
  const curves: AnimCurve[] = joints.flatMap((joint, j) => {
    const t = new Float32Array(4 * keyCount);
    const r = new Float32Array(4 * keyCount);
    const s = new Float32Array(4 * keyCount);
    for (let k = 0; k < keyCount; k++) {
      const a = (2 * Math.PI * k) / keyCount + j;
      t.set([0.2 * Math.sin(a), 0.5, 0.1 * Math.cos(a), 0], 4 * k);
      const half = 0.6 * Math.sin(a);
      const sign = k % 5 === 2 ? -1 : 1;
      const axis = [Math.sin(j), Math.cos(j), 0.5];
      const len = Math.hypot(...axis);
      r.set([(sign * Math.sin(half) * axis[0]!) / len, (sign * Math.sin(half) * axis[1]!) / len, (sign * Math.sin(half) * axis[2]!) / len, sign * Math.cos(half)], 4 * k);
      s.set([1 + 0.1 * Math.sin(a), 1, 1, 0], 4 * k);
    }
    const target = (property: string) => ({ joint: joint.name, property });
    return [
      { curveType: 'translation', active: true, target: target('translation'), keys: { encoding: 'uniform', values: t } },
      { curveType: 'rotation', active: true, target: target('rotation'), keys: { encoding: 'uniform', values: r } },
      { curveType: 'scale', active: j !== 3, target: target('scale'), keys: { encoding: 'uniform', values: s } },
    ] satisfies AnimCurve[];
  });
  const clip = new AnimClip({ name: 'rig', curves, keyCount, keyDuration: 1 / 30, preInfinity: 'cycle', postInfinity: post });
  return new AnimResource({ format: 'test', clips: [clip], skeleton: new Skeleton(joints) });
}

function expectMatricesClose(a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-4): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!(Math.abs(a[i]! - b[i]!) <= tol * Math.max(1, Math.abs(b[i]!)))) throw new Error(`entry ${i}: animcore ${a[i]} vs three.js ${b[i]}`);
  }
}

const sources: [string, () => AnimResource][] = [
  ['uniform rig, cycling', () => rig('cycle')],
  ['uniform rig, constant post-infinity', () => rig('constant')],
  ['AAF teapot-man (keyed)', () => openAafScene({ scene: readFileSync(join(examples, 'aaf', 'teapot-man.scene.aaf')), animation: readFileSync(join(examples, 'aaf', 'teapot-man.anim.aaf')) })],
];

describe.each(BUILDS)('three.js adapter, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it.each(sources)('%s: SkeletonPlayer and InstancedBoneTexture equal three.js playing toThreeAnimationClip within 1e-4', (_, open) => {
    const resource = open();
    const skeleton = resource.skeleton!;
    const clip = resource.clips[0]!;
    core.load(resource);

    // three.js's own mixer on one skeleton.
    const threeSkeleton = toThreeSkeleton(skeleton);
    const holder = new THREE.Group();
    holder.position.set(1, 2, 3);
    for (const b of threeSkeleton.bones) if (!(b.parent instanceof THREE.Bone)) holder.add(b);
    const mixer = new THREE.AnimationMixer(holder);
    mixer.clipAction(toThreeAnimationClip(clip, skeleton)).play();

    // animcore driving a second copy.
    const driven = toThreeSkeleton(skeleton);
    const drivenHolder = new THREE.Group();
    drivenHolder.position.set(1, 2, 3);
    for (const b of driven.bones) if (!(b.parent instanceof THREE.Bone)) drivenHolder.add(b);
    const player = new SkeletonPlayer(core, { clip, skeleton, target: driven });
    const inverses = threeSkeleton.boneInverses.flatMap((m) => m.elements);
    const texture = new InstancedBoneTexture(core, { clip, skeleton, instances: 3, inverseBindMatrices: inverses, rotation: 'slerp' });

    for (const time of [0, 0.013, 0.25, 0.5, clip.duration * 0.77, clip.duration * 0.999]) {
      mixer.setTime(time);
      holder.updateMatrixWorld(true);
      threeSkeleton.update();
      player.update(time);
      drivenHolder.updateMatrixWorld(true);
      driven.update();
      expectMatricesClose(driven.boneMatrices!, threeSkeleton.boneMatrices!);
      texture.update([time, time + 0.1, time]);
      const data = texture.texture.image.data as Float32Array;
      const n = 16 * skeleton.size;
      // The texture's matrices are skinning matrices without the holder's transform.
      const holderInverse = holder.matrixWorld.clone().invert();
      const expected = threeSkeleton.bones.flatMap((b, j) =>
        holderInverse.clone().multiply(b.matrixWorld).multiply(threeSkeleton.boneInverses[j]!).elements,
      );
      expectMatricesClose(data.subarray(0, n), expected);
      expectMatricesClose(data.subarray(2 * n, 3 * n), expected);
    }
    player.dispose();
    texture.dispose();
    resource.dispose();
  });

  it('names tracks after joints and keeps the clip duration', () => {
    const resource = rig('cycle');
    const clip = toThreeAnimationClip(resource.clips[0]!, resource.skeleton!);
    expect(clip.duration).toBeCloseTo(resource.clips[0]!.duration, 6);
    expect(clip.tracks.map((t) => t.name)).toContain('bone0.quaternion');
    expect(clip.tracks.map((t) => t.name)).not.toContain('bone3.scale'); // inactive curve
    expect(clip.validate()).toBe(true);
  });

  it("bakes Unity-curve clips (MRTK) with the core's resampler: three.js equals the core at the baked key times", () => {
    const resource = openMrtk({ recording: new Uint8Array(readFileSync(join(examples, 'mrtk', 'hand-wave.bin'))) });
    const clip = resource.clips[0]!;
    const names = [...new Set(clip.curves.map((c) => c.target.joint).filter((j): j is string => j !== null))];
    const skeleton = new Skeleton(names.map((name) => ({ name, parent: -1, rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })));
    expect(() => toThreeAnimationClip(clip, skeleton)).toThrow(UsageError);
    core.load(resource);
    const bones = toThreeSkeleton(skeleton);
    const root = new THREE.Group();
    for (const b of bones.bones) root.add(b);
    const mixer = new THREE.AnimationMixer(root);
    // Played once and clamped, so that the last key time is the end, not the start of a loop.
    const action = mixer.clipAction(toThreeAnimationClip(clip, skeleton, core)).setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    const buffer = core.createSampleBuffer(clip);
    const tracked = clip.curves.flatMap((c, i) => (c.active && c.target.joint !== null && ['translation', 'rotation'].includes(c.target.property) ? [i] : []));
    expect(tracked.length).toBeGreaterThan(0);
    for (const k of [0, 1, 7, Math.floor(clip.duration * UNITY_BAKE_RATE)]) {
      const time = k / UNITY_BAKE_RATE;
      mixer.setTime(time);
      core.sampler.sample(clip, time, buffer);
      for (const i of tracked) {
        const c = clip.curves[i]!;
        const bone = bones.bones[names.indexOf(c.target.joint!)]!;
        const got = c.target.property === 'rotation' ? bone.quaternion.toArray() : [...bone.position.toArray(), 0];
        const want = buffer.sampleOf(i);
        const sign = c.target.property === 'rotation' && got[3]! * want[3] + got[0]! * want[0] + got[1]! * want[1] + got[2]! * want[2] < 0 ? -1 : 1;
        for (let d = 0; d < (c.target.property === 'rotation' ? 4 : 3); d++) expect(sign * got[d]!).toBeCloseTo(want[d]!, 4);
      }
    }
    buffer.dispose();
    resource.dispose();
  });
});
