import type { FormatErrorLocation } from '../../errors.js';

/**
 * Which `.nax2` byte layout a document came from (spec nebula.md §1.3, §1.7):
 * - `A`: public Nebula2 SDK before 2006-09 (24-byte groups, packed 22-byte curves, int16 ipolType);
 * - `B`: public SDK from 2006-09-03 (28-byte groups with `fadeInFrames`, 28-byte curves with `isAnimated`);
 * - `C`: Radon Labs internal / Nebula3 (`'NAX3'` magic, 28-byte curves, a 512- or 256-byte metadata
 *   string per group; see `Nax2Document.metadataSize`);
 * - `nanim2`: the ASCII twin (§1.9), read by `readNanim2`.
 */
export type Nax2Layout = 'A' | 'B' | 'C' | 'nanim2';

/**
 * Stored `ipolType` values (what the file means, `nAnimation::Curve::IpolType`, spec §1.4).
 * Index = stored value. The tool-internal `nAnimBuilder` enum swaps 2 and 3; files written through
 * its buggy LoadNax2 carry swapped values (kila layout B, §1.6), so never derive the curve kind
 * from this.
 */
export const NAX2_IPOL_NAMES = ['none', 'step', 'quat', 'linear'] as const;
/** A nax2 curve's interpolation type by name (`NAX2_IPOL_NAMES`). */
export type Nax2IpolName = (typeof NAX2_IPOL_NAMES)[number];

/** Stored loop types (spec §1.3): 0 = clamp, 1 = repeat. */
export const NAX2_LOOP_NAMES = ['clamp', 'repeat'] as const;

/** One curve header (spec §1.3). */
export interface Nax2Curve {
  /** Stored ipolType (0 None, 1 Step, 2 Quat, 3 Linear; §1.4). int16 in layout A, int32 otherwise. */
  ipolType: number;
  /**
   * Absolute index (in float4 keys) into `Nax2Document.pool` of key 0, or −1 when the curve is
   * collapsed (static). Key k is at `pool[firstKeyIndex + k·keyStride]` (§1.5).
   */
  firstKeyIndex: number;
  /** 1 when the joint is animated in this group (N3: `isActive`); `null` in layout A (no field). */
  isAnimated: number | null;
  /** x, y, z, w: the constant value when `firstKeyIndex == −1`; ignore it otherwise (§1.3). */
  collapsedKey: Float32Array;
  /** Where the curve header starts: `{ offset }` (bytes) for binary files, `{ line }` for `.nanim2`. */
  source: FormatErrorLocation;
}

/** One group header (N3 calls groups *clips*) with its curves (spec §1.3). */
export interface Nax2Group {
  /** Always 0 in files seen; N2 subtracts it from the frame index, N3 ignores it. */
  startKey: number;
  /** Keys per curve (shared by every curve of the group). */
  numKeys: number;
  /** Distance in float4 keys between consecutive keys of one curve (§1.5). */
  keyStride: number;
  /** Seconds per key as stored (float32, e.g. 0.039999999 for 25 fps). */
  keyTime: number;
  /** N2 state-blending hint (layouts B, C, new-style `.nanim2`); `null` where the field does not exist. */
  fadeInFrames: number | null;
  /** 0 = clamp, 1 = repeat (§1.3). */
  loopType: number;
  /** Layout C metadata string, cut at its first NUL (§1.8); `null` for other layouts. */
  metadata: string | null;
  /** `numCurves` of the file is `curves.length`. Curve i drives joint ⌊i/3⌋, kind i % 3 (T, R, S; §1.6). */
  curves: Nax2Curve[];
  /** Where the group header starts (`{ offset }` or `{ line }`). */
  source: FormatErrorLocation;
}

/**
 * A `.nax2` (or `.nanim2`) file as stored: header facts, groups with their curves, and the key pool.
 * Produced by `readNax2` and `readNanim2`; turned into the model by `nax2ToResource`.
 */
export interface Nax2Document {
  layout: Nax2Layout;
  /** Bytes of metadata per group header: 512 or 256 in layout C, 0 otherwise. */
  metadataSize: 0 | 256 | 512;
  /** Float4 keys in the pool (the header's `numKeys`); `pool.length == 4 × numKeys`. */
  numKeys: number;
  /** Byte offset of the key pool in the file; `null` for `.nanim2`. */
  keyDataOffset: number | null;
  groups: Nax2Group[];
  /** `4 × numKeys` floats, key i at `pool[4i .. 4i+3]` (x, y, z, w), a copy (never a view of the input). */
  pool: Float32Array;
}

/**
 * Checks that every animated curve's keys lie inside the pool: `firstKeyIndex ≥ 0`, the group has
 * at least one key, and `firstKeyIndex + (numKeys − 1)·keyStride < poolKeys` (spec §1.5). Returns
 * the first problem found (with the curve's location) or `null`.
 */
export function findNax2KeyRangeProblem(
  groups: readonly Nax2Group[],
  poolKeys: number,
): { source: FormatErrorLocation; message: string } | null {
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    for (let i = 0; i < group.curves.length; i++) {
      const curve = group.curves[i]!;
      const first = curve.firstKeyIndex;
      if (first === -1) continue;
      const where = `group ${g} curve ${i}`;
      if (first < 0) {
        return { source: curve.source, message: `${where}: firstKeyIndex ${first} is neither −1 (collapsed) nor a pool index` };
      }
      if (group.numKeys < 1) {
        return { source: curve.source, message: `${where} is animated (firstKeyIndex ${first}) but its group has ${group.numKeys} keys` };
      }
      const last = first + (group.numKeys - 1) * group.keyStride;
      if (first >= poolKeys || last < 0 || last >= poolKeys) {
        return {
          source: curve.source,
          message:
            `${where}: keys ${first} + k·${group.keyStride} for k < ${group.numKeys} reach index ${last}, ` +
            `outside the pool of ${poolKeys} keys`,
        };
      }
    }
  }
  return null;
}
