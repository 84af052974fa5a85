import type { Document } from '@gltf-transform/core';
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, Skeleton } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { openFile } from '../../src/formats/open-file.js';
import { AnimcoreMixer, toThreeAnimationClip, toThreeSkeleton } from '../../src/three/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { recordKernelCalls } from '../helpers/kernel-calls.js';
import { fixtureGlb, parseWithThree } from '../helpers/three-gltf.js';

// AnimcoreMixer against three.js's AnimationMixer: the same script on both, 600 frames at random
// frame times, bone world matrices compared within 1e-4 every frame, and the same events.

/** A 5-joint chain with two uniform clips of different lengths (walk 0.8 s, run 0.6 s). */
function rig(): AnimResource {
  const joints = Array.from({ length: 5 }, (_, j) => ({
    name: `bone${j}`,
    parent: j - 1,
    rest: { translation: [0, 0.5, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], scale: [1, 1, 1] as [number, number, number] },
  }));
  const clip = (name: string, keyCount: number, phase: number): AnimClip => {
    const curves: AnimCurve[] = joints.flatMap((joint, j) => {
      const t = new Float32Array(4 * keyCount);
      const r = new Float32Array(4 * keyCount);
      const s = new Float32Array(4 * keyCount);
      for (let k = 0; k < keyCount; k++) {
        const a = (2 * Math.PI * k) / keyCount + j + phase;
        t.set([0.2 * Math.sin(a), 0.5, 0.1 * Math.cos(a), 0], 4 * k);
        const half = 0.5 * Math.sin(a);
        const axis = [Math.sin(j + phase), Math.cos(j), 0.5];
        const len = Math.hypot(...axis);
        r.set([(Math.sin(half) * axis[0]!) / len, (Math.sin(half) * axis[1]!) / len, (Math.sin(half) * axis[2]!) / len, Math.cos(half)], 4 * k);
        s.set([1 + 0.1 * Math.sin(a), 1, 1 + 0.05 * Math.cos(a), 0], 4 * k);
      }
      const target = (property: string) => ({ joint: joint.name, property });
      return [
        { curveType: 'translation', active: true, target: target('translation'), keys: { encoding: 'uniform', values: t } },
        { curveType: 'rotation', active: true, target: target('rotation'), keys: { encoding: 'uniform', values: r } },
        { curveType: 'scale', active: true, target: target('scale'), keys: { encoding: 'uniform', values: s } },
      ] satisfies AnimCurve[];
    });
    return new AnimClip({ name, curves, keyCount, keyDuration: 1 / 30, preInfinity: 'cycle', postInfinity: 'cycle' });
  };
  return new AnimResource({ format: 'test', clips: [clip('walk', 24, 0), clip('run', 18, 1.3)], skeleton: new Skeleton(joints) });
}

/** The part of an action both mixers' actions have. */
interface Action {
  play(): unknown;
  stop(): unknown;
  reset(): Action;
  fadeIn(d: number): unknown;
  fadeOut(d: number): unknown;
  crossFadeTo(other: never, d: number, warp: boolean): unknown;
  setEffectiveWeight(w: number): unknown;
  setEffectiveTimeScale(t: number): unknown;
  setLoop(mode: THREE.AnimationActionLoopStyles, repetitions: number): unknown;
  clampWhenFinished: boolean;
  blendMode: THREE.AnimationBlendMode;
}

type Script = (frame: number, a: Action, b: Action) => void;
const cross = (from: Action, to: Action, d: number, warp: boolean) => from.crossFadeTo(to as never, d, warp);

const scenarios: [string, Script, { additiveB?: boolean }?][] = [
  ['play', (f, a) => f === 0 && a.play()],
  ['cross-fade without warp', (f, a, b) => {
    if (f === 0) a.play();
    if (f === 120) {
      b.reset().play();
      cross(a, b, 0.6, false);
    }
    if (f === 400) {
      a.reset().play();
      cross(b, a, 0.3, false);
    }
  }],
  ['cross-fade with warp', (f, a, b) => {
    if (f === 0) {
      a.play();
      a.setEffectiveTimeScale(1.3);
    }
    if (f === 100) {
      b.reset().play();
      b.setEffectiveTimeScale(0.8); // restored when the warp ends
      cross(a, b, 0.8, true);
    }
  }],
  ['weights and time scales', (f, a, b) => {
    if (f === 0) {
      a.play();
      b.play();
      a.setEffectiveWeight(0.3);
      b.setEffectiveWeight(0.5);
      b.setEffectiveTimeScale(1.7);
    }
    if (f === 200) a.setEffectiveTimeScale(-0.6);
    if (f === 300) b.setEffectiveWeight(1.4);
    if (f === 450) a.fadeOut(0.4);
  }],
  ['ping-pong', (f, a, b) => {
    if (f === 0) {
      a.setLoop(THREE.LoopPingPong, Infinity);
      a.play();
      b.setLoop(THREE.LoopPingPong, 3);
      b.setEffectiveWeight(0.5);
      b.play();
    }
  }],
  ['LoopOnce with clamp', (f, a, b) => {
    if (f === 0) {
      a.play();
      b.setLoop(THREE.LoopOnce, 1);
      b.clampWhenFinished = true;
      b.play();
      b.fadeIn(0.2);
    }
    if (f === 300) {
      b.stop();
      b.clampWhenFinished = false;
      b.play();
    }
  }],
  ['an additive action over a normal one', (f, a, b) => {
    if (f === 0) {
      a.play();
      b.blendMode = THREE.AdditiveAnimationBlendMode;
      b.setEffectiveWeight(0.6);
      b.play();
    }
    if (f === 250) b.setEffectiveWeight(1);
  }, { additiveB: true }],
];

/** A small fixed PRNG (mulberry32) for the frame times. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function holderOf(skeleton: THREE.Skeleton): THREE.Group {
  const holder = new THREE.Group();
  holder.position.set(1, -2, 0.5);
  for (const b of skeleton.bones) if (!(b.parent instanceof THREE.Bone)) holder.add(b);
  return holder;
}

/** One side of a comparison: a mixer, its two actions, and the world matrices to compare. */
interface Side {
  mixer: { update(dt: number): unknown; addEventListener(type: 'loop' | 'finished', listener: (e: { action: unknown }) => void): void };
  a: Action;
  b: Action;
  /** World matrices after the update, in one order on both sides. */
  matrices(): ArrayLike<number>[];
  /** Effective weight of a and the time of b (three.js's actions and ours have both). */
  weightA(): number;
  timeB(): number;
}

/** The script on both sides for 600 frames at random frame times; matrices within `tol` every frame, the same events. */
function playBoth(theirs: Side, ours: Side, script: Script, seed: number, tol = 1e-4): void {
  const theirEvents: string[] = [];
  const ourEvents: string[] = [];
  for (const type of ['loop', 'finished'] as const) {
    theirs.mixer.addEventListener(type, (e) => theirEvents.push(`${type}:${e.action === theirs.a ? 'a' : 'b'}`));
    ours.mixer.addEventListener(type, (e) => ourEvents.push(`${type}:${e.action === ours.a ? 'a' : 'b'}`));
  }
  const next = random(seed);
  let time = 0;
  for (let frame = 0; frame < 600; frame++) {
    script(frame, theirs.a, theirs.b);
    script(frame, ours.a, ours.b);
    const dt = frame % 97 === 5 ? 0 : 0.05 * next();
    time += dt;
    theirs.mixer.update(dt);
    ours.mixer.update(dt);
    const want = theirs.matrices();
    ours.matrices().forEach((got, j) => {
      for (let k = 0; k < 16; k++) {
        if (!(Math.abs(got[k]! - want[j]![k]!) <= tol * Math.max(1, Math.abs(want[j]![k]!)))) {
          throw new Error(`frame ${frame} (t = ${time}), object ${j}, entry ${k}: animcore ${got[k]} vs three.js ${want[j]![k]}`);
        }
      }
    });
    expect(ours.weightA()).toBeCloseTo(theirs.weightA(), 12);
    expect(ours.timeB()).toBeCloseTo(theirs.timeB(), 9);
  }
  expect(ourEvents).toEqual(theirEvents);
}

function runScenario(core: AnimCore, resource: AnimResource, clips: [string, string], script: Script, additiveB: boolean, seed: number): void {
  const skeleton = resource.skeleton!;
  const [clipA, clipB] = clips.map((c) => resource.clip(c)) as [AnimClip, AnimClip];
  const threeSkeleton = toThreeSkeleton(skeleton);
  const threeHolder = holderOf(threeSkeleton);
  const threeMixer = new THREE.AnimationMixer(threeHolder);
  const threeClipB = toThreeAnimationClip(clipB, skeleton);
  if (additiveB) THREE.AnimationUtils.makeClipAdditive(threeClipB);
  const ta = threeMixer.clipAction(toThreeAnimationClip(clipA, skeleton));
  const tb = threeMixer.clipAction(threeClipB);

  const ours = toThreeSkeleton(skeleton);
  const ourHolder = holderOf(ours);
  const mixer = new AnimcoreMixer(core, { resource, target: ours });
  const oa = mixer.clipAction(clipA);
  const ob = mixer.clipAction(clipB);
  const worlds = (holder: THREE.Group, bones: THREE.Bone[]) => () => {
    holder.updateMatrixWorld(true);
    return bones.map((b) => b.matrixWorld.elements);
  };
  try {
    playBoth(
      { mixer: threeMixer, a: ta as unknown as Action, b: tb as unknown as Action, matrices: worlds(threeHolder, threeSkeleton.bones), weightA: () => ta.getEffectiveWeight(), timeB: () => tb.time },
      { mixer, a: oa as unknown as Action, b: ob as unknown as Action, matrices: worlds(ourHolder, ours.bones), weightA: () => oa.getEffectiveWeight(), timeB: () => ob.time },
      script,
      seed,
    );
  } finally {
    mixer.dispose();
  }
}

/**
 * The same scenario on a glTF file: three.js's GLTFLoader scene under its own AnimationMixer
 * (its interpolants, STEP and CUBICSPLINE included) against AnimcoreMixer over `openGltf` of the
 * same bytes, driving a skeleton of every node; each node's world matrix compared.
 */
async function runGltfScenario(core: AnimCore, glb: Uint8Array, animations: [number, number], script: Script, additiveB: boolean, seed: number, tol: number): Promise<void> {
  const gltf = await parseWithThree(glb);
  const nodeObjects: THREE.Object3D[] = [];
  for (const [object, association] of gltf.parser.associations) {
    const nodes = (association as { nodes?: number } | undefined)?.nodes;
    if (object instanceof THREE.Object3D && nodes !== undefined) nodeObjects[nodes] = object;
  }
  const threeMixer = new THREE.AnimationMixer(gltf.scene);
  const [clipA, clipB] = animations.map((a) => gltf.animations[a]!) as [THREE.AnimationClip, THREE.AnimationClip];
  if (additiveB) THREE.AnimationUtils.makeClipAdditive(clipB);
  const ta = threeMixer.clipAction(clipA);
  const tb = threeMixer.clipAction(clipB);

  const resource = await openGltf({ gltf: glb });
  const bones = toThreeSkeleton(resource.skeleton!);
  const mixer = new AnimcoreMixer(core, { resource, target: bones });
  const oa = mixer.clipAction(animations[0]);
  const ob = mixer.clipAction(animations[1]);
  expect(nodeObjects.length).toBe(bones.bones.length);
  try {
    playBoth(
      {
        mixer: threeMixer,
        a: ta as unknown as Action,
        b: tb as unknown as Action,
        matrices: () => {
          gltf.scene.updateMatrixWorld(true);
          return nodeObjects.map((o) => o.matrixWorld.elements);
        },
        weightA: () => ta.getEffectiveWeight(),
        timeB: () => tb.time,
      },
      { mixer, a: oa as unknown as Action, b: ob as unknown as Action, matrices: () => bones.bones.map((b) => b.matrixWorld.elements), weightA: () => oa.getEffectiveWeight(), timeB: () => ob.time },
      script,
      seed,
      tol,
    );
  } finally {
    mixer.dispose();
    resource.dispose();
  }
}

/**
 * A copy of animation 0 as a second animation, 0.7 × as long and starting 0.05 s later (the same
 * output values on new key times): a second clip to cross-fade with on one-animation files.
 */
function withSecondAnimation(document: Document): void {
  const first = document.getRoot().listAnimations()[0]!;
  const second = document.createAnimation('second');
  for (const channel of first.listChannels()) {
    const source = channel.getSampler()!;
    const input = source.getInput()!;
    const times = Float32Array.from(input.getArray()! as Float32Array, (t) => 0.05 + 0.7 * t);
    const sampler = document
      .createAnimationSampler()
      .setInput(document.createAccessor().setType('SCALAR').setArray(times).setBuffer(input.getBuffer()))
      // Its own copy of the values: GLTFLoader shares one array per accessor, and three.js's
      // makeClipAdditive rewrites the additive clip's values in place.
      .setOutput(source.getOutput()!.clone().setArray(source.getOutput()!.getArray()!.slice()))
      .setInterpolation(source.getInterpolation());
    second.addSampler(sampler).addChannel(document.createAnimationChannel().setSampler(sampler).setTargetNode(channel.getTargetNode()).setTargetPath(channel.getTargetPath()!));
  }
}

describe.each(BUILDS)('AnimcoreMixer equals three.js AnimationMixer (%s build)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  scenarios.forEach(([name, script, opts], i) => {
    it(`rig: ${name}`, () => runScenario(core, rig(), ['walk', 'run'], script, opts?.additiveB === true, 1000 + i));
  });

  it('update is one call into WebAssembly: every action sampled, blended and composed', () => {
    const resource = rig();
    const mixer = new AnimcoreMixer(core, { resource, target: toThreeSkeleton(resource.skeleton!) });
    const walk = mixer.clipAction('walk').play();
    const run = mixer.clipAction('run');
    run.blendMode = THREE.AdditiveAnimationBlendMode;
    run.play();
    walk.fadeOut(0.5);
    mixer.update(0.01); // the actions' buffers and additive reference
    const recorder = recordKernelCalls(core);
    try {
      for (let frame = 0; frame < 40; frame++) {
        recorder.calls.length = 0;
        mixer.update(1 / 60);
        expect(recorder.calls).toEqual(['blend']);
      }
    } finally {
      recorder.restore();
      mixer.dispose();
    }
  });

  it.runIf(haveFixtures('nebula'))('Nebula Footman: cross-fade with warp, then an additive charge', async () => {
    const resource = (await openFile(fixturePath('nebula', 'Unit_Footman.nax3'), { companions: { skeleton: fixturePath('nebula', 'Unit_Footman.constants') } })).resource;
    runScenario(core, resource, ['walk', 'charge'], scenarios[2]![1], false, 7);
    runScenario(core, resource, ['walk', 'taunt'], scenarios[6]![1], true, 8);
  });

  // glTF fixtures: each one-animation file against a copy of its animation on other key times;
  // InterpolationTest across its interpolations (STEP → CUBICSPLINE rotation, LINEAR → CUBICSPLINE
  // translation, CUBICSPLINE → STEP scale). SimpleSkin's keys are off unit length (PROVENANCE.md):
  // three.js renormalises only in its lerp branch, so matrices there differ by up to ~3.3e-4.
  const gltfCases: { file: string; animations: [number, number]; tol?: number }[] = [
    { file: 'CesiumMan.glb', animations: [0, 1] },
    { file: 'RiggedSimple.glb', animations: [0, 1] },
    { file: 'BoxAnimated.glb', animations: [0, 1] },
    { file: 'SimpleSkin.gltf', animations: [0, 1], tol: 5e-4 },
    { file: 'InterpolationTest.glb', animations: [3, 4] },
    { file: 'InterpolationTest.glb', animations: [8, 7] },
    { file: 'InterpolationTest.glb', animations: [2, 0] },
  ];
  for (const c of gltfCases) {
    it.runIf(haveFixtures('gltf'))(`glTF ${c.file}, animations ${c.animations.join(' and ')}: every scenario`, async () => {
      const glb = await fixtureGlb(c.file, c.animations[1] === 1 && !c.file.startsWith('Interpolation') ? withSecondAnimation : undefined);
      for (const [i, [name, script, opts]] of scenarios.entries()) {
        try {
          await runGltfScenario(core, glb, c.animations, script, opts?.additiveB === true, 2000 + i, c.tol ?? 1e-4);
        } catch (e) {
          throw new Error(`${name}: ${(e as Error).message}`);
        }
      }
    });
  }
});
