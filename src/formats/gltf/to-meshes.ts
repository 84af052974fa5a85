import type { Accessor, Document, Node, Primitive } from '@gltf-transform/core';
import type { Mesh, Skeleton, SkinnedMesh } from '../../anim/index.js';
import { describeBadValue, firstBadValue } from '../value-range.js';
import { accessorFloats } from './accessor-values.js';
import { fail } from './json-fields.js';

const TRIANGLES = 4;

/**
 * The triangle meshes of the scene graph as the model holds meshes (one per primitive, named
 * `<mesh name or mesh<m>>` plus `/<p>` when a mesh has several primitives):
 * - on a node without a skin, a rigid `Mesh` carried by that node's joint: POSITION, NORMAL and
 *   TEXCOORD_0 as stored (quantized attributes decoded, missing ones 0), node-local;
 * - on a node with a skin, a `SkinnedMesh` whose positions are the vertices skinned in the rest
 *   pose (Σ weight · world(joint) · inverseBind · position, glTF 2.0 §3.7.3), so model space at
 *   rest as the model's skinned meshes are; joint indices are skeleton (node) indices, up to 8
 *   influences (JOINTS_0/1, WEIGHTS_0/1), weights rescaled to sum to 1.
 * Morph targets are not applied. Primitives that are not triangle lists, or lack POSITION (or, on
 * a skinned node, JOINTS_0/WEIGHTS_0), are left out with a warning. Every float the model takes
 * (positions, skinned at rest too, normals, texture coordinates, weights) must be a file value
 * (value-range.ts), else `FormatError` at the primitive's JSON pointer.
 */
export function gltfMeshes(document: Document, skeleton: Skeleton, warnings: string[]): { meshes: Mesh[]; skins: SkinnedMesh[] } {
  const root = document.getRoot();
  const nodes = root.listNodes();
  const meshIndex = new Map(root.listMeshes().map((m, i) => [m, i]));
  const skinIndex = new Map(root.listSkins().map((s, i) => [s, i]));
  const meshes: Mesh[] = [];
  const skins: SkinnedMesh[] = [];
  nodes.forEach((node, j) => {
    const mesh = node.getMesh();
    if (mesh === null) return;
    const primitives = mesh.listPrimitives();
    const base = mesh.getName() || `mesh${meshIndex.get(mesh)}`;
    const skin = node.getSkin();
    const skinning = skin === null ? null : skinningMatrices(nodes, skeleton, skinIndex.get(skin)!);
    primitives.forEach((primitive, p) => {
      const name = primitives.length > 1 ? `${base}/${p}` : base;
      const checked = <T extends ArrayLike<number>>(values: T, what: string): T => {
        const i = firstBadValue(values);
        if (i >= 0) fail(`/meshes/${meshIndex.get(mesh)}/primitives/${p}`, `${what} value ${i}: ${describeBadValue(values[i]!)}`, 'bad-value');
        return values;
      };
      const where = `node ${j} "${skeleton.joints[j]!.name}", mesh "${name}"`;
      const position = primitive.getAttribute('POSITION');
      if (primitive.getMode() !== TRIANGLES || position === null) {
        warnings.push(`${where}: ${position === null ? 'no POSITION' : `mode ${primitive.getMode()} is not a triangle list`}; left out`);
        return;
      }
      const n = position.getCount();
      if (position.getType() !== 'VEC3') fail(`/meshes/${meshIndex.get(mesh)}/primitives/${p}/attributes/POSITION`, `POSITION is ${position.getType()}; glTF 2.0 §3.7.2.1 requires VEC3`, 'bad-type');
      // glTF 2.0 §3.7.2.1: all attribute accessors of a primitive have the same count.
      for (const semantic of primitive.listSemantics()) {
        const count = primitive.getAttribute(semantic)!.getCount();
        if (count !== n) fail(`/meshes/${meshIndex.get(mesh)}/primitives/${p}/attributes/${semantic}`, `${count} elements, but POSITION has ${n}`, 'bad-count');
      }
      const indices = primitive.getIndices();
      const triangles = indices ? Uint32Array.from(indices.getArray() as ArrayLike<number>) : Uint32Array.from({ length: n }, (_, i) => i);
      // glTF 2.0 §3.7.2.1: every index names a vertex of the primitive.
      const outside = triangles.findIndex((v) => v >= n);
      if (outside >= 0) fail(`/meshes/${meshIndex.get(mesh)}/primitives/${p}/indices`, `index ${outside} is ${triangles[outside]}, beyond the ${n} vertices`, 'bad-index');
      const uvs = checked(attribute(primitive, 'TEXCOORD_0', 2, n), 'TEXCOORD_0');
      if (skinning === null) {
        const normals = checked(attribute(primitive, 'NORMAL', 3, n), 'NORMAL');
        meshes.push({ name, joint: j, positions: checked(accessorFloats(position).slice(), 'POSITION'), normals, uvs, uvSize: 2, indices: triangles });
        return;
      }
      const skinned = skinnedMesh(primitive, skinning, n);
      if (skinned === null) warnings.push(`${where}: a skinned node's primitive without JOINTS_0 and WEIGHTS_0; left out`);
      else skins.push({ name, uvs, indices: triangles, ...skinned, positions: checked(skinned.positions, 'POSITION skinned at rest'), weights: checked(skinned.weights, 'WEIGHTS') });
    });
  });
  return { meshes, skins };
}

/** A vertex attribute as floats (`size` per vertex), or zeros when the primitive has none. */
function attribute(primitive: Primitive, semantic: string, size: number, n: number): Float32Array {
  const a = primitive.getAttribute(semantic);
  return a === null || a.getElementSize() !== size ? new Float32Array(size * n) : accessorFloats(a).slice();
}

interface Skinning {
  /** Skeleton joint of each skin joint. */
  joints: Uint32Array;
  /** `16 × joints.length`: rest world(joint) · inverse bind, column-major. */
  matrices: Float64Array;
}

function skinningMatrices(nodes: readonly Node[], skeleton: Skeleton, s: number): Skinning {
  const skin = skeleton.skins[s]!;
  const matrices = new Float64Array(16 * skin.joints.length);
  skin.joints.forEach((joint, k) => {
    const world = nodes[joint]!.getWorldMatrix();
    const ibm = skin.inverseBindMatrices;
    for (let col = 0; col < 4; col++) {
      for (let row = 0; row < 4; row++) {
        let sum = 0;
        for (let i = 0; i < 4; i++) sum += world[4 * i + row]! * ibm[16 * k + 4 * col + i]!;
        matrices[16 * k + 4 * col + row] = sum;
      }
    }
  });
  return { joints: skin.joints, matrices };
}

/** Positions skinned at rest, influences and weights of one skinned primitive, or null without joints and weights. */
function skinnedMesh(primitive: Primitive, skinning: Skinning, n: number): Pick<SkinnedMesh, 'positions' | 'influences' | 'joints' | 'weights'> | null {
  const sets: [Accessor, Accessor][] = [];
  for (let set = 0; set < 2; set++) {
    const j = primitive.getAttribute(`JOINTS_${set}`);
    const w = primitive.getAttribute(`WEIGHTS_${set}`);
    if (j === null || w === null) break;
    sets.push([j, w]);
  }
  if (sets.length === 0) return null;
  const influences = 4 * sets.length;
  const joints = new Uint16Array(influences * n);
  const weights = new Float32Array(influences * n);
  sets.forEach(([j, w], set) => {
    const jointArray = j.getArray() as ArrayLike<number>;
    const weightArray = accessorFloats(w);
    for (let v = 0; v < n; v++) {
      for (let c = 0; c < 4; c++) {
        const k = jointArray[4 * v + c]!;
        const weight = weightArray[4 * v + c]!;
        const inSkin = k < skinning.joints.length && weight > 0;
        joints[influences * v + 4 * set + c] = inSkin ? skinning.joints[k]! : 0;
        weights[influences * v + 4 * set + c] = inSkin ? weight : 0;
      }
    }
  });
  const source = accessorFloats(primitive.getAttribute('POSITION')!);
  const positions = new Float32Array(3 * n);
  const m = skinning.matrices;
  const skinJoint = new Map(Array.from(skinning.joints, (joint, k) => [joint, k]));
  for (let v = 0; v < n; v++) {
    let sum = 0;
    for (let i = 0; i < influences; i++) sum += weights[influences * v + i]!;
    if (!(sum > 0)) {
      weights[influences * v] = 1; // no influence: the vertex follows skin joint 0
      joints[influences * v] = skinning.joints[0]!;
      sum = 1;
    }
    const x = source[3 * v]!, y = source[3 * v + 1]!, z = source[3 * v + 2]!;
    let px = 0, py = 0, pz = 0;
    for (let i = 0; i < influences; i++) {
      const w = (weights[influences * v + i]! /= sum);
      if (w === 0) continue;
      const o = 16 * skinJoint.get(joints[influences * v + i]!)!;
      px += w * (m[o]! * x + m[o + 4]! * y + m[o + 8]! * z + m[o + 12]!);
      py += w * (m[o + 1]! * x + m[o + 5]! * y + m[o + 9]! * z + m[o + 13]!);
      pz += w * (m[o + 2]! * x + m[o + 6]! * y + m[o + 10]! * z + m[o + 14]!);
    }
    positions.set([px, py, pz], 3 * v);
  }
  return { positions, influences, joints, weights };
}
