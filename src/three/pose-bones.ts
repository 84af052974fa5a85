import { Bone } from 'three';

/**
 * Sets each bone's `matrixWorld` to the world matrix of its joint: the root's parent's world matrix
 * · the joint's model-space matrix (`model`: 16 floats per joint, column-major, in joint order;
 * `bones[j]` the bone of joint j, or undefined). Bones are flagged `matrixWorldNeedsUpdate` so that
 * objects attached to them follow; their `position`/`quaternion`/`scale` are not written.
 */
export function poseBones(bones: readonly (Bone | undefined)[], model: Float32Array): void {
  const holder = bones.find((b) => b !== undefined && !(b.parent instanceof Bone))?.parent ?? null;
  holder?.updateWorldMatrix(true, false);
  bones.forEach((bone, j) => {
    if (bone === undefined) return;
    bone.matrixWorld.fromArray(model, 16 * j);
    if (holder !== null) bone.matrixWorld.premultiply(holder.matrixWorld);
    bone.matrixWorldNeedsUpdate = true;
  });
}

/** The bones of `bones` matched to joint names by `boneName`, set to take `poseBones` (no auto updates). */
export function bonesByJoint(jointBoneNames: readonly string[], bones: readonly Bone[]): (Bone | undefined)[] {
  const byName = new Map(bones.map((b) => [b.name, b]));
  return jointBoneNames.map((name) => {
    const bone = byName.get(name);
    if (bone) {
      bone.matrixAutoUpdate = false;
      bone.matrixWorldAutoUpdate = false;
    }
    return bone;
  });
}
