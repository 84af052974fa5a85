import { ByteReader } from '../binary.js';
import { quote } from '../text.js';

/** Bytes of the `.amb` header (spec meteor.md §3.1). */
export const AMB_HEADER_BYTES = 21;

/** Bytes of one `.amb` frame record for `bones` bones and `dummies` dummies (spec meteor.md §3.2). */
export function ambRecordBytes(bones: number, dummies: number): number {
  return 20 + 16 * bones + 33 * dummies;
}

/**
 * A `.amb` animation as stored (spec meteor.md §3): every record in file order, file space
 * (Z-up, right-handed), quaternions as stored (w, x, y, z), local to the parent.
 */
export interface AmbDocument {
  boneCount: number;
  dummyCount: number;
  frameCount: number;
  /** Frames per second (the 4th header int; 30 in every known file). */
  fps: number;
  /** Stored frame index per record (`.pos` Start/End refer to these). */
  frameIndices: Int32Array;
  /** Per record: bone 0's local translation x y z (3 floats per record). */
  rootTranslations: Float32Array;
  /** Per record, per bone: local rotation w x y z (`4 × boneCount` floats per record). */
  boneRotations: Float32Array;
  /** The dummies' 5-byte parent tags (`NULL`, `b13`, `d3`, …), identical in every record. */
  dummyParents: string[];
  /** Per record, per dummy: local position x y z (`3 × dummyCount` floats per record). */
  dummyPositions: Float32Array;
  /** Per record, per dummy: local rotation w x y z (`4 × dummyCount` floats per record). */
  dummyRotations: Float32Array;
  /** Byte offset of each dummy's parent tag in the first record (for cross-file errors). */
  dummyParentOffsets: number[];
  /** Records whose flag is not −1, and other oddities that do not stop reading. */
  warnings: string[];
  /** The record holding stored frame `index`, or −1 when there is none. */
  recordOf(index: number): number;
}

/**
 * Reads a `.amb` file (spec meteor.md §3): the `BANIM` magic, bone/dummy/frame counts and fps,
 * then exactly `frames` records of 20 + 16·B + 33·D bytes (the size equation of §3.2 must hold to
 * the byte). A record flag other than −1 is a warning naming the record. Stored frame indices may
 * start anywhere and have gaps (`character.amb`, §3.4); `recordOf` maps index → record (by
 * offset when contiguous, by table otherwise).
 * @throws FormatError (format `amb`, with the byte offset) for a bad magic, negative counts, a
 *   value that is not finite or beyond ±1e38 (`bad-value`, value-range.ts), a
 *   size that breaks the equation (truncated or trailing bytes), duplicate frame indices and
 *   dummy parent tags that change between records
 */
export function readAmb(bytes: Uint8Array): AmbDocument {
  const r = new ByteReader(bytes, 'amb');
  const magic = r.fixedString(5, 'the BANIM magic');
  if (magic !== 'BANIM') r.fail('bad-magic', `expected the magic "BANIM", found ${quote(magic)}`, 0);
  const boneCount = r.i32('bone count');
  const dummyCount = r.i32('dummy count');
  const frameCount = r.i32('frame count');
  const fps = r.i32('fps');
  if (boneCount < 1) r.fail('bad-value', `bone count must be at least 1, found ${boneCount}`, 5);
  if (dummyCount < 0) r.fail('bad-value', `dummy count must be at least 0, found ${dummyCount}`, 9);
  if (frameCount < 0) r.fail('bad-value', `frame count must be at least 0, found ${frameCount}`, 13);
  if (fps < 1) r.fail('bad-value', `fps must be at least 1, found ${fps}`, 17);
  const recordBytes = ambRecordBytes(boneCount, dummyCount);
  const expected = AMB_HEADER_BYTES + frameCount * recordBytes;
  if (bytes.length < expected) {
    r.fail('truncated', `${frameCount} records of ${recordBytes} bytes need ${expected} bytes, the file has ${bytes.length}`, bytes.length);
  }
  const B = boneCount;
  const D = dummyCount;
  const N = frameCount;
  const frameIndices = new Int32Array(N);
  const rootTranslations = new Float32Array(3 * N);
  const boneRotations = new Float32Array(4 * B * N);
  const dummyPositions = new Float32Array(3 * D * N);
  const dummyRotations = new Float32Array(4 * D * N);
  const dummyParents: string[] = [];
  const dummyParentOffsets: number[] = [];
  const warnings: string[] = [];
  const byIndex = new Map<number, number>();
  for (let f = 0; f < N; f++) {
    const at = r.offset;
    const flag = r.i32(`record ${f} flag`);
    if (flag !== -1) warnings.push(`record ${f} (byte ${at}) has flag ${flag}, expected -1`);
    const index = r.i32(`record ${f} frame index`);
    if (byIndex.has(index)) r.fail('duplicate-frame', `record ${f} repeats stored frame index ${index}`, at + 4);
    byIndex.set(index, f);
    frameIndices[f] = index;
    rootTranslations.set(r.values(3, `record ${f} root translation`), 3 * f);
    boneRotations.set(r.values(4 * B, `record ${f} bone rotations`), 4 * B * f);
    for (let d = 0; d < D; d++) {
      const tagAt = r.offset;
      const tag = r.fixedString(5, `record ${f} dummy ${d} parent tag`);
      if (f === 0) {
        dummyParents.push(tag);
        dummyParentOffsets.push(tagAt);
      } else if (tag !== dummyParents[d]) {
        r.fail('bad-value', `record ${f} dummy ${d} parent tag ${quote(tag)} differs from record 0's ${quote(dummyParents[d]!)}`, tagAt);
      }
      dummyPositions.set(r.values(3, `record ${f} dummy ${d} position`), 3 * (D * f + d));
      dummyRotations.set(r.values(4, `record ${f} dummy ${d} rotation`), 4 * (D * f + d));
    }
  }
  r.expectEnd(`${N} frame records`);
  const first = N > 0 ? frameIndices[0]! : 0;
  const contiguous = frameIndices.every((v, i) => v === first + i);
  return {
    boneCount,
    dummyCount,
    frameCount,
    fps,
    frameIndices,
    rootTranslations,
    boneRotations,
    dummyParents,
    dummyPositions,
    dummyRotations,
    dummyParentOffsets,
    warnings,
    recordOf: contiguous ? (i) => (i >= first && i < first + N ? i - first : -1) : (i) => byIndex.get(i) ?? -1,
  };
}
