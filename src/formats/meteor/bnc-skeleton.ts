import { Skeleton, type Joint } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import { position4, rotation4 } from './axes.js';
import type { BncDocument, BncNode } from './read-bnc.js';

/** A `Skeleton` built from a `.bnc`, and where each file node landed in it. */
export interface BncSkeleton {
  skeleton: Skeleton;
  /** Joint index of bone i. */
  boneJoints: number[];
  /** Joint index of dummy i. */
  dummyJoints: number[];
}

/**
 * The skeleton of a `.bnc` (spec meteor.md §4): one joint per bone and dummy, named as in the
 * file, rest pose `T(pivot) · R(quaternion)` with scale 1. Joints are in file order (bones, then
 * dummies) except that a node whose parent comes later is moved after it, so parents precede
 * children (for P0: `d_base` first, as the root bone `b` hangs from it, and `d_wpnL` after its
 * parent `d_wpnLP`).
 * @throws UsageError for a cycle (`readBnc` rejects those with a FormatError first)
 */
export function bncSkeleton(bnc: BncDocument, mirrorYZ: boolean): BncSkeleton {
  const nodes: BncNode[] = [...bnc.bones, ...bnc.dummies];
  const key = (n: BncNode['parent']) => (n === null ? -1 : n.kind === 'bone' ? n.index : bnc.bones.length + n.index);
  const jointOf = new Array<number>(nodes.length).fill(-1);
  const joints: Joint[] = [];
  while (joints.length < nodes.length) {
    const before = joints.length;
    nodes.forEach((n, i) => {
      const parent = key(n.parent);
      if (jointOf[i] !== -1 || (parent >= 0 && jointOf[parent] === -1)) return;
      jointOf[i] = joints.length;
      joints.push({
        name: n.name,
        parent: parent < 0 ? -1 : jointOf[parent]!,
        rest: {
          translation: position4(n.pivot, 0, mirrorYZ).slice(0, 3) as [number, number, number],
          rotation: rotation4(n.quaternion, 0, mirrorYZ),
          scale: [1, 1, 1],
        },
      });
    });
    if (joints.length === before) throw new UsageError('the .bnc hierarchy has a cycle (readBnc rejects these)');
  }
  return {
    skeleton: new Skeleton(joints),
    boneJoints: jointOf.slice(0, bnc.bones.length),
    dummyJoints: jointOf.slice(bnc.bones.length),
  };
}
