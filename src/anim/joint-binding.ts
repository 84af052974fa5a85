import type { AnimCurve } from './curve.js';
import type { Skeleton } from './skeleton.js';

/** The joint properties a binding maps, in their order in `JointBinding.curves`. */
export const JOINT_PROPERTIES = ['translation', 'rotation', 'scale'] as const;

/**
 * Which curve of a clip drives which joint property: `curves[3j + p]` is the index of the curve
 * giving joint j's translation (p = 0), rotation (1) or scale (2), or −1 when no curve does.
 * The shape of the samples a binding reads: float4 per curve, translation and scale x y z,
 * rotation quaternion x y z w.
 */
export interface JointBinding {
  readonly skeleton: Skeleton;
  /** Curves of the clip (the length of the sample buffers it reads). */
  readonly curveCount: number;
  /** `Int32Array(3 × skeleton.size)`. */
  readonly curves: Int32Array;
}

/**
 * Maps a clip's curves to a skeleton's joints. The rule: a curve drives joint j's property p when
 * `curve.target.joint` is the joint's name and `curve.target.property` is `translation`,
 * `rotation` or `scale`; the first such curve wins. Curves for other joints or properties (e.g.
 * Nebula velocity) are ignored. Joints and properties with no curve — and, when sampling, curves
 * whose sample count is 0 (inactive, or invalid after a mix) — use the skeleton's rest pose.
 */
export function bindJoints(curves: readonly Pick<AnimCurve, 'target'>[], skeleton: Skeleton): JointBinding {
  const out = new Int32Array(3 * skeleton.size).fill(-1);
  const jointIndex = new Map<string, number>();
  skeleton.joints.forEach((j, i) => {
    if (!jointIndex.has(j.name)) jointIndex.set(j.name, i);
  });
  curves.forEach((c, i) => {
    const j = c.target.joint === null ? undefined : jointIndex.get(c.target.joint);
    const p = (JOINT_PROPERTIES as readonly string[]).indexOf(c.target.property);
    if (j !== undefined && p >= 0 && out[3 * j + p] === -1) out[3 * j + p] = i;
  });
  return { skeleton, curveCount: curves.length, curves: out };
}
