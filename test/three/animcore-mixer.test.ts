import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, Skeleton } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { openFile } from '../../src/formats/open-file.js';
import { AnimcoreMixer, toThreeAnimationClip, toThreeSkeleton } from '../../src/three/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { recordKernelCalls } from '../helpers/kernel-calls.js';

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

  const threeEvents: string[] = [];
  const ourEvents: string[] = [];
  const name = (action: unknown) => (action === ta || action === oa ? 'a' : 'b');
  for (const type of ['loop', 'finished'] as const) {
    threeMixer.addEventListener(type, (e) => threeEvents.push(`${type}:${name(e.action)}`));
    mixer.addEventListener(type, (e) => ourEvents.push(`${type}:${name(e.action)}`));
  }
  const next = random(seed);
  try {
    for (let frame = 0; frame < 600; frame++) {
      script(frame, ta as unknown as Action, tb as unknown as Action);
      script(frame, oa as unknown as Action, ob as unknown as Action);
      const dt = frame % 97 === 5 ? 0 : 0.05 * next();
      threeMixer.update(dt);
      threeHolder.updateMatrixWorld(true);
      mixer.update(dt);
      ourHolder.updateMatrixWorld(true);
      threeSkeleton.bones.forEach((bone, j) => {
        const want = bone.matrixWorld.elements;
        const got = ours.bones[j]!.matrixWorld.elements;
        for (let k = 0; k < 16; k++) {
          if (!(Math.abs(got[k]! - want[k]!) <= 1e-4 * Math.max(1, Math.abs(want[k]!)))) {
            throw new Error(`frame ${frame} (t = ${threeMixer.time}), bone ${j}, entry ${k}: animcore ${got[k]} vs three.js ${want[k]}`);
          }
        }
      });
      expect(oa.getEffectiveWeight()).toBeCloseTo(ta.getEffectiveWeight(), 12);
      expect(ob.time).toBeCloseTo(tb.time, 9);
    }
    expect(ourEvents).toEqual(threeEvents);
  } finally {
    mixer.dispose();
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
});
