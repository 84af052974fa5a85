/** One curve's keys for keyframe reduction (`reduceKeys` and its twin `referenceReduceKeys`). */
export interface ReduceTrack {
  /** Seconds, finite and strictly increasing, at least one. */
  readonly times: Float32Array;
  /** `4 × times.length` floats; rotations unit quaternions x y z w (either sign: interpolation takes the shorter arc per key pair). */
  readonly values: Float32Array;
  /** Quaternions: slerped (glTF LINEAR) and compared by rotation angle. */
  readonly rotation: boolean;
  /** Held from key to key (glTF STEP) instead of interpolated. */
  readonly step: boolean;
  /** Largest error allowed, ≥ 0: a distance in the values' units (Euclidean over x y z w), or for rotations an angle in radians. */
  readonly tolerance: number;
  /**
   * Keeps the same keys as the track before it (a group, such as the morph target weights of one
   * glTF sampler): every member's spans must pass. The times must equal the previous track's.
   */
  readonly withPrevious?: boolean;
}

/** What keyframe reduction keeps of one `ReduceTrack`. */
export interface ReducedTrack {
  /** Indices of the kept keys, increasing: the first and the last (a constant track keeps key 0 alone). */
  readonly kept: Uint32Array;
  /**
   * The largest error of the kept keys against the track at its keys (and, for rotations, halfway
   * between them): a distance, or an angle in radians.
   */
  readonly error: number;
}
