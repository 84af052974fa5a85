import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import type { AafAnimationObject } from '../../src/formats/aaf/animation.js';
import { aafHeader } from '../../src/formats/aaf/header.js';
import { openAafScene } from '../../src/formats/aaf/open.js';
import { readAafAnimation } from '../../src/formats/aaf/read-animation.js';
import { readAafScene } from '../../src/formats/aaf/read-scene.js';
import type { AafSceneObject } from '../../src/formats/aaf/scene.js';
import { aafText, decodeAafText } from '../../src/formats/aaf/text.js';
import { aafAnimationToResource } from '../../src/formats/aaf/to-resource.js';
import { writeAafAnimation } from '../../src/formats/aaf/write-animation.js';
import { writeAafScene } from '../../src/formats/aaf/write-scene.js';

const header = aafHeader(aafText(''));
const sceneObject = (name: string, parent: number, y: number): AafSceneObject => ({
  name: aafText(name),
  parent,
  position: [0, y, 0],
  rotation: [0, 0, 0, 1],
  scale: [2, 2, 2],
  surfaces: [],
});
const moving = (name: string, x: number): AafAnimationObject => ({
  name: aafText(name),
  flags: 2,
  position: { times: Float32Array.of(0, 30), values: Float32Array.of(x, 0, 0, x + 1, 0, 0) },
});

describe('AAF into the model', () => {
  it('decodes names as UTF-8 when valid, else windows-1251, keeping the raw bytes', () => {
    const utf8 = decodeAafText(new TextEncoder().encode('голова'));
    expect(utf8).toMatchObject({ text: 'голова', encoding: 'utf-8' });
    const cp1251 = Uint8Array.of(0xe3, 0xee, 0xeb, 0xee, 0xe2, 0xe0); // "голова" in windows-1251
    expect(decodeAafText(cp1251)).toEqual({ text: 'голова', raw: cp1251, encoding: 'windows-1251' });
    const bytes = writeAafAnimation({ header, animLength: 0, objects: [{ name: decodeAafText(cp1251), flags: 0 }] });
    const read = readAafAnimation(bytes);
    expect(read.objects[0]!.name.raw).toEqual(cp1251);
    expect(writeAafAnimation(read)).toEqual(bytes);
  });

  it('converts times with the fps / timeUnit options (default frames at 30 fps) and keeps raw values', () => {
    const anim = readAafAnimation(writeAafAnimation({ header, animLength: 60, objects: [moving('a', 0)] }));
    const times = (options = {}) => {
      const clip = aafAnimationToResource(anim, options).clip(0);
      const keys = clip.curves[0]!.keys;
      return [clip.duration, keys.encoding === 'keyed' ? [...keys.times] : []];
    };
    expect(times()).toEqual([2, [0, 1]]);
    expect(times({ fps: 60 })).toEqual([1, [0, 0.5]]);
    expect(times({ timeUnit: 'seconds' })).toEqual([60, [0, 30]]);
    expect(times({ timeUnit: 'milliseconds' })).toEqual([0.06, [0, Math.fround(0.03)]]);
    expect(aafAnimationToResource(anim).clip(0).metadata).toEqual({ animLength: 60, secondsPerUnit: 1 / 30 });
    expect(anim.objects[0]!.position!.times).toEqual(Float32Array.of(0, 30));
    expect(() => aafAnimationToResource(anim, { fps: 0 })).toThrow(UsageError);
    expect(() => aafAnimationToResource(anim, { fps: 24, timeUnit: 'seconds' })).toThrow(UsageError);
  });

  it('an animation alone: three curves per object, absent channels static identity', () => {
    const resource = aafAnimationToResource(readAafAnimation(writeAafAnimation({ header, animLength: 30, objects: [moving('a', 5)] })));
    const curves = resource.clip(0).curves;
    expect(curves.map((c) => [c.target.joint, c.target.property, c.keys.encoding])).toEqual([
      ['a', 'translation', 'keyed'],
      ['a', 'rotation', 'static'],
      ['a', 'scale', 'static'],
    ]);
    expect(curves[1]!.keys).toEqual({ encoding: 'static', value: Float32Array.of(0, 0, 0, 1) });
    expect(curves[2]!.keys).toEqual({ encoding: 'static', value: Float32Array.of(1, 1, 1, 0) });
    expect(resource.info).toMatchObject({ variant: 'per-channel', animLength: 30, objectCount: 1, formatName: 'ABTOMATAAF', version: 2 });
  });

  it('binds by name: unmatched animation objects and duplicate names on either side are reported', () => {
    const scene = writeAafScene({
      header,
      objects: [sceneObject('root', -1, 1), sceneObject('arm', 0, 2), sceneObject('arm', 0, 3), sceneObject('leg', 0, 4)],
    });
    const animation = writeAafAnimation({
      header,
      animLength: 30,
      objects: [moving('arm', 10), moving('ghost', 0), moving('arm', 20)],
    });
    const resource = openAafScene({ scene, animation });
    expect(resource.skeleton!.joints.map((j) => [j.name, j.parent])).toEqual([
      ['root', -1],
      ['arm', 0],
      ['arm', 0],
      ['leg', 0],
    ]);
    expect(resource.info.binding).toEqual({
      bound: 1,
      unanimated: ['root', 'arm', 'leg'],
      unmatchedAnimationObjects: ['ghost'],
      duplicateSceneNames: ['arm'],
      duplicateAnimationNames: ['arm'],
    });
    expect(resource.warnings).toHaveLength(3);
    expect(resource.warnings.join('\n')).toMatch(/"ghost".*no scene object/);
    const curves = resource.clip(0).curves;
    expect(curves).toHaveLength(12);
    // The first "arm" in pre-order is bound to the first "arm" of the animation ...
    expect(curves[3]!.keys).toEqual({ encoding: 'keyed', times: Float32Array.of(0, 1), values: Float32Array.of(10, 0, 0, 0, 11, 0, 0, 0) });
    // ... the second keeps its rest pose from the scene, as does every unanimated channel.
    expect(curves[6]!.keys).toEqual({ encoding: 'static', value: Float32Array.of(0, 3, 0, 0) });
    expect(curves[5]!.keys).toEqual({ encoding: 'static', value: Float32Array.of(2, 2, 2, 0) });
  });

  it('a scene becomes a Skeleton with rest poses and one mesh per surface (positions, uvw, normals split)', () => {
    const vertices = Float32Array.from({ length: 27 }, (_, i) => i);
    const scene = readAafScene(
      writeAafScene({ header, objects: [{ ...sceneObject('a', -1, 1), surfaces: [{ vertices, indices: Uint32Array.of(2, 1, 0) }] }] }),
    );
    const resource = openAafScene({ scene });
    expect(resource.skeleton!.joints[0]!.rest).toEqual({ translation: [0, 1, 0], rotation: [0, 0, 0, 1], scale: [2, 2, 2] });
    expect(resource.meshes).toEqual([
      {
        name: 'a',
        joint: 0,
        positions: Float32Array.of(0, 1, 2, 9, 10, 11, 18, 19, 20),
        uvs: Float32Array.of(3, 4, 5, 12, 13, 14, 21, 22, 23),
        normals: Float32Array.of(6, 7, 8, 15, 16, 17, 24, 25, 26),
        uvSize: 3,
        indices: Uint32Array.of(2, 1, 0),
      },
    ]);
    expect(resource.clip(0).name).toBe('rest');
    expect(resource.warnings).toEqual([]);
  });

  it('a flagged channel without keys keeps its rest value and is reported', () => {
    const anim = readAafAnimation(
      writeAafAnimation({ header, animLength: 1, objects: [{ name: aafText('a'), flags: 8, scale: { times: new Float32Array(0), values: new Float32Array(0) } }] }),
    );
    const resource = aafAnimationToResource(anim);
    expect(resource.clip(0).curves[2]!.keys.encoding).toBe('static');
    expect(resource.warnings).toEqual([expect.stringContaining('no keys')]);
  });
});
