import type { CurveType } from './curve-type.js';
import type { UnityCurve } from './unity-curve.js';

/** What a curve drives: a joint (by name; `null` for clip-level curves) and a property of it. */
export interface CurveTarget {
  joint: string | null;
  /** e.g. `translation`, `rotation`, `scale`, `velocity`, or a format-specific name. */
  property: string;
}

/** One constant float4; no keys. */
export interface StaticKeys {
  readonly encoding: 'static';
  /** x, y, z, w. */
  readonly value: Float32Array;
}

/**
 * float4 keys every `keyDuration` seconds starting at t = 0 (Nebula, Meteor, resampled clips).
 * All uniform curves of one clip share the clip's `keyCount` and `keyDuration`.
 */
export interface UniformKeys {
  readonly encoding: 'uniform';
  /** `4 × keyCount` floats: key k is `values[4k .. 4k+3]` (x, y, z, w). */
  readonly values: Float32Array;
}

/**
 * float4 keys at their own times (AAF channels, Meteor frames, glTF LINEAR and STEP samplers).
 * Before the first key the curve holds key 0, from the last key on it holds the last key; equal
 * neighbouring times are a step (the later key wins from that time on). Between keys k and k+1:
 * `linear` interpolates (lerp; rotations along the shorter arc between the two keys as stored,
 * glTF 2.0 Appendix C), `step` holds key k (on a key's exact time, that key).
 */
export interface KeyedKeys {
  readonly encoding: 'keyed';
  /** Seconds, non-decreasing, finite; at least one. */
  readonly times: Float32Array;
  /** `4 × times.length` floats: key k is `values[4k .. 4k+3]`. */
  readonly values: Float32Array;
  /** Default `linear`. */
  readonly interpolation?: 'linear' | 'step';
}

/**
 * Cubic Hermite keys at their own times (glTF CUBICSPLINE samplers, glTF 2.0 Appendix C): per key
 * an in-tangent, a value and an out-tangent, each a float4. Between keys k and k+1, with
 * `d = times[k+1] − times[k]` and `s = (t − times[k]) / d`, the sample is
 * `(2s³−3s²+1)·v_k + d(s³−2s²+s)·out_k + (−2s³+3s²)·v_k+1 + d(s³−s²)·in_k+1`; rotations are
 * normalised after evaluation. Before the first key the curve holds value 0, from the last key on
 * the last value, on a key's exact time that value as stored (tangents never leak out).
 */
export interface CubicKeys {
  readonly encoding: 'cubic';
  /** Seconds, non-decreasing, finite; at least one. */
  readonly times: Float32Array;
  /**
   * `12 × times.length` floats: key k's in-tangent at `12k`, value at `12k + 4`, out-tangent at
   * `12k + 8` (x y z w each; tangents in value units per second).
   */
  readonly values: Float32Array;
}

/**
 * Up to 4 scalar Unity AnimationCurves, lane i giving component i of the float4 sample; missing
 * lanes sample 0 (MRTK, spec mrtk.md §5–§6). Evaluated with Unity's rules; Bool curves as exact
 * steps tested `> 0.5`; Rotation curves raw or hemisphere-aligned and normalised
 * (`SampleOptions.rotation`).
 */
export interface UnityKeys {
  readonly encoding: 'unity';
  /** 1–4 curves: x, y, z, w. */
  readonly lanes: readonly UnityCurve[];
}

/** A curve's keys in one of the key encodings, told apart by `encoding`. */
export type CurveKeys = StaticKeys | UniformKeys | KeyedKeys | CubicKeys | UnityKeys;

/**
 * One animated float4 channel of a clip (after Nebula3 `CoreAnimation::AnimCurve`).
 * An inactive curve samples with count 0 (spec nebula.md §3.3).
 */
export interface AnimCurve {
  readonly curveType: CurveType;
  readonly target: CurveTarget;
  readonly active: boolean;
  readonly keys: CurveKeys;
}

/** A `StaticKeys` holding `x, y, z, w`. */
export function staticKeys(x: number, y: number, z: number, w: number): StaticKeys {
  return { encoding: 'static', value: Float32Array.of(x, y, z, w) };
}
