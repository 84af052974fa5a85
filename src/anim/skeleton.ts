import { UsageError } from '../errors.js';

/** A joint's local rest (bind) pose: translation x y z, rotation quaternion x y z w, scale x y z. */
export interface JointPose {
  translation: [number, number, number];
  rotation: [number, number, number, number];
  scale: [number, number, number];
}

/** One joint of a `Skeleton`: its name, parent and rest pose (local space). */
export interface Joint {
  name: string;
  /** Index of the parent joint, or -1 for a root. Always less than this joint's own index. */
  parent: number;
  rest: JointPose;
}

/**
 * A joint hierarchy with its rest pose. Parents precede children (checked here), so model-space
 * transforms can be composed in one pass in joint order, as ozz-animation's LocalToModelJob does.
 * Throws `UsageError` when a parent index is not smaller than its child's index.
 */
export class Skeleton {
  readonly joints: readonly Joint[];

  constructor(joints: Joint[]) {
    joints.forEach((j, i) => {
      if (!Number.isInteger(j.parent) || j.parent < -1 || j.parent >= i) {
        throw new UsageError(`joint ${i} "${j.name}": parent ${j.parent} must be -1 or a joint before it`);
      }
    });
    this.joints = joints;
  }

  /** Number of joints. */
  get size(): number {
    return this.joints.length;
  }

  /** Index of the first joint named `name`, or -1. */
  indexOf(name: string): number {
    return this.joints.findIndex((j) => j.name === name);
  }
}
