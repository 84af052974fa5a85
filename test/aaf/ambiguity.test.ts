import { describe, expect, it } from 'vitest';
import type { AafAnimationInit } from '../../src/formats/aaf/animation.js';
import { aafHeader } from '../../src/formats/aaf/header.js';
import { readAafAnimation } from '../../src/formats/aaf/read-animation.js';
import { readAafScene } from '../../src/formats/aaf/read-scene.js';
import type { AafSceneInit } from '../../src/formats/aaf/scene.js';
import { aafText } from '../../src/formats/aaf/text.js';
import { writeAafAnimation } from '../../src/formats/aaf/write-animation.js';
import { writeAafScene } from '../../src/formats/aaf/write-scene.js';

const header = aafHeader(aafText('ambiguous'));
const keys = (n: number, size: number) => ({ times: Float32Array.from({ length: n }, (_, k) => k), values: new Float32Array(size * n) });

// Some byte streams fit more than one layout (spec aaf.md §2.1, §3.1). The reader takes the first
// variant in order that consumes the file exactly and lists the others in `alsoMatches`; the
// content read is the same either way, so the choice does not change what is sampled.
describe('AAF ambiguous inputs', () => {
  it('an animation whose objects have at most one channel is per-channel and shared-count at once', () => {
    const doc: AafAnimationInit = {
      header,
      animLength: 10,
      objects: [
        { name: aafText('a'), flags: 4, rotation: keys(3, 4) },
        { name: aafText('b'), flags: 0 },
      ],
    };
    const bytes = writeAafAnimation({ ...doc, variant: 'shared-count' });
    expect(bytes).toEqual(writeAafAnimation(doc));
    const read = readAafAnimation(bytes);
    expect(read.variant).toBe('per-channel');
    expect(read.alsoMatches).toEqual(['shared-count']);
    expect(readAafAnimation(bytes, { variant: 'shared-count' }).objects).toEqual(read.objects);
  });

  it('an animation without objects (or with flags 0 only) fits all three variants', () => {
    for (const objects of [[], [{ name: aafText('still'), flags: 0 }]]) {
      const read = readAafAnimation(writeAafAnimation({ header, animLength: 0, objects }));
      expect(read.variant).toBe('per-channel');
      expect(read.alsoMatches).toEqual(['controller', 'shared-count']);
    }
  });

  it('two channels with different key counts are not ambiguous: only per-channel fits', () => {
    const bytes = writeAafAnimation({ header, animLength: 1, objects: [{ name: aafText('a'), flags: 6, position: keys(2, 3), rotation: keys(5, 4) }] });
    const read = readAafAnimation(bytes);
    expect([read.variant, read.alsoMatches]).toEqual(['per-channel', []]);
  });

  it('a scene whose roots have no children reads the same with root or total object counts', () => {
    const flat: AafSceneInit = {
      header,
      objects: ['a', 'b'].map((n) => ({ name: aafText(n), parent: -1, position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], surfaces: [] })),
    };
    const read = readAafScene(writeAafScene({ ...flat, variant: { objectCount: 'total', indexCount: 'indices' } }));
    expect(read.variant).toEqual({ objectCount: 'roots', indexCount: 'indices' });
    expect(read.alsoMatches).toEqual([
      { objectCount: 'total', indexCount: 'indices' },
      { objectCount: 'roots', indexCount: 'triangles' },
      { objectCount: 'total', indexCount: 'triangles' },
    ]);
  });

  it('a tree with children tells root from total counts; index from triangle counts when a surface has triangles', () => {
    const tree: AafSceneInit = {
      header,
      objects: [
        { name: aafText('root'), parent: -1, position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], surfaces: [] },
        {
          name: aafText('child'),
          parent: 0,
          position: [0, 1, 0],
          rotation: [0, 0, 0, 1],
          scale: [1, 1, 1],
          surfaces: [{ vertices: new Float32Array(27), indices: Uint32Array.of(0, 1, 2) }],
        },
      ],
    };
    for (const variant of [
      { objectCount: 'roots', indexCount: 'indices' },
      { objectCount: 'total', indexCount: 'indices' },
      { objectCount: 'roots', indexCount: 'triangles' },
      { objectCount: 'total', indexCount: 'triangles' },
    ] as const) {
      const read = readAafScene(writeAafScene({ ...tree, variant }));
      expect([read.variant, read.alsoMatches]).toEqual([variant, []]);
    }
  });
});
