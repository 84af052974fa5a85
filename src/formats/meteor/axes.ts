import type { SourceAxes } from '../../anim/index.js';

/** File space (spec meteor.md §2): right-handed, Z-up, as 3ds Max exported it. */
export const METEOR_FILE_AXES: SourceAxes = { up: 'z', handedness: 'right', basis: 'spec meteor.md §2, 3ds Max export verified against the skin' };

/** After the game's y↔z mirror (`mirrorYZ`): Unity's Y-up, left-handed space (spec meteor.md §2). */
export const METEOR_MIRRORED_AXES: SourceAxes = { up: 'y', handedness: 'left', basis: "spec meteor.md §2, the game's Unity conversion" };

/**
 * File space → model conventions (spec meteor.md §2). Files are right-handed, Z-up, quaternions
 * stored w x y z; the model stores x y z w. With `mirrorYZ` the game's own Unity conversion is
 * applied for Y-up consumers: positions `(x, y, z) → (x, z, y)` and rotations `(w, x, y, z) →
 * (−x, −z, −y, w)` (x y z w) — the y↔z mirror, which also flips handedness.
 */
export interface AxisOptions {
  /** Default false: keep file space. */
  mirrorYZ?: boolean;
}

/** A file position (x y z at `src[i]`) as a model float4 (w = 0). */
export function position4(src: ArrayLike<number>, i: number, mirrorYZ: boolean): [number, number, number, number] {
  const x = src[i]!, y = src[i + 1]!, z = src[i + 2]!;
  return mirrorYZ ? [x, z, y, 0] : [x, y, z, 0];
}

/** A file quaternion (w x y z at `src[i]`) as a model quaternion x y z w. */
export function rotation4(src: ArrayLike<number>, i: number, mirrorYZ: boolean): [number, number, number, number] {
  const w = src[i]!, x = src[i + 1]!, y = src[i + 2]!, z = src[i + 3]!;
  return mirrorYZ ? [-x, -z, -y, w] : [x, y, z, w];
}
