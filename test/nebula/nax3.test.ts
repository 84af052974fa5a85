// .nax3 reading (spec nebula.md §2): the Footman fixture, events, 4-curves-per-joint targets with
// the .constants skeleton, big-endian files, the refused look-alikes ('NAH0', 'NAC0', gscept 2023
// 'NA01'), range checks and every truncation.
import { describe, expect, it } from 'vitest';
import { haveFixtures, readFixture, readFixtureText } from '../helpers/fixtures.js';
import { FormatError } from '../../src/errors.js';
import { ByteWriter } from '../../src/formats/binary.js';
import { nax3ToResource, openNebula, readConstantsSkeleton, readNax3, writeNax3 } from '../../src/formats/nebula/index.js';
import { ascii, expectClose, formatErrorOf } from './helpers.js';

const have = haveFixtures('nebula');
const CLIP_NAMES = ['walk', 'charge', 'taunt', 'attack_1', 'attack_2', 'attack_3', 'idle', 'death'];

describe.skipIf(!have)('Unit_Footman.nax3', () => {
  it('has 8 named clips of 84 curves, little-endian, garbage after the NUL in names kept raw', () => {
    const doc = readNax3(readFixture('nebula', 'Unit_Footman.nax3'));
    expect(doc.byteOrder).toBe('little');
    expect(doc.clips.map((c) => c.name)).toEqual(CLIP_NAMES);
    expect(doc.clips.every((c) => c.curves.length === 84 && c.keyDuration === 40)).toBe(true);
    const idle = doc.clips[6]!;
    expect(idle.nameBytes!.length).toBe(50);
    expect(Array.from(idle.nameBytes!.subarray(0, 8))).toEqual([0x69, 0x64, 0x6c, 0x65, 0, 0x6b, 0x5f, 0x33]); // "idle\0k_3"
    expect(doc.clips[2]!.events[0]!.nameBytes!.length).toBe(47);
    expect(doc.clips[0]!.curves.slice(0, 4).map((c) => c.curveType)).toEqual([0, 2, 1, 4]);
  });

  it('opens with the .constants skeleton: 21 joints, 4 curves per joint, events in seconds', () => {
    const res = openNebula({ animation: readFixture('nebula', 'Unit_Footman.nax3'), skeleton: readFixture('nebula', 'Unit_Footman.constants') });
    expect(res.format).toBe('nax3');
    expect(res.warnings).toEqual([]);
    expect(res.info).toEqual({ byteOrder: 'little', numClips: 8, numKeys: 22428, keyDataOffset: 17228 });
    expect(res.skeleton!.size).toBe(21);
    expect(res.skeleton!.joints.map((j) => j.name).slice(0, 5)).toEqual(['Root', 'Hip', 'Chest', 'Neck', 'Face']);
    expect(res.clips.map((c) => c.name)).toEqual(CLIP_NAMES);
    const walk = res.clip('walk');
    expect(walk.curves.slice(4, 8).map((c) => c.target)).toEqual([
      { joint: 'Hip', property: 'translation' },
      { joint: 'Hip', property: 'rotation' },
      { joint: 'Hip', property: 'scale' },
      { joint: 'Hip', property: 'velocity' },
    ]);
    expect(walk.curves[83]!.target).toEqual({ joint: 'Left_Toe', property: 'velocity' });
    expect([walk.preInfinity, walk.postInfinity]).toEqual(['constant', 'cycle']);
    expect([res.clip('death').preInfinity, res.clip('death').postInfinity]).toEqual(['constant', 'constant']);
    expect(walk.duration).toBe(0.8);
    expect(walk.keyDuration).toBe(0.04);

    expect(res.clip('attack_1').events).toEqual([
      { name: 'hit', category: '', time: 0.76 },
      { name: 'swordclang', category: 'sound', time: 0.76 },
    ]);
    expect(res.clip('taunt').events).toEqual([{ name: 'tauntdone', category: '', time: 1.08 }]);
    // Sorted by time although the file lists death@55 first.
    expect(res.clip('death').events).toEqual([
      { name: 'soldierdeath', category: 'sound', time: 0 },
      { name: 'death', category: '', time: 2.2 },
    ]);
  });

  it('walk key 0 of Root, Face, knees and toes equals the .constants bind pose (spec §5)', () => {
    const skeleton = readConstantsSkeleton(readFixtureText('nebula', 'Unit_Footman.constants'));
    const res = nax3ToResource(readNax3(readFixture('nebula', 'Unit_Footman.nax3')), skeleton);
    const walk = res.clip('walk');
    for (const name of ['Root', 'Face', 'Right_Knee', 'Left_Knee', 'Right_Toe', 'Left_Toe']) {
      const j = skeleton.joints.findIndex((x) => x.name === name);
      const t = walk.curves[4 * j]!.keys;
      const r = walk.curves[4 * j + 1]!.keys;
      if (t.encoding !== 'uniform' || r.encoding !== 'uniform') throw new Error('expected uniform curves');
      expectClose(t.values.subarray(0, 3), skeleton.joints[j]!.rest.translation, 1e-5);
      const q = r.values.subarray(0, 4);
      const rest = skeleton.joints[j]!.rest.rotation;
      const sign = q[0]! * rest[0] + q[1]! * rest[1] + q[2]! * rest[2] + q[3]! * rest[3] < 0 ? -1 : 1;
      expectClose(Array.from(q, (x) => sign * x), rest, 1e-5);
    }
  });

  it('reads a big-endian ("NA01") rewrite back to the same document', () => {
    const bytes = readFixture('nebula', 'Unit_Footman.nax3');
    const doc = readNax3(bytes);
    const be = writeNax3(doc, { littleEndian: false });
    expect(String.fromCharCode(...be.subarray(0, 4))).toBe('NA01');
    const back = readNax3(be);
    expect(back.byteOrder).toBe('big');
    expect({ ...back, byteOrder: 'little' }).toEqual(doc);
    expect(nax3ToResource(back).clips).toEqual(nax3ToResource(doc).clips);
  });

  it('refuses a non-static curve whose keys leave the pool, at the curve record', () => {
    const bytes = readFixture('nebula', 'Unit_Footman.nax3').slice();
    const doc = readNax3(bytes);
    const curve = doc.clips[7]!.curves[83]!;
    new DataView(bytes.buffer).setUint32(curve.offset, 22428 - 84, true);
    const e = formatErrorOf(() => readNax3(bytes));
    expect(e).toMatchObject({ code: 'bad-key-index', offset: curve.offset });
  });

  it('refuses bad infinity bytes and unknown curve types when building the model', () => {
    const bytes = readFixture('nebula', 'Unit_Footman.nax3').slice();
    bytes[12 + 11] = 7; // clip 0 postInfinityType
    expect(formatErrorOf(() => nax3ToResource(readNax3(bytes)))).toMatchObject({ code: 'bad-value', offset: 23 });
    bytes[12 + 11] = 1;
    bytes[12 + 64 + 6] = 9; // clip 0 curve 0 curveType
    expect(formatErrorOf(() => nax3ToResource(readNax3(bytes)))).toMatchObject({ code: 'bad-value', offset: 82 });
  });

  it('a trailing byte is a size mismatch', () => {
    const src = readFixture('nebula', 'Unit_Footman.nax3');
    const bytes = new Uint8Array(src.length + 1);
    bytes.set(src);
    expect(formatErrorOf(() => readNax3(bytes))).toMatchObject({ code: 'size-mismatch', offset: 17228 });
  });

  // All 376,076 prefixes: the size equation is checked before anything is allocated, so this
  // takes a few seconds.
  it('every truncation is a FormatError with an offset', () => {
    const bytes = readFixture('nebula', 'Unit_Footman.nax3');
    for (let n = 0; n < bytes.length; n++) {
      let e: unknown = null;
      try {
        readNax3(bytes.subarray(0, n));
      } catch (err) {
        e = err;
      }
      if (!(e instanceof FormatError) || typeof e.offset !== 'number') {
        expect.fail(`prefix ${n}: expected a FormatError with an offset, got ${String(e)}`);
      }
    }
  }, 120_000);
});

/** A 2009-style header with another magic (the 'NAH0' oryol-tools variant keeps the structs). */
function withMagic(magic: string, littleEndian = true): Uint8Array {
  const w = new ByteWriter(littleEndian);
  ascii(w, magic);
  w.u32(1);
  w.u32(0);
  w.u16(0);
  w.u16(0);
  w.u16(1);
  w.u16(0);
  w.u16(40);
  w.u8(0);
  w.u8(0);
  w.u16(0);
  w.fixedString('clip', 50);
  return w.finish();
}

/** A small 2023 gscept/nebula 'NA01' file (spec §2.5): u16 numAnimations, Nax3Anim, curves, clips, intervals, floats. */
function gscept2023(): Uint8Array {
  const w = new ByteWriter(true);
  ascii(w, '10AN');
  w.u16(1); // numAnimations
  w.u16(1); // numClips
  w.u16(3); // numCurves
  w.u16(0); // numEvents
  w.u32(10); // numKeys (floats)
  w.u32(3); // numIntervals
  for (let i = 0; i < 3; i++) {
    w.u32(i); // firstIntervalOffset
    w.u32(1); // numIntervals
    w.u8(0);
    w.u8(1);
    w.u8([0, 2, 1][i]!);
  }
  for (const v of [3, 0, 0, 0, 0, 0]) w.u16(v); // numCurves, firstCurve, numEvents, firstEvent, numVelocityCurves, firstVelocityCurve
  w.u32(1000); // duration
  w.fixedString('walk', 48);
  for (let i = 0; i < 3; i++) {
    w.u32(0);
    w.u32(1000);
    w.u32(0);
    w.u32(0);
    w.f32(0.001);
  }
  for (let i = 0; i < 10; i++) w.f32(i);
  return w.finish();
}

describe('nax3 look-alikes are refused by name', () => {
  it("'NAH0' headers in both byte orders and 'NAC0' key files", () => {
    for (const [magic, le] of [['0HAN', true], ['NAH0', false]] as const) {
      const e = formatErrorOf(() => readNax3(withMagic(magic, le)));
      expect(e).toMatchObject({ code: 'unsupported-variant', offset: 0 });
      expect(e.message).toMatch(/'NAH0'/);
      expect(e.message).toMatch(/oryol/);
    }
    expect(formatErrorOf(() => readNax3(withMagic('0CAN'))).message).toMatch(/'NAC0'/);
  });

  it('the 2023 gscept layout that reuses the NA01 magic', () => {
    const bytes = gscept2023();
    const e = formatErrorOf(() => readNax3(bytes));
    expect(e.code).toBe('unsupported-variant');
    expect(e.message).toMatch(/2023/);
    expect(e.message).toMatch(/gscept/);
    expect(typeof e.offset).toBe('number');
    // Without the exact 2023 shape the ordinary 2009 error stays.
    expect(formatErrorOf(() => readNax3(bytes.subarray(0, bytes.length - 1))).code).not.toBe('unsupported-variant');
  });

  it('a .nax2 or unknown magic is a bad-magic error', () => {
    expect(formatErrorOf(() => readNax3(withMagic('2XAN'))).message).toMatch(/readNax2/);
    expect(formatErrorOf(() => readNax3(withMagic('ABCD')))).toMatchObject({ code: 'bad-magic', offset: 0 });
    expect(formatErrorOf(() => readNax3(new Uint8Array(0)))).toMatchObject({ code: 'truncated', offset: 0 });
  });

  it('a static-only clip with no keys reads and converts', () => {
    const w = new ByteWriter(true);
    ascii(w, '10AN');
    w.u32(1);
    w.u32(0);
    for (const v of [1, 0, 0, 0, 0]) w.u16(v);
    w.u8(1);
    w.u8(1);
    w.u16(0);
    w.fixedString('pose', 50);
    w.u32(0);
    w.u8(1);
    w.u8(1);
    w.u8(2);
    w.u8(0);
    w.f32Array([0, 0, 0, 1]);
    const res = nax3ToResource(readNax3(w.finish()));
    expect(res.clips[0]!.curves[0]!.keys).toEqual({ encoding: 'static', value: Float32Array.of(0, 0, 0, 1) });
    expect(res.clips[0]!.curves[0]!.target).toEqual({ joint: null, property: 'rotation' });
    expect(res.clips[0]!.duration).toBe(0);
  });
});
