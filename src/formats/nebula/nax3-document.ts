/**
 * The 2009 Nebula3 / Nebula Trifid `.nax3` ('NA01') file as stored (spec nebula.md §2.2).
 * Produced by `readNax3` and `nax3FromResource`, written by `writeNax3`, turned into the model by
 * `nax3ToResource`. Every field keeps its stored value (raw bytes included) so that
 * `writeNax3(readNax3(b))` reproduces `b` byte for byte.
 */
export interface Nax3Document {
  /** From the magic bytes: "10AN" little-endian (PC), "NA01" big-endian (Xbox 360 / PS3; §2.3). */
  byteOrder: 'little' | 'big';
  /** Float4 keys in the pool (header `numKeys`); must equal `pool.length / 4` when writing. */
  numKeys: number;
  /** Byte offset of the key pool (derived; ignored by the writer). */
  keyDataOffset: number;
  clips: Nax3Clip[];
  /**
   * `4 × numKeys` floats, key i at `pool[4i .. 4i+3]` (x, y, z, w): clip by clip, key-major
   * (for each key index, one float4 per non-static curve). A copy with the exact stored bits.
   */
  pool: Float32Array;
}

/** One 64-byte Nax3Clip header with the events and curves that follow it (spec §2.2). */
export interface Nax3Clip {
  /** The name up to its first NUL (latin-1). */
  name: string;
  /**
   * The raw 50-byte name field. The bytes after the NUL are uninitialised garbage in real files
   * (Footman); the writer copies this field when it still starts with `name` + NUL, else it writes
   * `name` NUL-padded. Optional for documents built in code.
   */
  nameBytes?: Uint8Array;
  /** Copied from the nax2 startKey; sampling ignores it. */
  startKeyIndex: number;
  /** Keys per curve. */
  numKeys: number;
  /** Distance in float4 keys between consecutive keys of one curve (= number of non-static curves). */
  keyStride: number;
  /** Ticks (= milliseconds) per key, e.g. 40 for 25 fps. */
  keyDuration: number;
  /** Stored byte: 0 = Constant, 1 = Cycle (other values are refused by `nax3ToResource`). */
  preInfinityType: number;
  postInfinityType: number;
  /** `numEvents` of the file is `events.length`. */
  events: Nax3Event[];
  /** `numCurves` of the file is `curves.length`. */
  curves: Nax3Curve[];
  /** Byte offset of the clip header (derived; ignored by the writer). */
  offset: number;
}

/** One 64-byte Nax3AnimEvent (spec §2.2). Its time in ticks is `keyIndex × keyDuration`. */
export interface Nax3Event {
  /** Up to the first NUL of the 47-byte field. */
  name: string;
  /** Raw 47-byte name field (garbage after the NUL in real files), optional. */
  nameBytes?: Uint8Array;
  /** Up to the first NUL of the 15-byte field; may be empty. */
  category: string;
  /** Raw 15-byte category field, optional. */
  categoryBytes?: Uint8Array;
  keyIndex: number;
  /** Byte offset of the event (derived; ignored by the writer). */
  offset: number;
}

/** One 24-byte Nax3Curve (spec §2.2). */
export interface Nax3Curve {
  /** Absolute pool index of key 0; key k is at `pool[firstKeyIndex + k·keyStride]`. Meaningless when static. */
  firstKeyIndex: number;
  /** Stored byte, 0 or 1; 0 means the curve samples with count 0. */
  isActive: number;
  /** Stored byte, 0 or 1; 1 means `staticKey` is the value and no keys are in the pool. */
  isStatic: number;
  /** CurveType code: 0 Translation, 1 Scale, 2 Rotation, 3 Color, 4 Velocity, 5 Float4 (§2.2). */
  curveType: number;
  /** The padding byte (0 in files seen), kept for exact round trips. */
  padding: number;
  /** x, y, z, w. */
  staticKey: Float32Array;
  /** Byte offset of the curve record (derived; ignored by the writer). */
  offset: number;
}

/**
 * Checks that every non-static curve's keys lie inside the pool: the clip has at least one key and
 * `firstKeyIndex + (numKeys − 1)·keyStride < poolKeys`. Returns the first problem or `null`.
 */
export function findNax3KeyRangeProblem(clips: readonly Nax3Clip[], poolKeys: number): { offset: number; message: string } | null {
  for (let c = 0; c < clips.length; c++) {
    const clip = clips[c]!;
    for (let i = 0; i < clip.curves.length; i++) {
      const curve = clip.curves[i]!;
      if (curve.isStatic !== 0) continue;
      const where = `clip ${c} ("${clip.name}") curve ${i}`;
      if (clip.numKeys < 1) {
        return { offset: curve.offset, message: `${where} is not static but its clip has 0 keys` };
      }
      const last = curve.firstKeyIndex + (clip.numKeys - 1) * clip.keyStride;
      if (last >= poolKeys) {
        return {
          offset: curve.offset,
          message:
            `${where}: keys ${curve.firstKeyIndex} + k·${clip.keyStride} for k < ${clip.numKeys} reach index ${last}, ` +
            `outside the pool of ${poolKeys} keys`,
        };
      }
    }
  }
  return null;
}
