import { Bone, Skeleton as ThreeSkeleton } from 'three';
import type { Skeleton } from 'animcore';
import { boneName } from './bone-name.js';

/**
 * A `THREE.Skeleton` of `THREE.Bone`s named after the joints (`boneName`), in joint order, parented
 * as the joints are and placed in the rest pose (position, quaternion x y z w, scale). Its root bones are
 * `bones.filter((b) => !(b.parent instanceof Bone))`; add them to the scene (or a `SkinnedMesh`).
 * `boneInverses` are the inverses of the rest pose's world matrices (with the roots at the origin).
 */
export function toThreeSkeleton(skeleton: Skeleton): ThreeSkeleton {
  const bones = skeleton.joints.map((joint) => {
    const bone = new Bone();
    bone.name = boneName(joint.name);
    bone.position.fromArray(joint.rest.translation);
    bone.quaternion.fromArray(joint.rest.rotation);
    bone.scale.fromArray(joint.rest.scale);
    return bone;
  });
  skeleton.joints.forEach((joint, i) => {
    if (joint.parent >= 0) bones[joint.parent]!.add(bones[i]!);
  });
  for (const bone of bones) if (bone.parent === null) bone.updateMatrixWorld(true);
  return new ThreeSkeleton(bones);
}
