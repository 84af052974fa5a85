import type { UnityCurve } from '../../anim/index.js';

/**
 * The 7 curves of one MRTK pose (`PoseCurves`, spec mrtk.md §2.3): position x y z, rotation
 * x y z w — in file order. World space; rotations as stored (not normalised, §4.3).
 */
export interface MrtkPoseCurves {
  readonly position: readonly [UnityCurve, UnityCurve, UnityCurve];
  readonly rotation: readonly [UnityCurve, UnityCurve, UnityCurve, UnityCurve];
}

/** The 6 curves of the v1.1 eye-gaze ray (`RayCurves`, spec mrtk.md §2.4): origin x y z, direction x y z. */
export interface MrtkRayCurves {
  readonly origin: readonly [UnityCurve, UnityCurve, UnityCurve];
  readonly direction: readonly [UnityCurve, UnityCurve, UnityCurve];
}

/** One hand: its two boolean curves (keys 0.0 / 1.0) and 27 joint poses in `TrackedHandJoint` order. */
export interface MrtkHand {
  readonly tracked: UnityCurve;
  readonly pinching: UnityCurve;
  /** 27 poses, index = `TrackedHandJoint` value (spec mrtk.md §2.6). */
  readonly joints: readonly MrtkPoseCurves[];
}

/** A user annotation (spec mrtk.md §2.7): seconds and a name. Does not affect sampling. */
export interface MrtkMarker {
  readonly time: number;
  readonly name: string;
}

/**
 * An MRTK2 input-animation recording as the file holds it (spec mrtk.md §2). v1.0 files have no
 * flags; they read as camera = hands = true, gaze = false, as MRTK reads them. Absent parts are
 * `null`. Curves keep every stored field: v1.0 pose curves have full keys; v1.1 "simple" pose and
 * ray curves and all boolean curves are reconstructed as MRTK does on read (tangents 0, weights 0,
 * mode Both; boolean keys with outWeight 1e6, §2.5).
 */
export interface MrtkRecording {
  /** Always 1. */
  readonly versionMajor: number;
  /** 0 or 1. */
  readonly versionMinor: number;
  readonly camera: MrtkPoseCurves | null;
  /** Both hands are present or absent together (`hasHandData`). */
  readonly hands: { readonly left: MrtkHand; readonly right: MrtkHand } | null;
  readonly gaze: MrtkRayCurves | null;
  readonly markers: readonly MrtkMarker[];
}

/** The file magic, an Int64 read little-endian; on disk `c6 42 9e 0f 6e af 8f 6a` (spec mrtk.md §2.2). */
export const MRTK_MAGIC = 0x6a8faf6e0f9e42c6n;

/** Joint slots per hand (spec mrtk.md §2.6). */
export const MRTK_JOINT_COUNT = 27;

/** The outWeight MRTK gives every boolean key on read, making the curve a step (spec mrtk.md §2.5, §6.8). */
export const MRTK_BOOL_OUT_WEIGHT = 1e6;
