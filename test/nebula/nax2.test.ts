// .nax2 reading (spec nebula.md §1): layouts A/B/C and their detection by the size equation,
// the kila layout-B ipol swap, skeleton-named clips and joints, pool addressing, and refusals.
import { describe, expect, it } from 'vitest';
import { haveFixtures, readFixture, readFixtureText } from '../helpers/fixtures.js';
import {
  nax2ToResource,
  openNebula,
  readN2Skeleton,
  readNax2,
} from '../../src/formats/nebula/index.js';
import { buildNax2, clipContent, expectClose, formatErrorOf } from './helpers.js';

const have = haveFixtures('nebula');

describe.skipIf(!have)('nax2 fixtures', () => {
  it('bouncingball: layout A, collapsed rotation, keys gathered from pool[first + k·stride]', () => {
    const doc = readNax2(readFixture('nebula', 'bouncingball.nax2'));
    expect(doc.layout).toBe('A');
    expect(doc.metadataSize).toBe(0);
    const group = doc.groups[1]!;
    expect(group.curves.map((c) => c.firstKeyIndex)).toEqual([50, -1, 51]);
    expect(group.curves.map((c) => c.isAnimated)).toEqual([null, null, null]);
    expect(group.source).toEqual({ offset: 36 });
    expect(doc.groups[0]!.curves[0]!.source).toEqual({ offset: 60 });
    const res = nax2ToResource(doc);
    const clip = res.clips[1]!;
    expect(clip.curves.map((c) => c.curveType)).toEqual(['translation', 'rotation', 'scale']);
    expect(clip.curves.map((c) => c.target)).toEqual([
      { joint: 'joint0', property: 'translation' },
      { joint: 'joint0', property: 'rotation' },
      { joint: 'joint0', property: 'scale' },
    ]);
    expect(clip.curves.every((c) => c.active)).toBe(true);
    expect(clip.curves[1]!.keys).toEqual({ encoding: 'static', value: Float32Array.of(0, 0, 0, 1) });
    const s = clip.curves[2]!.keys;
    expect(s.encoding).toBe('uniform');
    if (s.encoding !== 'uniform') return;
    expect(s.values.length).toBe(4 * 25);
    for (let k = 0; k < 25; k++) expect(s.values.subarray(4 * k, 4 * k + 4)).toEqual(doc.pool.subarray(4 * (51 + 2 * k), 4 * (51 + 2 * k) + 4));
    expect(res.warnings).toEqual([]);
    expect(res.info).toEqual({ layout: 'A', numGroups: 2, numKeys: 100, keyDataOffset: 192, metadataSize: 0, byteOrder: 'little' });
    expect(clip.metadata['keyTime']).toBe(Math.fround(0.04));
    expect(clip.keyDuration).toBe(0.04);
  });

  it('kila layout B warns once about the swapped ipolTypes and gives the same clips as layout A', () => {
    const a = nax2ToResource(readNax2(readFixture('nebula', 'kila_layoutA.nax2')));
    const bDoc = readNax2(readFixture('nebula', 'kila_layoutB.nax2'));
    const b = nax2ToResource(bDoc);
    expect(bDoc.layout).toBe('B');
    expect(bDoc.groups[0]!.fadeInFrames).toBe(0);
    expect(bDoc.groups[0]!.curves.every((c) => c.isAnimated === 1)).toBe(true);
    expect(a.warnings).toEqual([]);
    expect(b.warnings).toHaveLength(1);
    expect(b.warnings[0]).toMatch(/ipolType contradicts/);
    expect(b.warnings[0]).toMatch(/160 translation\/scale curves tagged Quat\(2\)/);
    expect(b.warnings[0]).toMatch(/80 rotation curves tagged Linear\(3\)/);
    expect(clipContent(b)).toEqual(clipContent(a));
    expect(b.clips[0]!.name).toBe(a.clips[0]!.name);
  });

  it('kila with kila.n2: clip "one", joint names, and joint 1 collapsed translation = .setjoint 1 (spec §5)', () => {
    const res = openNebula({ animation: readFixture('nebula', 'kila_layoutA.nax2'), skeleton: readFixtureText('nebula', 'kila.n2') });
    expect(res.warnings).toEqual([]);
    expect(res.skeleton?.size).toBe(80);
    const clip = res.clip('one');
    expect(clip.curves[3]!.target).toEqual({ joint: 'Kila_Walk:LowerSpine', property: 'translation' });
    const keys = clip.curves[3]!.keys;
    expect(keys.encoding).toBe('static');
    if (keys.encoding === 'static') expectClose(keys.value.subarray(0, 3), res.skeleton!.joints[1]!.rest.translation, 1e-5);
  });

  it('eagle with eagle.n2: the old state syntax names the groups (fliegen, gleiten)', () => {
    const skeleton = readN2Skeleton(readFixtureText('nebula', 'eagle.n2'));
    const res = nax2ToResource(readNax2(readFixture('nebula', 'eagle.nax2')), skeleton);
    expect(res.clips.map((c) => c.name)).toEqual(['fliegen', 'gleiten']);
    expect(res.clips[0]!.curves[0]!.target.joint).toBe('spine_01');
    expect(res.clips[0]!.curves[236]!.target).toEqual({ joint: 'zeh_02_R|joint35', property: 'scale' });
    expect(res.warnings).toEqual([]);
  });

  it('warns when the skeleton joint count does not match the curves', () => {
    const res = openNebula({ animation: readFixture('nebula', 'bouncingball.nax2'), skeleton: readFixtureText('nebula', 'kila.n2') });
    expect(res.warnings.some((w) => /80 joints but group 0 has 3 curves/.test(w))).toBe(true);
    expect(res.clips[0]!.name).toBe('one');
    expect(res.clips[1]!.name).toBe('clip1');
  });

  it('a file with one byte too many fits no layout and the error says what each layout expected', () => {
    const src = readFixture('nebula', 'bouncingball.nax2');
    const bytes = new Uint8Array(src.length + 1);
    bytes.set(src);
    const e = formatErrorOf(() => readNax2(bytes));
    expect(e.code).toBe('size-mismatch');
    expect(e.offset).toBe(1793);
    expect(e.message).toMatch(/layout B: 2 groups, 3 curves and 100 keys need 1752 bytes/);
    expect(e.message).toMatch(/layout A: 2 groups, 6 curves and 100 keys need 1792 bytes/);
  });

  it('refuses a curve whose keys leave the pool, at the curve header', () => {
    const bytes = readFixture('nebula', 'bouncingball.nax2').slice();
    new DataView(bytes.buffer).setInt32(60 + 2, 99, true); // group 0 curve 0 firstKeyIndex
    const e = formatErrorOf(() => readNax2(bytes));
    expect(e.code).toBe('bad-key-index');
    expect(e.offset).toBe(60);
  });

  it('every truncation of bouncingball.nax2 is a FormatError with an offset', () => {
    const bytes = readFixture('nebula', 'bouncingball.nax2');
    for (let n = 0; n < bytes.length; n++) {
      const e = formatErrorOf(() => readNax2(bytes.subarray(0, n)));
      expect(typeof e.offset, `prefix ${n}`).toBe('number');
      expect(e.format).toBe('nax2');
    }
  });
});

describe('nax2 synthetic files', () => {
  const groups = [
    {
      numKeys: 2,
      keyStride: 1,
      loopType: 0,
      fadeIn: 2.5,
      metadata: 'string=Hotspot=step#3,7;int=foo=1',
      curves: [
        { ipol: 3, first: 0 },
        { ipol: 0, first: -1, isAnimated: 0, key: [0, 0, 0, 1] as [number, number, number, number] },
        { ipol: 3, first: -1, key: [1, 1, 1, 0] as [number, number, number, number] },
      ],
    },
  ];
  const keys = [
    [1, 2, 3, 0],
    [4, 5, 6, 0],
  ];

  for (const layout of ['C512', 'C256'] as const) {
    it(`layout ${layout}: 'NAX3' magic, metadata string, told apart by the size equation`, () => {
      const doc = readNax2(buildNax2(layout, groups, keys));
      expect(doc.layout).toBe('C');
      expect(doc.metadataSize).toBe(layout === 'C512' ? 512 : 256);
      expect(doc.groups[0]!.metadata).toBe('string=Hotspot=step#3,7;int=foo=1');
      expect(doc.groups[0]!.fadeInFrames).toBe(2.5);
      const res = nax2ToResource(doc);
      expect(res.clips[0]!.metadata['metadata']).toBe('string=Hotspot=step#3,7;int=foo=1');
      expect(res.clips[0]!.preInfinity).toBe('constant');
      expect(res.clips[0]!.curves.map((c) => c.active)).toEqual([true, false, true]);
      expect(res.info['metadataSize']).toBe(doc.metadataSize);
    });
  }

  it('layout A with an odd curve count puts the keys at an offset that is not 4-aligned', () => {
    const bytes = buildNax2('A', [{ numKeys: 2, keyStride: 1, curves: [{ ipol: 3, first: 0 }] }], keys);
    const doc = readNax2(bytes);
    expect(doc.keyDataOffset).toBe(12 + 24 + 22);
    expect(doc.keyDataOffset! % 4).toBe(2);
    expect(Array.from(doc.pool)).toEqual(keys.flat());
    const res = nax2ToResource(doc);
    expect(res.clips[0]!.curves[0]!.keys).toEqual({ encoding: 'uniform', values: Float32Array.from(keys.flat()) });
  });

  it('a bad magic, negative counts and a zero key time are FormatErrors', () => {
    const ok = buildNax2('B', groups, keys);
    const bad = ok.slice();
    bad[0] = 0x41;
    expect(formatErrorOf(() => readNax2(bad)).code).toBe('bad-magic');
    const nax3 = ok.slice();
    nax3.set([0x31, 0x30, 0x41, 0x4e]);
    expect(formatErrorOf(() => readNax2(nax3)).message).toMatch(/readNax3/);
    const neg = ok.slice();
    new DataView(neg.buffer).setInt32(4, -1, true);
    expect(formatErrorOf(() => readNax2(neg))).toMatchObject({ code: 'bad-count', offset: 4 });
    const zero = buildNax2('B', [{ ...groups[0]!, keyTime: 0.0004 }], keys);
    expect(formatErrorOf(() => nax2ToResource(readNax2(zero)))).toMatchObject({ code: 'bad-value', offset: 12 + 16 });
  });

  it('refuses curves that claim more keys than the pool holds (overlapping key ranges)', () => {
    const bytes = buildNax2('B', [{ numKeys: 2, keyStride: 1, curves: [{ ipol: 3, first: 0 }, { ipol: 3, first: 0 }] }], keys);
    const doc = readNax2(bytes); // each curve alone is in range
    expect(formatErrorOf(() => nax2ToResource(doc))).toMatchObject({ code: 'bad-key-index', offset: 12 });
  });
});
