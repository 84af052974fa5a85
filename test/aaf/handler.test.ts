import { describe, expect, it } from 'vitest';
import { aafAnimationHandler, aafSceneHandler } from '../../src/formats/aaf/handler.js';
import { makeTeapotMan } from '../../src/formats/aaf/teapot-man.js';
import type { OpenInput } from '../../src/formats/handler.js';
import { findHandler } from '../../src/formats/registry.js';

const example = makeTeapotMan();

function input(path: string, bytes: Uint8Array, folder: Record<string, Uint8Array> = {}, companions: Record<string, Uint8Array> = {}): OpenInput {
  return {
    path,
    bytes,
    sibling: (name) => Object.entries(folder).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
    companions,
  };
}

describe('AAF format handlers', () => {
  it('detect by content, not by name', () => {
    expect(findHandler(example.scene, 'x.bin').id).toBe('aaf-scene');
    expect(findHandler(example.animation, 'x.scene.aaf').id).toBe('aaf-animation');
    expect(aafSceneHandler.detect(example.animation, 'a.aaf')).toBe(false);
    expect(aafAnimationHandler.detect(example.scene, 'a.aaf')).toBe(false);
    expect(aafSceneHandler.detect(example.scene.subarray(0, 100), 'a.aaf')).toBe(false);
    expect(aafAnimationHandler.detect(new Uint8Array(3), 'a.aaf')).toBe(false);
  });

  it('a scene finds its animation next to it or as a companion; either file works alone', () => {
    const folder = { 'Teapot-Man.ANIM.aaf': example.animation };
    const withSibling = aafSceneHandler.open(input('examples/aaf/teapot-man.scene.aaf', example.scene, folder));
    expect(withSibling.clip(0).name).toBe('animation');
    expect(withSibling.info.binding).toMatchObject({ bound: 13 });
    const withCompanion = aafSceneHandler.open(input('s.aaf', example.scene, {}, { animation: example.animation }));
    expect(withCompanion.info.binding).toMatchObject({ bound: 13 });
    const alone = aafSceneHandler.open(input('teapot-man.scene.aaf', example.scene));
    expect(alone.clip(0).name).toBe('rest');
    expect(alone.skeleton!.size).toBe(14);
  });

  it('an animation finds its scene next to it or as a companion, else reads alone', () => {
    const bound = aafAnimationHandler.open(input('dir/teapot-man.anim.aaf', example.animation, { 'teapot-man.scene.aaf': example.scene }));
    expect(bound.format).toBe('aaf-scene');
    expect(bound.skeleton!.size).toBe(14);
    const viaCompanion = aafAnimationHandler.open(input('a.aaf', example.animation, {}, { scene: example.scene }));
    expect(viaCompanion.meshes).toHaveLength(14);
    const alone = aafAnimationHandler.open(input('teapot-man.anim.aaf', example.animation));
    expect(alone.format).toBe('aaf-animation');
    expect(alone.skeleton).toBeNull();
    expect(alone.clip(0).curves).toHaveLength(3 * 13);
  });
});
