import type { Buffer, Document, Node } from '@gltf-transform/core';
import type { SkinnedMesh } from '../anim/index.js';
import { invertMatrix4 } from '../core/sample-many-inverse-bind.js';

/**
 * One glTF skin and skinned mesh per `SkinnedMesh` (Meteor `.skc`), on a root-level node named
 * after the mesh: the skin's joints are every skeleton node (in skeleton order, so vertex joint
 * indices are skeleton joint indices) and its inverse bind matrices the inverses of their rest
 * model-space matrices (the bind pose is the rest pose); attributes POSITION, TEXCOORD_0, and
 * JOINTS_n / WEIGHTS_n in sets of four influences (a joint named twice in a vertex merged, unused
 * slots joint 0, weight 0), weights rescaled to sum to 1 in float32 (glTF 2.0 §3.7.3.3). A
 * skeleton with several roots is gathered under one new root node `skeleton`, the skin's common root.
 * Meshes without vertices or triangles are left out.
 * @param skeleton node of skeleton joint i at index i, already in the hierarchy
 * @returns the nodes to add to the scene: that common root (when made), then the mesh nodes
 * @throws UsageError when a joint's rest model-space matrix is singular (no inverse bind matrix)
 */
export function addSkinnedMeshes(document: Document, buffer: Buffer, meshes: readonly SkinnedMesh[], skeleton: readonly Node[]): Node[] {
  if (meshes.length === 0) return [];
  const ibm = new Float32Array(16 * skeleton.length);
  skeleton.forEach((node, i) => invertMatrix4(node.getWorldMatrix(), 0, ibm, 16 * i));
  const skin = document.createSkin('skeleton').setInverseBindMatrices(document.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
  for (const node of skeleton) skin.addJoint(node);
  // The joints of a skin need a common root (glTF 2.0 §5.29, validator SKIN_NO_COMMON_ROOT): a
  // skeleton with several roots (a .bnc whose dummies are roots too) gets one above them.
  const roots = skeleton.filter((n) => n.getParentNode() === null);
  let common: Node[] = [];
  if (roots.length === 1) skin.setSkeleton(roots[0]!);
  else if (roots.length > 1) {
    const root = document.createNode('skeleton');
    for (const r of roots) root.addChild(r);
    skin.setSkeleton(root);
    common = [root];
  }
  // glTF accessors hold at least one element (glTF 2.0 §5.1.1): a mesh without triangles draws nothing.
  const meshNodes = meshes.filter((mesh) => mesh.positions.length > 0 && mesh.indices.length > 0).map((mesh) => {
    const n = mesh.positions.length / 3;
    const accessor = (type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR', array: Float32Array | Uint16Array | Uint32Array) =>
      document.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    const primitive = document
      .createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', mesh.positions))
      .setAttribute('TEXCOORD_0', accessor('VEC2', mesh.uvs))
      .setIndices(accessor('SCALAR', mesh.indices));
    const sets = Math.ceil(mesh.influences / 4);
    const joints = Array.from({ length: sets }, () => new Uint16Array(4 * n));
    const weights = Array.from({ length: sets }, () => new Float32Array(4 * n));
    for (let v = 0; v < n; v++) {
      const influences = vertexInfluences(mesh, v);
      influences.forEach(([joint, w], k) => {
        joints[k >> 2]![4 * v + (k & 3)] = joint;
        weights[k >> 2]![4 * v + (k & 3)] = w;
      });
    }
    for (let s = 0; s < sets; s++) primitive.setAttribute(`JOINTS_${s}`, accessor('VEC4', joints[s]!)).setAttribute(`WEIGHTS_${s}`, accessor('VEC4', weights[s]!));
    return document.createNode(mesh.name).setMesh(document.createMesh(mesh.name).addPrimitive(primitive)).setSkin(skin);
  });
  return [...common, ...meshNodes];
}

/**
 * Vertex `v`'s influences as glTF wants them: a joint named twice (a .skc line may list a bone
 * again) counts once with the weights added (validator ACCESSOR_JOINTS_INDEX_DUPLICATE), zero
 * weights are dropped, and the rest rescaled to sum to 1.
 */
function vertexInfluences(mesh: SkinnedMesh, v: number): [number, number][] {
  const byJoint = new Map<number, number>();
  for (let k = 0; k < mesh.influences; k++) {
    const w = mesh.weights[mesh.influences * v + k]!;
    const joint = mesh.joints[mesh.influences * v + k]!;
    if (w > 0) byJoint.set(joint, (byJoint.get(joint) ?? 0) + w);
  }
  let sum = 0;
  for (const w of byJoint.values()) sum += w;
  return [...byJoint].map(([joint, w]) => [joint, w / sum]);
}
