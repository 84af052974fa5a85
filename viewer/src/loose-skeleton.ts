import { type AnimClip, Skeleton } from 'animcore';

/**
 * For clips without a skeleton (a Nebula animation opened alone): one root joint per joint the
 * curves name, in first-use order, at the identity rest pose, so the viewer can still show each
 * joint's motion (drawn unconnected, with axes for its rotation).
 */
export function looseSkeleton(clip: AnimClip): Skeleton {
  const names = [...new Set(clip.curves.flatMap((c) => (c.target.joint === null ? [] : [c.target.joint])))];
  return new Skeleton(names.map((name) => ({ name, parent: -1, rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })));
}
