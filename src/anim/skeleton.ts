import { UsageError } from '../errors.js';
import { parentsFirstOrder } from './joint-order.js';
import type { Skin } from './skin.js';

/** A joint's local rest (bind) pose: translation x y z, rotation quaternion x y z w, scale x y z. */
export interface JointPose {
  translation: [number, number, number];
  rotation: [number, number, number, number];
  scale: [number, number, number];
}

/** One joint of a `Skeleton`: its name, parent and rest pose (local space). */
export interface Joint {
  name: string;
  /**
   * Index of the parent joint, or -1 for a root. Any joint index: a child may come before its
   * parent (glTF nodes are in file order; Blender writes children first).
   */
  parent: number;
  rest: JointPose;
  /**
   * Rest weights of the morph targets of the mesh this joint carries (glTF `node.weights`, else
   * `mesh.weights`, else 0 for each target, glTF 2.0 §3.7.2.2); absent when it carries none.
   */
  morphWeights?: readonly number[];
}

/**
 * A joint hierarchy with its rest pose (a glTF node tree; a Nebula, Meteor or AAF skeleton) and
 * the skins bound to it. The hierarchy may list joints in any order as long as it is acyclic;
 * `order` is the order to compose model-space transforms in one pass (parents before children),
 * as ozz-animation's LocalToModelJob walks its joints.
 * @throws UsageError when a parent is not -1 or a joint index, a joint is its own ancestor, or a
 *   skin names a joint that does not exist
 */
export class Skeleton {
  readonly joints: readonly Joint[];
  /**
   * Every joint index once, each parent before its children (`parentsFirstOrder`: index order,
   * each joint preceded by its ancestors not placed yet). A skeleton whose parents precede their
   * children (every format but glTF) has the order 0, 1, 2, ….
   */
  readonly order: Uint32Array;
  /** Whether `order` is 0, 1, 2, … (every parent index is smaller than its child's). */
  readonly inIndexOrder: boolean;
  /** Joint subsets with inverse bind matrices (glTF skins); empty for formats without them. */
  readonly skins: readonly Skin[];

  constructor(joints: Joint[], skins: Skin[] = []) {
    const n = joints.length;
    joints.forEach((j, i) => {
      if (!Number.isInteger(j.parent) || j.parent < -1 || j.parent >= n || j.parent === i) {
        throw new UsageError(`joint ${i} "${j.name}": parent ${j.parent} must be -1 or the index of another joint (0 to ${n - 1})`);
      }
    });
    this.order = Uint32Array.from(parentsFirstOrder(joints));
    if (this.order.length < n) {
      const placed = new Set(this.order);
      const i = joints.findIndex((_, j) => !placed.has(j));
      throw new UsageError(`joint ${i} "${joints[i]!.name}" is its own ancestor (the parent links form a cycle)`);
    }
    this.inIndexOrder = this.order.every((j, i) => j === i);
    skins.forEach((skin, s) => {
      if (skin.inverseBindMatrices.length !== 16 * skin.joints.length) {
        throw new UsageError(`skin ${s} "${skin.name}": ${skin.inverseBindMatrices.length} floats of inverse bind matrices, expected 16 × ${skin.joints.length}`);
      }
      const bad = skin.joints.find((j) => j >= n);
      if (bad !== undefined) throw new UsageError(`skin ${s} "${skin.name}": joint ${bad} is not a joint of this ${n}-joint skeleton`);
      if (skin.skeleton < -1 || skin.skeleton >= n) throw new UsageError(`skin ${s} "${skin.name}": skeleton root ${skin.skeleton} is not -1 or a joint index`);
    });
    this.joints = joints;
    this.skins = skins;
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
