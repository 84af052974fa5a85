import type { Document, mat4, vec3, vec4 } from '@gltf-transform/core';
import { type Joint, Skeleton, type Skin } from '../../anim/index.js';
import { accessorFloats } from './accessor-values.js';
import { type GltfCollections, morphTargetCount } from './check-document.js';

/**
 * The node hierarchy as a `Skeleton`: every node, in index order, named `names[i]`, with its
 * parent (children may come before their parents) and its rest transform — translation,
 * rotation, scale, or its `matrix` decomposed (as glTF-Transform and three.js decompose it; a
 * matrix with shear cannot be a TRS and is reported in `warnings`) — and, for nodes whose mesh has
 * morph targets, their rest weights (`node.weights`, else `mesh.weights`, else 0). Skins keep their
 * joint lists (node indices) and inverse bind matrices (identity when the file has none).
 */
export function gltfSkeleton(document: Document, c: GltfCollections, names: readonly string[], warnings: string[]): Skeleton {
  const root = document.getRoot();
  const nodes = root.listNodes();
  const indexOf = new Map(nodes.map((n, i) => [n, i]));
  const joints: Joint[] = nodes.map((node, i) => {
    const def = c.nodes![i]!;
    if (def.matrix !== undefined && !isTrs(def.matrix as number[], node.getMatrix())) {
      warnings.push(`node ${i} "${names[i]}": its matrix has shear, which a translation/rotation/scale rest pose cannot hold; the nearest TRS is used`);
    }
    const joint: Joint = {
      name: names[i]!,
      parent: indexOf.get(node.getParentNode()!) ?? -1,
      rest: { translation: [...node.getTranslation()] as vec3, rotation: [...node.getRotation()] as vec4, scale: [...node.getScale()] as vec3 },
    };
    const targets = morphTargetCount(c, def);
    if (targets > 0) {
      const mesh = c.meshes![def.mesh as number]!;
      const weights = (def.weights ?? mesh.weights) as number[] | undefined;
      joint.morphWeights = Array.from({ length: targets }, (_, k) => weights?.[k] ?? 0);
    }
    return joint;
  });
  const skins: Skin[] = root.listSkins().map((skin, s) => {
    const members = skin.listJoints().map((n) => indexOf.get(n)!);
    const ibm = skin.getInverseBindMatrices();
    const matrices = new Float32Array(16 * members.length);
    if (ibm) matrices.set(accessorFloats(ibm).subarray(0, matrices.length));
    else for (let k = 0; k < members.length; k++) matrices.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 16 * k);
    const rootNode = skin.getSkeleton();
    return { name: skin.getName() || `skin${s}`, joints: Uint32Array.from(members), inverseBindMatrices: matrices, skeleton: rootNode ? indexOf.get(rootNode)! : -1 };
  });
  return new Skeleton(joints, skins);
}

/** Whether the composed TRS reproduces `matrix` (relative 1e-5). */
function isTrs(matrix: readonly number[], composed: mat4): boolean {
  const scale = Math.max(1, ...matrix.map(Math.abs));
  return matrix.every((v, i) => Math.abs(v - composed[i]!) <= 1e-5 * scale);
}
