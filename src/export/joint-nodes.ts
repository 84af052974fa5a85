import type { Document, Node } from '@gltf-transform/core';
import { type AnimClip, type AnimResource, JOINT_PROPERTIES, restValue } from '../anim/index.js';

/** The glTF nodes of a resource's joints. */
export interface JointNodes {
  /** Node of the first joint of each name (skeleton joints first, then curve-only joints). */
  readonly byName: ReadonlyMap<string, Node>;
  /** Node of skeleton joint i (empty without a skeleton). */
  readonly skeleton: readonly Node[];
  /** Nodes without a parent, in creation order (the scene's children). */
  readonly roots: readonly Node[];
}

/** Whether a curve property is one a glTF channel can drive (`translation`, `rotation`, `scale`). */
export function isNodeProperty(property: string): property is (typeof JOINT_PROPERTIES)[number] {
  return (JOINT_PROPERTIES as readonly string[]).includes(property);
}

/**
 * One glTF node per joint, named by the joint: the skeleton as a node hierarchy with its rest pose
 * (translation, rotation normalised — a zero quaternion is identity —, scale), then one root-level node for every other `target.joint` that a
 * translation, rotation or scale curve of `clips` drives (resources without a skeleton, such as
 * MRTK's camera and hand joints), its rest TRS taken from the first such curve's `restValue`
 * (rotations normalised; a zero quaternion is identity) and identity elsewhere.
 */
export function jointNodes(document: Document, resource: AnimResource, clips: readonly AnimClip[]): JointNodes {
  const byName = new Map<string, Node>();
  const roots: Node[] = [];
  // Rest rotations are normalised: files store them to a few decimals (AAF scenes, .bnc), and glTF
  // node rotations must be unit quaternions (glTF 2.0 §5.25, validator ROTATION_NON_UNIT).
  const skeleton = (resource.skeleton?.joints ?? []).map((j) =>
    document.createNode(j.name).setTranslation(j.rest.translation).setRotation(unitQuaternion([...j.rest.rotation])).setScale(j.rest.scale),
  );
  resource.skeleton?.joints.forEach((j, i) => {
    const node = skeleton[i]!;
    if (j.parent < 0) roots.push(node);
    else skeleton[j.parent]!.addChild(node);
    if (!byName.has(j.name)) byName.set(j.name, node);
  });
  const curveOnly = new Set<string>();
  const restTaken = new Set<string>();
  for (const clip of clips) {
    for (const curve of clip.curves) {
      const { joint, property } = curve.target;
      if (joint === null || !isNodeProperty(property) || restTaken.has(`${joint}\0${property}`)) continue;
      let node = byName.get(joint);
      if (node && !curveOnly.has(joint)) continue; // a skeleton joint: its rest pose is set
      if (!node) {
        node = document.createNode(joint);
        byName.set(joint, node);
        roots.push(node);
        curveOnly.add(joint);
      }
      restTaken.add(`${joint}\0${property}`);
      const v = Array.from(restValue(curve.keys));
      if (property === 'rotation') node.setRotation(unitQuaternion(v));
      else if (property === 'translation') node.setTranslation([v[0]!, v[1]!, v[2]!]);
      else node.setScale([v[0]!, v[1]!, v[2]!]);
    }
  }
  return { byName, skeleton, roots };
}

/** `v` as a unit quaternion; shorter than 1e-6 (no direction worth keeping, as in the kernels) → identity. */
function unitQuaternion(v: number[]): [number, number, number, number] {
  const len = Math.hypot(v[0]!, v[1]!, v[2]!, v[3]!);
  return len < 1e-6 ? [0, 0, 0, 1] : [v[0]! / len, v[1]! / len, v[2]! / len, v[3]! / len];
}
