import { describe, expect, it } from 'vitest';
import { AMB_HEADER_BYTES, ambRecordBytes, readAmb } from '../../src/formats/meteor/index.js';
import { expectedJson, haveFixtures, readFixture } from '../helpers/fixtures.js';
import { catchFormatError } from '../helpers/format-error.js';

const close = (actual: ArrayLike<number>, expected: number[], tol = 1e-5) =>
  expected.forEach((v, i) => expect(Math.abs(actual[i]! - v), `component ${i}: ${actual[i]} vs ${v}`).toBeLessThanOrEqual(tol));

describe.runIf(haveFixtures('meteor'))('readAmb on p0.amb', () => {
  const bytes = readFixture('meteor', 'p0.amb');
  const e = expectedJson('meteor');
  const amb = readAmb(bytes);
  const B = 30;
  const D = 6;

  it('reads the header facts', () => {
    expect(bytes.length).toBe(e.amb.size);
    expect([amb.boneCount, amb.dummyCount, amb.frameCount, amb.fps]).toEqual([e.amb.bones, e.amb.dummies, e.amb.frames, e.amb.fps]);
    expect(AMB_HEADER_BYTES).toBe(e.amb.header_bytes);
    expect(ambRecordBytes(B, D)).toBe(e.amb.frame_record_bytes);
    expect([amb.frameIndices[0], amb.frameIndices[amb.frameCount - 1]]).toEqual([e.amb.frame_index_first, e.amb.frame_index_last]);
    expect(amb.dummyParents).toEqual(e.amb.dummy_parent_tags);
    expect(amb.warnings).toEqual([]); // every flag is -1
  });

  it.each(Object.keys(e.frames))('reproduces the raw values of frame %s', (key) => {
    const f = e.frames[key];
    const r = amb.recordOf(f.index);
    expect(r).toBe(Number(key));
    expect(amb.frameIndices[r]).toBe(f.index);
    close(amb.rootTranslations.subarray(3 * r), f.root_pos_file_xyz);
    for (const [bone, q] of Object.entries<number[]>(f.bone_quat_file_wxyz)) close(amb.boneRotations.subarray(4 * (B * r + Number(bone))), q);
    close(amb.dummyPositions.subarray(3 * D * r), f.dummy0_pos_file_xyz);
    close(amb.dummyPositions.subarray(3 * (D * r + 3)), f.dummy3_pos_file_xyz);
    close(amb.dummyRotations.subarray(4 * (D * r + 3)), f.dummy3_quat_file_wxyz);
  });

  it('reads the root translation bits of frame 0 exactly', () => {
    const bits = new Uint32Array(Float32Array.from(amb.rootTranslations.subarray(0, 3)).buffer);
    // expected.json gives the little-endian bytes as hex.
    const hex = Array.from(bits, (b) => [0, 8, 16, 24].map((s) => ((b >>> s) & 0xff).toString(16).padStart(2, '0')).join(''));
    expect(hex).toEqual(e.frames['0'].root_pos_file_xyz_hex);
  });

  it('maps stored frame indices to records when they start at 1 or have gaps (character.amb)', () => {
    const copy = bytes.slice(0, AMB_HEADER_BYTES + 3 * 698);
    const view = new DataView(copy.buffer);
    view.setInt32(13, 3, true);
    [1, 2, 7].forEach((index, r) => view.setInt32(AMB_HEADER_BYTES + 698 * r + 4, index, true));
    const doc = readAmb(copy);
    expect([doc.recordOf(0), doc.recordOf(1), doc.recordOf(2), doc.recordOf(7), doc.recordOf(3)]).toEqual([-1, 0, 1, 2, -1]);
    view.setInt32(AMB_HEADER_BYTES + 698 * 2 + 4, 3, true);
    expect(readAmb(copy).recordOf(3)).toBe(2);
  });

  describe('bad input', () => {
    it.each([0, 4, 20, 21, 22, 719, 1000, bytes.length - 1])('a file truncated to %i bytes', (n) => {
      const err = catchFormatError(() => readAmb(bytes.slice(0, n)));
      expect(err.format).toBe('amb');
      expect(err.offset).toBeLessThanOrEqual(n);
    });

    it('trailing bytes', () => {
      const longer = new Uint8Array(bytes.length + 3);
      longer.set(bytes);
      const err = catchFormatError(() => readAmb(longer));
      expect([err.code, err.offset]).toEqual(['trailing-bytes', bytes.length]);
    });

    const corrupt = (offset: number, write: (v: DataView) => void) => {
      const copy = bytes.slice();
      write(new DataView(copy.buffer));
      return catchFormatError(() => readAmb(copy));
    };

    it('a bad magic', () => {
      expect(corrupt(0, (v) => v.setUint8(0, 0x43))).toMatchObject({ code: 'bad-magic', offset: 0 });
    });

    it('counts that break the size equation', () => {
      expect(corrupt(13, (v) => v.setInt32(13, 651, true)).code).toBe('truncated');
      expect(corrupt(13, (v) => v.setInt32(13, 649, true)).code).toBe('trailing-bytes');
      expect(corrupt(5, (v) => v.setInt32(5, 31, true)).code).toBe('truncated');
      expect(corrupt(5, (v) => v.setInt32(5, -1, true))).toMatchObject({ code: 'bad-value', offset: 5 });
      expect(corrupt(13, (v) => v.setInt32(13, -5, true))).toMatchObject({ code: 'bad-value', offset: 13 });
      expect(corrupt(17, (v) => v.setInt32(17, 0, true))).toMatchObject({ code: 'bad-value', offset: 17 });
    });

    it('a repeated frame index', () => {
      const at = AMB_HEADER_BYTES + 698 * 5 + 4;
      expect(corrupt(at, (v) => v.setInt32(at, 4, true))).toMatchObject({ code: 'duplicate-frame', offset: at });
    });

    it('a dummy parent tag that changes between records', () => {
      const at = AMB_HEADER_BYTES + 698 * 9 + 20 + 16 * 30 + 33;
      expect(corrupt(at, (v) => v.setUint8(at + 1, 0x39))).toMatchObject({ code: 'bad-value', offset: at });
    });

    it('a flag other than -1 is a warning naming the record', () => {
      const copy = bytes.slice();
      new DataView(copy.buffer).setInt32(AMB_HEADER_BYTES + 698 * 42, 0, true);
      expect(readAmb(copy).warnings).toEqual([expect.stringContaining('record 42')]);
    });
  });
});
