// The scripted scenarios of AnimcoreMixer against three.js's AnimationMixer (issue 19): the same
// script on both, 600 frames at random frame times, world matrices compared every frame, the same
// events. Shared by test/three/animcore-mixer.test.ts (Node) and test/browser/three-mixer.test.ts
// (Chromium, where this module is bundled with the built package), so it uses no test runner.
import * as THREE from 'three';
import type { AnimCore } from '../../src/core/index.js';
import type { openGltf } from '../../src/formats/gltf/index.js';
import type { AnimcoreMixer, toThreeSkeleton } from '../../src/three/index.js';
import { parseWithThree } from '../helpers/parse-with-three.js';

/** What the glTF scenarios take from animcore. */
export interface MixerLibrary {
  openGltf: typeof openGltf;
  AnimcoreMixer: typeof AnimcoreMixer;
  toThreeSkeleton: typeof toThreeSkeleton;
}

/** Throws unless |a − b| < 10^−digits / 2 (vitest's toBeCloseTo). */
function closeTo(what: string, a: number, b: number, digits: number): void {
  if (!(Math.abs(a - b) < 10 ** -digits / 2)) throw new Error(`${what}: animcore ${a} vs three.js ${b}`);
}

/** The part of an action both mixers' actions have. */
export interface Action {
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

export type Script = (frame: number, a: Action, b: Action) => void;
const cross = (from: Action, to: Action, d: number, warp: boolean) => from.crossFadeTo(to as never, d, warp);

export const scenarios: [string, Script, { additiveB?: boolean }?][] = [
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
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One side of a comparison: a mixer, its two actions, and the world matrices to compare. */
export interface Side {
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
export function playBoth(theirs: Side, ours: Side, script: Script, seed: number, tol = 1e-4): void {
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
    closeTo(`frame ${frame}: effective weight of a`, ours.weightA(), theirs.weightA(), 12);
    closeTo(`frame ${frame}: time of b`, ours.timeB(), theirs.timeB(), 9);
  }
  if (ourEvents.join() !== theirEvents.join()) throw new Error(`events: animcore ${ourEvents.join(' ')} vs three.js ${theirEvents.join(' ')}`);
}

/**
 * The same scenario on a glTF file: three.js's GLTFLoader scene under its own AnimationMixer
 * (its interpolants, STEP and CUBICSPLINE included) against AnimcoreMixer over `openGltf` of the
 * same bytes, driving a skeleton of every node; each node's world matrix compared. `lib` is
 * animcore as the caller has it (the sources in Node, the built package in Chromium).
 */
export async function runGltfScenario(lib: MixerLibrary, core: AnimCore, glb: Uint8Array, animations: [number, number], script: Script, additiveB: boolean, seed: number, tol: number): Promise<void> {
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

  const resource = await lib.openGltf({ gltf: glb });
  const bones = lib.toThreeSkeleton(resource.skeleton!);
  const mixer = new lib.AnimcoreMixer(core, { resource, target: bones });
  const oa = mixer.clipAction(animations[0]);
  const ob = mixer.clipAction(animations[1]);
  if (nodeObjects.length !== bones.bones.length) throw new Error(`three.js made ${nodeObjects.length} node objects, animcore ${bones.bones.length} bones`);
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

/** A glTF fixture and the two animations its scenarios play. */
export interface GltfCase {
  file: string;
  animations: [number, number];
  /** Animation 1 is a copy of animation 0 on other key times (`withSecondAnimation`): one-animation files. */
  second?: boolean;
  /** Matrix tolerance (default 1e-4). */
  tol?: number;
}

// glTF fixtures: each one-animation file against a copy of its animation on other key times;
// InterpolationTest across its interpolations (STEP → CUBICSPLINE rotation, LINEAR → CUBICSPLINE
// translation, CUBICSPLINE → STEP scale). SimpleSkin's keys are off unit length (PROVENANCE.md):
// three.js renormalises only in its lerp branch, so matrices there differ by up to ~3.3e-4.
export const GLTF_CASES: GltfCase[] = [
  { file: 'CesiumMan.glb', animations: [0, 1], second: true },
  { file: 'RiggedSimple.glb', animations: [0, 1], second: true },
  { file: 'BoxAnimated.glb', animations: [0, 1], second: true },
  { file: 'SimpleSkin.gltf', animations: [0, 1], second: true, tol: 5e-4 },
  { file: 'InterpolationTest.glb', animations: [3, 4] },
  { file: 'InterpolationTest.glb', animations: [8, 7] },
  { file: 'InterpolationTest.glb', animations: [2, 0] },
];

/** Every scenario on one glTF case (its seeds fixed); throws naming the scenario that differs. */
export async function runGltfScenarios(lib: MixerLibrary, core: AnimCore, glb: Uint8Array, c: GltfCase): Promise<void> {
  for (const [i, [name, script, opts]] of scenarios.entries()) {
    try {
      await runGltfScenario(lib, core, glb, c.animations, script, opts?.additiveB === true, 2000 + i, c.tol ?? 1e-4);
    } catch (e) {
      throw new Error(`${name}: ${(e as Error).message}`);
    }
  }
}
