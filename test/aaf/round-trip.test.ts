import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { AAF_ANIMATION_VARIANTS } from '../../src/formats/aaf/animation.js';
import { aafHeader } from '../../src/formats/aaf/header.js';
import { aafText } from '../../src/formats/aaf/text.js';
import { readAafAnimation } from '../../src/formats/aaf/read-animation.js';
import { readAafScene } from '../../src/formats/aaf/read-scene.js';
import { AAF_SCENE_VARIANTS, sceneVariantLabel } from '../../src/formats/aaf/scene.js';
import { writeAafAnimation } from '../../src/formats/aaf/write-animation.js';
import { writeAafScene } from '../../src/formats/aaf/write-scene.js';
import { arbitraryAnimation, arbitraryScene } from '../helpers/random-aaf.js';

describe.each(AAF_ANIMATION_VARIANTS)('AAF animation, %s variant', (variant) => {
  it('reads back what it wrote and writes the same bytes again', () => {
    fc.assert(
      fc.property(arbitraryAnimation(variant), (doc) => {
        const bytes = writeAafAnimation({ ...doc, variant });
        const read = readAafAnimation(bytes, { variant });
        expect(read.variant).toBe(variant);
        expect({ header: read.header, animLength: read.animLength, objects: read.objects }).toEqual(doc);
        expect(writeAafAnimation(read)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('detection picks the written variant, or an earlier one that reads the same bytes (reported)', () => {
    fc.assert(
      fc.property(arbitraryAnimation(variant), (doc) => {
        const bytes = writeAafAnimation({ ...doc, variant });
        const read = readAafAnimation(bytes);
        if (read.variant !== variant) {
          expect(AAF_ANIMATION_VARIANTS.indexOf(read.variant)).toBeLessThan(AAF_ANIMATION_VARIANTS.indexOf(variant));
          expect(read.alsoMatches).toContain(variant);
        }
        expect(writeAafAnimation(read)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });
});

describe.each(AAF_SCENE_VARIANTS.map((v) => [sceneVariantLabel(v), v] as const))('AAF scene, %s variant', (_label, variant) => {
  it('reads back what it wrote and writes the same bytes again', () => {
    fc.assert(
      fc.property(arbitraryScene, (doc) => {
        const bytes = writeAafScene({ ...doc, variant });
        const read = readAafScene(bytes, { variant });
        expect(read.variant).toEqual(variant);
        expect({ header: read.header, objects: read.objects }).toEqual(doc);
        expect(writeAafScene(read)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('detection picks the written variant, or an earlier one that reads the same bytes (reported)', () => {
    fc.assert(
      fc.property(arbitraryScene, (doc) => {
        const bytes = writeAafScene({ ...doc, variant });
        const read = readAafScene(bytes);
        if (sceneVariantLabel(read.variant) !== sceneVariantLabel(variant)) {
          expect(read.alsoMatches).toContainEqual(variant);
        }
        expect(writeAafScene(read)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });
});

describe('AAF scene trees', () => {
  it('reads and writes a 20 000-deep chain without recursion', () => {
    const objects = Array.from({ length: 20_000 }, (_, i) => ({
      name: aafText(`j${i}`),
      parent: i - 1,
      position: [0, 1, 0] as const,
      rotation: [0, 0, 0, 1] as const,
      scale: [1, 1, 1] as const,
      surfaces: [],
    }));
    const bytes = writeAafScene({ header: aafHeader(aafText('')), objects });
    const read = readAafScene(bytes);
    expect(read.objects).toHaveLength(20_000);
    expect(read.objects[19_999]!.parent).toBe(19_998);
  });
});

describe('AAF writers refuse what the format cannot hold', () => {
  const header = aafHeader(aafText(''));
  const keys = (times: number[]) => ({ times: Float32Array.from(times), values: new Float32Array(3 * times.length) });
  const obj = (parent: number) => ({ name: aafText(''), parent, position: [0, 0, 0] as const, rotation: [0, 0, 0, 1] as const, scale: [1, 1, 1] as const, surfaces: [] });

  it('animations: flags and channels disagree, unknown bits, decreasing times, unequal shared counts, long names', () => {
    const write = (o: object, variant?: 'shared-count') => () => writeAafAnimation({ header, animLength: 0, objects: [o as never], ...(variant ? { variant } : {}) });
    expect(write({ name: aafText('a'), flags: 2 })).toThrow(UsageError);
    expect(write({ name: aafText('a'), flags: 0, scale: keys([0]) })).toThrow(UsageError);
    expect(write({ name: aafText('a'), flags: 16 })).toThrow(UsageError);
    expect(write({ name: aafText('a'), flags: 2, position: keys([1, 0]) })).toThrow(UsageError);
    expect(write({ name: aafText('a'), flags: 10, position: keys([0]), scale: keys([0, 1]) }, 'shared-count')).toThrow(UsageError);
    expect(write({ name: aafText('x'.repeat(70_000)), flags: 0 })).toThrow(UsageError);
  });

  it('scenes: objects not in pre-order, indices out of range, partial triangles', () => {
    expect(() => writeAafScene({ header, objects: [obj(-1), obj(-1), obj(0)] })).toThrow(UsageError);
    const surface = (indices: number[]) => [{ ...obj(-1), surfaces: [{ vertices: new Float32Array(27), indices: Uint32Array.from(indices) }] }];
    expect(() => writeAafScene({ header, objects: surface([0, 1, 3]) })).toThrow(UsageError);
    expect(() => writeAafScene({ header, objects: surface([0, 1]) })).toThrow(UsageError);
  });
});
