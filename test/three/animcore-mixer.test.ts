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
import { fixtureGlb, withSecondAnimation } from '../helpers/three-gltf.js';
import { type Action, GLTF_CASES, playBoth, runGltfScenarios, type Script, scenarios } from './mixer-scenarios.js';

// AnimcoreMixer against three.js's AnimationMixer: the same script on both, 600 frames at random
// frame times, bone world matrices compared within 1e-4 every frame, and the same events
// (mixer-scenarios.ts; test/browser/three-mixer.test.ts runs the glTF ones in Chromium).

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

  for (const c of GLTF_CASES) {
    it.runIf(haveFixtures('gltf'))(`glTF ${c.file}, animations ${c.animations.join(' and ')}: every scenario`, async () => {
      const glb = await fixtureGlb(c.file, c.second ? withSecondAnimation : undefined);
      await runGltfScenarios({ openGltf, AnimcoreMixer, toThreeSkeleton }, core, glb, c);
    });
  }
});
