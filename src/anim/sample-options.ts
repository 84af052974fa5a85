/**
 * How rotations are interpolated. `nlerp` (default): normalised lerp along the shortest arc.
 * `slerp`: DirectXMath-style slerp along the shortest arc, not renormalised (spec nebula.md §3.4).
 * `raw`: component-wise lerp of the keys as stored, no sign test, no normalisation — only for
 * formats whose reference does that (MRTK, spec mrtk.md §4.3) and only where a sampler offers it.
 *
 * Unity-curve clips (MRTK) evaluate each quaternion component as its own AnimationCurve, so there
 * are two modes: `raw` is MRTK exactly (un-normalised, passing near zero across q → −q key
 * flips); `nlerp` and `slerp` both mean corrected: hemisphere-aligned per segment, normalised, a
 * zero quaternion becoming identity.
 */
export type RotationMode = 'nlerp' | 'slerp' | 'raw';

/** Options of `AnimSampler.sample` and of jobs that sample. */
export interface SampleOptions {
  /** Default `nlerp`. */
  rotation?: RotationMode;
  /**
   * Nebula3 `SampleType`: `linear` (default) interpolates between keys k0 and k1; `step` returns
   * key k0 as stored (spec nebula.md §3.3).
   */
  sampleType?: 'linear' | 'step';
  /**
   * Playback speed factor applied to Velocity curves as (f, f, f, 1), as Nebula3's
   * `AnimSampleMixInfo.velocityScale` does (spec nebula.md §3.3). Default 1.
   */
  timeFactor?: number;
}

/** Options of `AnimMixer.mix`. */
export interface MixOptions {
  /** Default `nlerp`; rotations always take the shortest arc. */
  rotation?: Exclude<RotationMode, 'raw'>;
}

/** Float4 samples and sample counts of one clip layout (the shape of `AnimSampleBuffer`). */
export interface SampleArrays {
  /** `4 × curveCount` floats: curve i is x y z w at `4i`. */
  readonly samples: Float32Array;
  /** One per curve: 0 = no valid sample, 1 = sampled, more = mixed from that many. */
  readonly counts: Uint8Array;
}
