import { UsageError } from '../errors.js';

/**
 * Unity `WrapMode` as stored in `AnimationCurve.preWrapMode` / `postWrapMode` (UnityCsReference
 * `AnimationCurve.bindings.cs`, spec mrtk.md §5). For curve evaluation Once/Clamp (1) and
 * ClampForever (8) clamp, PingPong (4) ping-pongs, and every other value — Default (0), Loop (2)
 * and unknown values — repeats, as Unity's native `WrapTime` does.
 */
export const UnityWrapMode = {
  Default: 0,
  Once: 1,
  Clamp: 1,
  Loop: 2,
  PingPong: 4,
  ClampForever: 8,
} as const;

/**
 * `Keyframe.weightedMode` bits (spec mrtk.md §6.2): In (1) makes the key's `inWeight` count for
 * the segment that ends at it, Out (2) its `outWeight` for the segment that starts at it.
 */
export const UnityWeightedMode = { None: 0, In: 1, Out: 2, Both: 3 } as const;

/**
 * One Unity `AnimationCurve`: keys as structure-of-arrays (all seven arrays `keyCount` long),
 * sorted by time, plus the wrap modes. Times are seconds; tangents are value per second; weights
 * are fractions of the segment duration (Unity's default weight is 1/3).
 */
export interface UnityCurve {
  readonly time: Float32Array;
  readonly value: Float32Array;
  readonly inTangent: Float32Array;
  readonly outTangent: Float32Array;
  readonly inWeight: Float32Array;
  readonly outWeight: Float32Array;
  /** `UnityWeightedMode` bits per key, as the file stores them (Int32). */
  readonly weightedMode: Int32Array;
  /** `UnityWrapMode` value used before the first key. */
  readonly preWrapMode: number;
  /** `UnityWrapMode` value used after the last key. */
  readonly postWrapMode: number;
}

/** The keys of a `UnityCurve`, one entry per key in each array (Unity `Keyframe` fields). */
export interface UnityCurveInit {
  time: ArrayLike<number>;
  value: ArrayLike<number>;
  /** Defaults to 0 for every key. */
  inTangent?: ArrayLike<number>;
  outTangent?: ArrayLike<number>;
  /** Defaults to 0 for every key. */
  inWeight?: ArrayLike<number>;
  outWeight?: ArrayLike<number>;
  /** Defaults to Both (3): with zero weights and tangents every segment is a straight line (spec mrtk.md §6.7). */
  weightedMode?: ArrayLike<number>;
  /** Default ClampForever (8), what `new AnimationCurve()` reports (spec mrtk.md §3.1). */
  preWrapMode?: number;
  postWrapMode?: number;
}

/**
 * Builds a `UnityCurve`, copying the arrays. The defaults make the keys MRTK's linear keys
 * (`Keyframe(time, value, 0, 0, 0, 0)`, spec mrtk.md §3.1).
 * @throws UsageError when an array's length differs from `time.length`
 */
export function unityCurve(init: UnityCurveInit): UnityCurve {
  const n = init.time.length;
  const filled = <T extends Float32Array | Int32Array>(make: new (n: number) => T, a: ArrayLike<number> | undefined, fill: number, name: string): T => {
    const out = new make(n);
    if (a === undefined) out.fill(fill);
    else if (a.length !== n) throw new UsageError(`unity curve: ${name} has ${a.length} entries, time has ${n}`);
    else out.set(a);
    return out;
  };
  return {
    time: filled(Float32Array, init.time, 0, 'time'),
    value: filled(Float32Array, init.value, 0, 'value'),
    inTangent: filled(Float32Array, init.inTangent, 0, 'inTangent'),
    outTangent: filled(Float32Array, init.outTangent, 0, 'outTangent'),
    inWeight: filled(Float32Array, init.inWeight, 0, 'inWeight'),
    outWeight: filled(Float32Array, init.outWeight, 0, 'outWeight'),
    weightedMode: filled(Int32Array, init.weightedMode, UnityWeightedMode.Both, 'weightedMode'),
    preWrapMode: init.preWrapMode ?? UnityWrapMode.ClampForever,
    postWrapMode: init.postWrapMode ?? UnityWrapMode.ClampForever,
  };
}

/**
 * Whether every segment of `curve` is a straight line between its keys: k0 has the Out bit with
 * outWeight 0, k1 the In bit with inWeight 0, and both tangents are finite. The weighted Bézier is
 * then exactly v0 + (v1 − v0)·s (spec mrtk.md §6.7), so evaluators may lerp instead.
 */
export function isLinearUnityCurve(curve: UnityCurve): boolean {
  for (let k = 0; k + 1 < curve.time.length; k++) {
    if (!isLinearSegment(curve, k)) return false;
  }
  return true;
}

/** Whether segment (k, k + 1) of `curve` is a straight line (see `isLinearUnityCurve`). */
export function isLinearSegment(curve: UnityCurve, k: number): boolean {
  return (
    (curve.weightedMode[k]! & UnityWeightedMode.Out) !== 0 &&
    curve.outWeight[k] === 0 &&
    Number.isFinite(curve.outTangent[k]!) &&
    (curve.weightedMode[k + 1]! & UnityWeightedMode.In) !== 0 &&
    curve.inWeight[k + 1] === 0 &&
    Number.isFinite(curve.inTangent[k + 1]!)
  );
}

/**
 * Whether all `lanes` have the same key times and wrap modes, so one segment lookup serves them
 * all. Rotation curves are hemisphere-aligned per segment only when this holds (their four lanes
 * then form one quaternion per key).
 */
export function lanesShareKeyTimes(lanes: readonly UnityCurve[]): boolean {
  const first = lanes[0];
  if (first === undefined) return false;
  return lanes.every(
    (l) =>
      l.preWrapMode === first.preWrapMode &&
      l.postWrapMode === first.postWrapMode &&
      l.time.length === first.time.length &&
      l.time.every((t, i) => t === first.time[i]),
  );
}
