// writeNax3 and nax3FromResource (spec nebula.md §2.2): byte-exact round trips, big-endian output,
// nax2 → nax3 conversion keeping the keys, and UsageErrors for what nax3 cannot store.
import { describe, expect, it } from 'vitest';
import { haveFixtures, readFixture, readFixtureText } from '../helpers/fixtures.js';
import { UsageError } from '../../src/errors.js';
import { AnimClip, AnimResource, staticKeys } from '../../src/anim/index.js';
import {
  nax2ToResource,
  nax3FromResource,
  nax3ToResource,
  readNanim2,
  readNax2,
  readNax3,
  writeNax3,
} from '../../src/formats/nebula/index.js';
import { clipContent } from './helpers.js';

const have = haveFixtures('nebula');

describe.skipIf(!have)('writeNax3 with the fixtures', () => {
  it('rewrites Unit_Footman.nax3 byte for byte (garbage after the name NULs included)', () => {
    const bytes = readFixture('nebula', 'Unit_Footman.nax3');
    const out = writeNax3(readNax3(bytes));
    expect(out.length).toBe(bytes.length);
    expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
  });

  it('big-endian output reads back to the same document and rewrites to the original LE bytes', () => {
    const bytes = readFixture('nebula', 'Unit_Footman.nax3');
    const be = writeNax3(readNax3(bytes), { littleEndian: false });
    expect(Buffer.from(be.subarray(0, 12)).toString('hex')).toBe('4e413031' + '00000008' + '0000579c');
    const doc = readNax3(be);
    expect(doc.byteOrder).toBe('big');
    expect(Buffer.from(writeNax3(doc)).equals(Buffer.from(be))).toBe(true);
    expect(Buffer.from(writeNax3(doc, { littleEndian: true })).equals(Buffer.from(bytes))).toBe(true);
  });

  it('a renamed clip is written NUL-padded instead of the raw field', () => {
    const doc = readNax3(readFixture('nebula', 'Unit_Footman.nax3'));
    doc.clips[0]!.name = 'stroll';
    const back = readNax3(writeNax3(doc));
    expect(back.clips[0]!.name).toBe('stroll');
    expect(Array.from(back.clips[0]!.nameBytes!.subarray(6))).toEqual(new Array(44).fill(0));
    expect(back.clips[1]!.nameBytes).toEqual(doc.clips[1]!.nameBytes);
  });

  it('nax3FromResource re-packs Footman into the same key pool and clip fields', () => {
    const doc = readNax3(readFixture('nebula', 'Unit_Footman.nax3'));
    const rebuilt = readNax3(writeNax3(nax3FromResource(nax3ToResource(doc))));
    expect(rebuilt.pool).toEqual(doc.pool);
    // The model sorts events by time (death lists keyIndex 55 before 0), so compare them sorted.
    const strip = (d: typeof doc): unknown =>
      d.clips.map(({ nameBytes: _n, events, ...rest }) => ({
        ...rest,
        events: events.map(({ name, category, keyIndex }) => ({ name, category, keyIndex })).sort((a, b) => a.keyIndex - b.keyIndex),
      }));
    expect(strip(rebuilt)).toEqual(strip(doc));
    expect(clipContent(nax3ToResource(rebuilt))).toEqual(clipContent(nax3ToResource(doc)));
  });

  const NAX2 = ['bouncingball.nax2', 'eagle.nax2', 'kila_layoutA.nax2', 'kila_layoutB.nax2'];
  for (const file of NAX2) {
    it(`${file} → nax3 → back keeps every key, flag and timing`, () => {
      const original = nax2ToResource(readNax2(readFixture('nebula', file)));
      const doc = nax3FromResource(original);
      expect(doc.clips.every((c) => c.curves.every((curve, i) => curve.curveType === [0, 2, 1][i % 3]))).toBe(true);
      const back = nax3ToResource(readNax3(writeNax3(doc)));
      expect(clipContent(back)).toEqual(clipContent(original));
    });
  }

  it('eagle.nanim2 → big-endian nax3 → back keeps the keys', () => {
    const original = nax2ToResource(readNanim2(readFixtureText('nebula', 'eagle.nanim2')));
    const doc = nax3FromResource(original.clips, { byteOrder: 'big' });
    const bytes = writeNax3(doc);
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('NA01');
    expect(clipContent(nax3ToResource(readNax3(bytes)))).toEqual(clipContent(original));
  });
});

describe('nax3FromResource', () => {
  const uniform = (n: number, base: number) => ({ encoding: 'uniform' as const, values: Float32Array.from({ length: 4 * n }, (_, i) => base + i) });
  const clip = (over: Partial<ConstructorParameters<typeof AnimClip>[0]> = {}): AnimClip =>
    new AnimClip({
      name: 'c',
      keyCount: 3,
      keyDuration: 0.05,
      preInfinity: 'cycle',
      postInfinity: 'cycle',
      curves: [
        { curveType: 'translation', target: { joint: 'a', property: 'translation' }, active: true, keys: uniform(3, 0) },
        { curveType: 'rotation', target: { joint: 'a', property: 'rotation' }, active: true, keys: staticKeys(0, 0, 0, 1) },
        { curveType: 'color', target: { joint: null, property: 'color' }, active: false, keys: uniform(3, 100) },
      ],
      events: [{ name: 'step', category: 'sound', time: 0.1 }],
      ...over,
    });

  it('lays keys out key-major over the non-static curves and stores static curves static', () => {
    const doc = nax3FromResource([clip()]);
    const c = doc.clips[0]!;
    expect([c.keyStride, c.numKeys, c.keyDuration, c.preInfinityType, c.postInfinityType]).toEqual([2, 3, 50, 1, 1]);
    expect(c.curves.map((x) => [x.firstKeyIndex, x.isStatic, x.isActive, x.curveType])).toEqual([
      [0, 0, 1, 0],
      [0, 1, 1, 2],
      [1, 0, 0, 3],
    ]);
    expect(c.events).toMatchObject([{ name: 'step', category: 'sound', keyIndex: 2 }]);
    expect(Array.from(doc.pool.subarray(0, 8))).toEqual([0, 1, 2, 3, 100, 101, 102, 103]);
    expect(doc.keyDataOffset).toBe(12 + 64 + 64 + 3 * 24);
    const back = nax3ToResource(readNax3(writeNax3(doc)));
    expect(back.clips[0]!.events).toEqual([{ name: 'step', category: 'sound', time: 0.1 }]);
    expect(back.clips[0]!.curves[2]!.target).toEqual({ joint: null, property: 'color' });
    expect(clipContent(back)[0]).toMatchObject({ keyCount: 3, keyDuration: 0.05, pre: 'cycle' });
  });

  it('refuses what nax3 cannot store', () => {
    expect(() => nax3FromResource([clip({ keyDuration: 0.0405 })])).toThrow(UsageError);
    expect(() => nax3FromResource([clip({ keyDuration: 70 })])).toThrow(UsageError);
    expect(() => nax3FromResource([clip({ name: 'x'.repeat(50) })])).toThrow(UsageError);
    expect(() => nax3FromResource([clip({ events: [{ name: 'e', category: '', time: 0.07 }] })])).toThrow(UsageError);
    expect(() =>
      nax3FromResource([clip({ curves: [{ curveType: 'bool', target: { joint: null, property: 'f' }, active: true, keys: staticKeys(1, 0, 0, 0) }] })]),
    ).toThrow(UsageError);
    expect(() => nax3FromResource(new AnimResource({ format: 'x', clips: [clip({ name: 'ü€' })] }))).toThrow(UsageError);
  });

  it('writeNax3 refuses inconsistent documents', () => {
    const doc = nax3FromResource([clip()]);
    expect(() => writeNax3({ ...doc, numKeys: doc.numKeys + 1 })).toThrow(UsageError);
    const badIndex = nax3FromResource([clip()]);
    badIndex.clips[0]!.curves[0]!.firstKeyIndex = 5;
    expect(() => writeNax3(badIndex)).toThrow(UsageError);
    const badType = nax3FromResource([clip()]);
    badType.clips[0]!.curves[0]!.curveType = 300;
    expect(() => writeNax3(badType)).toThrow(UsageError);
  });
});
