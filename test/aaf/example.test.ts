import { describe, expect, it } from 'vitest';
import { makeTeapotMan } from '../../src/formats/aaf/teapot-man.js';
import { openAafScene } from '../../src/formats/aaf/open.js';
import { readAafAnimation } from '../../src/formats/aaf/read-animation.js';
import { readAafScene } from '../../src/formats/aaf/read-scene.js';

describe('the teapot man example', () => {
  // test/examples.test.ts checks that the committed files equal a fresh generation.
  const made = makeTeapotMan();

  it('reads back in the default variants, unambiguously, and binds every animated object', () => {
    const scene = readAafScene(made.scene);
    const animation = readAafAnimation(made.animation);
    expect(scene.variant).toEqual({ objectCount: 'roots', indexCount: 'indices' });
    expect(animation.variant).toBe('per-channel');
    expect(animation.alsoMatches).toEqual([]);
    expect(scene.objects.map((o) => o.name.text)).toEqual([
      'torso', 'head', 'upperArm.L', 'forearm.L', 'wrist.L', 'upperArm.R', 'forearm.R', 'wrist.R',
      'thigh.L', 'shin.L', 'foot.L', 'thigh.R', 'shin.R', 'foot.R',
    ]);
    const resource = openAafScene({ scene: made.scene, animation: made.animation });
    expect(resource.warnings).toEqual([]);
    expect(resource.skeleton!.size).toBe(14);
    expect(resource.meshes).toHaveLength(14);
    expect(resource.meshes.every((m) => m.indices.length === 36 && m.positions.length === 72)).toBe(true);
    expect(resource.info.binding).toMatchObject({ bound: 13, unanimated: ['forearm.R'], unmatchedAnimationObjects: [] });
    const clip = resource.clip(0);
    expect(clip.duration).toBeCloseTo(40 / 30, 6);
    expect(clip.curves).toHaveLength(3 * 14);
  });
});
