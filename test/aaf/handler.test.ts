import { describe, expect, it } from 'vitest';
import { aafHandler } from '../../src/formats/aaf/handler.js';
import { makeTeapotMan } from '../../src/formats/aaf/teapot-man.js';
import { openFileSet, openFormatFile } from '../../src/formats/open-files.js';
import { detectFormat } from '../../src/formats/registry.js';

const example = makeTeapotMan();

/** A folder of named files for `openFormatFile`. */
function folder(files: Record<string, Uint8Array>) {
  return { names: () => Object.keys(files), read: (name: string) => files[name]! };
}

describe('AAF format handler', () => {
  it('detects both kinds by content, not by name, and hands the document to open', () => {
    expect(detectFormat(example.scene, 'x.bin')?.handler.id).toBe('aaf');
    expect(aafHandler.detect(example.scene, 'x.anim.aaf')).toMatchObject({ parsed: { kind: 'scene' }, rank: 1 });
    expect(aafHandler.detect(example.animation, 'x.scene.aaf')).toMatchObject({ parsed: { kind: 'animation' }, rank: 0 });
    expect(aafHandler.detect(example.scene.subarray(0, 100), 'a.aaf')).toBeNull();
    expect(aafHandler.detect(new Uint8Array(3), 'a.aaf')).toBeNull();
  });

  it('a scene finds its animation next to it or as a companion; either file works alone', async () => {
    const withSibling = await openFormatFile({ name: 'examples/aaf/teapot-man.scene.aaf', bytes: example.scene }, { folder: folder({ 'Teapot-Man.ANIM.aaf': example.animation }) });
    expect(withSibling.resource.clip(0).name).toBe('animation');
    expect(withSibling.resource.info.binding).toMatchObject({ bound: 13 });
    expect(withSibling.companions).toEqual([{ role: 'animation', file: 'Teapot-Man.ANIM.aaf', how: 'name' }]);
    const withCompanion = await openFormatFile({ name: 's.aaf', bytes: example.scene }, { companions: { animation: { file: 'a', bytes: example.animation } } });
    expect(withCompanion.resource.info.binding).toMatchObject({ bound: 13 });
    const alone = await openFormatFile({ name: 'teapot-man.scene.aaf', bytes: example.scene });
    expect(alone.resource.clip(0).name).toBe('rest');
    expect(alone.resource.skeleton!.size).toBe(14);
  });

  it('an animation finds its scene next to it or as a companion, else reads alone', async () => {
    const bound = await openFormatFile({ name: 'dir/teapot-man.anim.aaf', bytes: example.animation }, { folder: folder({ 'teapot-man.scene.aaf': example.scene }) });
    expect(bound.resource.format).toBe('aaf-scene');
    expect(bound.resource.skeleton!.size).toBe(14);
    const viaCompanion = await openFormatFile({ name: 'a.aaf', bytes: example.animation }, { companions: { scene: { file: 's', bytes: example.scene } } });
    expect(viaCompanion.resource.meshes).toHaveLength(14);
    const alone = await openFormatFile({ name: 'teapot-man.anim.aaf', bytes: example.animation });
    expect(alone.resource.format).toBe('aaf-animation');
    expect(alone.resource.skeleton).toBeNull();
    expect(alone.resource.clip(0).curves).toHaveLength(3 * 13);
  });

  it('of a scene and its animation given together, the scene opens the set and the animation is its companion', async () => {
    for (const files of [
      [{ name: 'w.anim.aaf', bytes: example.animation }, { name: 'w.scene.aaf', bytes: example.scene }],
      [{ name: 'w.scene.aaf', bytes: example.scene }, { name: 'w.anim.aaf', bytes: example.animation }],
    ]) {
      const set = await openFileSet(files);
      expect(set.main).toBe('w.scene.aaf');
      expect(set.resource.info.binding).toMatchObject({ bound: 13 });
      expect(set.ignored).toEqual([]);
    }
  });

  it('--format aaf on bytes of neither kind names where each reading stopped', async () => {
    await expect(openFormatFile({ name: 'x.aaf', bytes: example.scene.subarray(0, 40) }, { format: 'aaf' })).rejects.toThrow(/neither an AAF scene nor an AAF animation; read as an (scene|animation): /);
  });
});
