import { UsageError } from '../errors.js';
import type { SampleArrays } from './sample-options.js';

/**
 * How the normal layers of a blend combine (spec sequencer.md §3). `priority`: Nebula3's
 * sequencer — the first active layer as is, each following one mixed in with its weight.
 * `weighted`: ozz-animation `BlendingJob` / three.js `AnimationMixer` — a weighted mean, the rest
 * pose filling up to the threshold τ.
 */
export type BlendRule = 'priority' | 'weighted';

/** `normal` layers are blended by the rule; `additive` ones add their delta on top (spec §4). */
export type BlendMode = 'normal' | 'additive';

/** The largest blend weight: the largest float32, as the kernel stores weights. */
export const MAX_WEIGHT = 3.4028234663852886e38;

/**
 * Refuses a weight the kernels cannot hold: not in [`min`, `MAX_WEIGHT`] (NaN, ±Infinity, or a
 * float64 beyond float32, which the kernels would store as Infinity and blend into NaN).
 * @throws UsageError naming `name`
 */
export function checkWeight(name: string, weight: number, min = -MAX_WEIGHT): void {
  if (!(weight >= min && weight <= MAX_WEIGHT)) throw weightError(name, weight, min);
}

/**
 * `checkWeight` over `weights[0 … n − 1]`, the name built only for the one refused (a job's
 * weights are checked every frame).
 * @throws UsageError naming `name[i]`, or `name` when it holds fewer than `n` numbers
 */
export function checkWeights(name: string, weights: ArrayLike<number>, n: number, min = -MAX_WEIGHT): void {
  if (weights.length < n) throw new UsageError(`${name} holds ${weights.length} numbers, need ${n}`);
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (!(w >= min && w <= MAX_WEIGHT)) throw weightError(`${name}[${i}]`, w, min);
  }
}

const weightError = (name: string, weight: number, min: number) => new UsageError(`${name} must be in [${min}, ${MAX_WEIGHT}] (float32), got ${weight}`);

/**
 * The range of |Δq|² in which an additive rotation delta keeps its length (spec sequencer.md §4
 * is silent on deltas that are not unit: three.js keeps their length, and so rotations written
 * with few digits blend as in three.js); beyond it, far from unit length (a glTF key of
 * |q| = 1.4e20), the delta is normalised (zero: identity), as ozz normalises every delta: its
 * length would scale the pose, and two such overflow float32. Twin of DELTA_MIN_SQ, DELTA_MAX_SQ
 * in assembly/blend.ts.
 */
export const DELTA_LENGTH_SQ = [0.5, 2] as const;

/** One layer of a blend: a sample buffer in the pose layout and how it takes part. */
export interface BlendLayer {
  /** `4 × curveCount` floats and `curveCount` counts, in the pose layout. */
  readonly samples: SampleArrays;
  /** Blend weight (fades applied) in [0, `MAX_WEIGHT`]; above 1 extrapolates. */
  readonly weight: number;
  /** Per-curve mask weight in [0, 1]; absent = 1 everywhere. 0 makes the layer's curve inactive. */
  readonly mask?: Float32Array | null;
  /** Default `normal`. */
  readonly mode?: BlendMode;
  /** `additive` only: the same clip sampled at its reference time (the pose the delta is taken against). */
  readonly reference?: SampleArrays;
}

/** Options of a layered blend (`referenceBlend` and the sequencer's blend): rule and rotation blend. */
export interface BlendOptions {
  /** Default `priority`. */
  rule?: BlendRule;
  /** Rotation blend, always along the shortest arc. Default `nlerp`. */
  rotation?: 'nlerp' | 'slerp';
  /** `weighted` only: τ ≥ 0; the rest pose fills up to this total weight (0 disables the fill). Default 1. */
  threshold?: number;
}
