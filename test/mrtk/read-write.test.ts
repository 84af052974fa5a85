import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { detectFormat } from '../../src/formats/registry.js';
import { readMrtk, writeMrtk } from '../../src/formats/mrtk/index.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';

const SMALL = 'InputAnimation-20201011-130542.bin';
const LARGE = 'InputAnimation-20201027-134946.bin';

describe.runIf(haveFixtures('mrtk'))('MRTK fixtures', () => {
  it('reads the empty recording: v1.0, 389 empty curves with wrap 8/8, no markers', () => {
    const rec = readMrtk(readFixture('mrtk', SMALL));
    expect(rec.versionMajor).toBe(1);
    expect(rec.versionMinor).toBe(0);
    expect(rec.gaze).toBeNull();
    expect(rec.markers).toEqual([]);
    const curves = [...rec.camera!.position, ...rec.camera!.rotation];
    for (const hand of [rec.hands!.left, rec.hands!.right]) {
      curves.push(hand.tracked, hand.pinching);
      for (const j of hand.joints) curves.push(...j.position, ...j.rotation);
    }
    expect(curves).toHaveLength(389);
    for (const c of curves) {
      expect(c.time.length).toBe(0);
      expect([c.preWrapMode, c.postWrapMode]).toEqual([8, 8]);
    }
  });

  it('reads the large recording: 118,081 float keys, all linear MRTK keys (PROVENANCE.md)', () => {
    const rec = readMrtk(readFixture('mrtk', LARGE));
    let keys = 0;
    const poses = [rec.camera!, ...rec.hands!.left.joints, ...rec.hands!.right.joints];
    for (const p of poses) {
      for (const c of [...p.position, ...p.rotation]) {
        keys += c.time.length;
        expect(c.weightedMode.every((m) => m === 3)).toBe(true);
        expect(c.inWeight.every((w) => w === 0) && c.outWeight.every((w) => w === 0)).toBe(true);
      }
    }
    expect(keys).toBe(118081);
    expect(rec.camera!.position[0].time.length).toBe(79);
    expect(rec.camera!.rotation[0].time.length).toBe(332);
    expect(rec.hands!.left.pinching.time.length).toBe(3);
  });

  it.each([SMALL, LARGE])('%s round-trips byte for byte', (name) => {
    const bytes = readFixture('mrtk', name);
    expect(Buffer.from(writeMrtk(readMrtk(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('1.0 → 1.1 conversion writes a valid 1.1 file of the size §2.5 gives, keeping times and values', () => {
    const rec = readMrtk(readFixture('mrtk', LARGE));
    const v11 = writeMrtk(rec, { versionMinor: 1 });
    const back = readMrtk(v11);
    expect(back.versionMinor).toBe(1);
    expect([back.camera !== null, back.hands !== null, back.gaze]).toEqual([true, true, null]);
    const all = (r: typeof rec) => {
      const curves = [...r.camera!.position, ...r.camera!.rotation];
      for (const hand of [r.hands!.left, r.hands!.right]) {
        curves.push(hand.tracked, hand.pinching);
        for (const j of hand.joints) curves.push(...j.position, ...j.rotation);
      }
      return curves;
    };
    const keys = all(rec).reduce((n, c) => n + c.time.length, 0);
    expect(v11.length).toBe(19 + 389 * 12 + 8 * keys + 4);
    const [a, b] = [all(rec), all(back)];
    a.forEach((c, i) => {
      expect(b[i]!.time).toEqual(c.time);
      expect(b[i]!.value).toEqual(c.value);
    });
    expect(Buffer.from(writeMrtk(back)).equals(Buffer.from(v11))).toBe(true);
    expect(writeMrtk(readMrtk(readFixture('mrtk', SMALL)), { versionMinor: 1 }).length).toBe(19 + 389 * 12 + 4);
  });

  it('is detected by content', () => {
    expect(detectFormat(readFixture('mrtk', SMALL), 'x.dat')?.handler.id).toBe('mrtk');
  });

  it('every truncation of the small recording is a FormatError naming an offset', () => {
    const bytes = readFixture('mrtk', SMALL);
    for (let n = 0; n < bytes.length; n++) {
      let error: unknown;
      try {
        readMrtk(bytes.subarray(0, n));
      } catch (e) {
        error = e;
      }
      expect(error, `length ${n}`).toBeInstanceOf(FormatError);
      expect((error as FormatError).offset).toBeTypeOf('number');
    }
  });

  it('trailing bytes are refused', () => {
    const bytes = readFixture('mrtk', SMALL);
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(() => readMrtk(longer)).toThrow(/trailing|end of the file/);
  });
});
