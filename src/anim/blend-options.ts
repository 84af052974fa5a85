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

/** One layer of a blend: a sample buffer in the pose layout and how it takes part. */
export interface BlendLayer {
  /** `4 × curveCount` floats and `curveCount` counts, in the pose layout. */
  readonly samples: SampleArrays;
  /** Blend weight (fades applied), finite and ≥ 0; above 1 extrapolates. */
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
