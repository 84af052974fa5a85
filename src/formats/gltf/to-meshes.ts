import { MathUtils, type mat4 } from '@gltf-transform/core';
import type { Mesh, Skeleton, SkinnedMesh } from '../../anim/index.js';
import { describeBadValue, firstBadValue } from '../value-range.js';
import { type AccessorArray, readAccessor, readAccessorFloats } from './accessor-values.js';
import { type GltfCollections, TYPE_COMPONENTS } from './check-document.js';
import { fail, type JsonObject } from './json-fields.js';
import { nodeParents } from './to-skeleton.js';

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
 * Morph targets are not applied. Primitives that are not triangle lists, lack POSITION (or, on
 * a skinned node, JOINTS_0/WEIGHTS_0) or are Draco-compressed are left out with a warning. Every float the model takes
 * (positions, skinned at rest too, normals, texture coordinates, weights) must be a file value
 * (value-range.ts), else `FormatError` at the primitive's JSON pointer.
 */
export function gltfMeshes(c: GltfCollections, buffers: readonly Uint8Array[], skeleton: Skeleton, warnings: string[]): { meshes: Mesh[]; skins: SkinnedMesh[] } {
  const meshes: Mesh[] = [];
  const skins: SkinnedMesh[] = [];
  const floats = (i: number) => readAccessorFloats(c, buffers, i);
  const worlds = new WorldMatrices(c, skeleton);
  c.nodes!.forEach((node, j) => {
    if (node.mesh === undefined) return;
    const m = node.mesh as number;
    const mesh = c.meshes![m]!;
    const primitives = mesh.primitives as JsonObject[];
    const base = typeof mesh.name === 'string' && mesh.name !== '' ? mesh.name : `mesh${m}`;
    const skinning = node.skin === undefined ? null : skinningMatrices(worlds, skeleton, node.skin as number);
    primitives.forEach((primitive, p) => {
      const name = primitives.length > 1 ? `${base}/${p}` : base;
      const pointer = `/meshes/${m}/primitives/${p}`;
      const checked = <T extends ArrayLike<number>>(values: T, what: string): T => {
        const i = firstBadValue(values);
        if (i >= 0) fail(pointer, `${what} value ${i}: ${describeBadValue(values[i]!)}`, 'bad-value');
        return values;
      };
      const where = `node ${j} "${skeleton.joints[j]!.name}", mesh "${name}"`;
      const attributes = primitive.attributes as Record<string, number>;
      const position = attributes.POSITION;
      const mode = (primitive.mode as number | undefined) ?? TRIANGLES;
      if ((primitive.extensions as JsonObject | undefined)?.KHR_draco_mesh_compression !== undefined) {
        warnings.push(`${where}: compressed with Draco (KHR_draco_mesh_compression), which animcore does not decode; left out (rewriteGltf keeps it as it is)`);
        return;
      }
      if (mode !== TRIANGLES || position === undefined) {
        warnings.push(`${where}: ${position === undefined ? 'no POSITION' : `mode ${mode} is not a triangle list`}; left out`);
        return;
      }
      const accessors = c.accessors!;
      const n = accessors[position]!.count as number;
      if (accessors[position]!.type !== 'VEC3') fail(`${pointer}/attributes/POSITION`, `POSITION is ${String(accessors[position]!.type)}; glTF 2.0 §3.7.2.1 requires VEC3`, 'bad-type');
      // glTF 2.0 §3.7.2.1: all attribute accessors of a primitive have the same count.
      for (const [semantic, a] of Object.entries(attributes)) {
        const count = accessors[a]!.count as number;
        if (count !== n) fail(`${pointer}/attributes/${semantic}`, `${count} elements, but POSITION has ${n}`, 'bad-count');
      }
      const triangles = primitive.indices !== undefined ? Uint32Array.from(readAccessor(c, buffers, primitive.indices as number)) : Uint32Array.from({ length: n }, (_, i) => i);
      // glTF 2.0 §3.7.2.1: every index names a vertex of the primitive.
      const outside = triangles.findIndex((v) => v >= n);
      if (outside >= 0) fail(`${pointer}/indices`, `index ${outside} is ${triangles[outside]}, beyond the ${n} vertices`, 'bad-index');
      /** A vertex attribute as floats (`size` per vertex), or zeros when the primitive has none of that size. */
      const attribute = (semantic: string, size: number): Float32Array => {
        const a = attributes[semantic];
        return a === undefined || TYPE_COMPONENTS[accessors[a]!.type as string] !== size ? new Float32Array(size * n) : floats(a).slice();
      };
      const uvs = checked(attribute('TEXCOORD_0', 2), 'TEXCOORD_0');
      if (skinning === null) {
        const normals = checked(attribute('NORMAL', 3), 'NORMAL');
        meshes.push({ name, joint: j, positions: checked(floats(position).slice(), 'POSITION'), normals, uvs, uvSize: 2, indices: triangles });
        return;
      }
      const sets: [AccessorArray, Float32Array][] = [];
      for (let set = 0; set < 2; set++) {
        const joints = attributes[`JOINTS_${set}`];
        const weights = attributes[`WEIGHTS_${set}`];
        if (joints === undefined || weights === undefined) break;
        sets.push([readAccessor(c, buffers, joints), floats(weights)]);
      }
      const skinned = sets.length === 0 ? null : skinnedMesh(sets, floats(position), skinning, n);
      if (skinned === null) warnings.push(`${where}: a skinned node's primitive without JOINTS_0 and WEIGHTS_0; left out`);
      else skins.push({ name, uvs, indices: triangles, ...skinned, positions: checked(skinned.positions, 'POSITION skinned at rest'), weights: checked(skinned.weights, 'WEIGHTS') });
    });
  });
  return { meshes, skins };
}

interface Skinning {
  /** Skeleton joint of each skin joint. */
  joints: Uint32Array;
  /** `16 × joints.length`: rest world(joint) · inverse bind, column-major. */
  matrices: Float64Array;
}

/**
 * Each node's rest world matrix, made on first use: the root's local matrix times each descendant's
 * on the way down, as glTF-Transform's `Node.getWorldMatrix` multiplies them (gl-matrix order), so
 * the skinned rest positions stay what its document model gave.
 */
class WorldMatrices {
  private readonly parents: Int32Array;
  private readonly worlds: (mat4 | undefined)[] = [];

  constructor(c: GltfCollections, private readonly skeleton: Skeleton) {
    this.parents = nodeParents(c);
  }

  /** Rest world matrix of node `i`. */
  of(i: number): mat4 {
    const known = this.worlds[i];
    if (known) return known;
    const { translation, rotation, scale } = this.skeleton.joints[i]!.rest;
    const local = MathUtils.compose(translation, rotation, scale, [] as unknown as mat4);
    const parent = this.parents[i]!;
    const out = parent < 0 ? local : multiply(this.of(parent), local);
    this.worlds[i] = out;
    return out;
  }
}

/** a · b of column-major 4 × 4 matrices, each sum in gl-matrix's order (mat4.multiply). */
function multiply(a: mat4, b: mat4): mat4 {
  const out = new Array<number>(16) as unknown as mat4;
  for (let col = 0; col < 4; col++) {
    const b0 = b[4 * col]!, b1 = b[4 * col + 1]!, b2 = b[4 * col + 2]!, b3 = b[4 * col + 3]!;
    for (let row = 0; row < 4; row++) out[4 * col + row] = b0 * a[row]! + b1 * a[4 + row]! + b2 * a[8 + row]! + b3 * a[12 + row]!;
  }
  return out;
}

function skinningMatrices(worlds: WorldMatrices, skeleton: Skeleton, s: number): Skinning {
  const skin = skeleton.skins[s]!;
  const matrices = new Float64Array(16 * skin.joints.length);
  for (let k = 0; k < skin.joints.length; k++) {
    const w = worlds.of(skin.joints[k]!);
    const ibm = skin.inverseBindMatrices;
    for (let col = 0; col < 4; col++) {
      for (let row = 0; row < 4; row++) {
        let sum = 0;
        for (let i = 0; i < 4; i++) sum += w[4 * i + row]! * ibm[16 * k + 4 * col + i]!;
        matrices[16 * k + 4 * col + row] = sum;
      }
    }
  }
  return { joints: skin.joints, matrices };
}

/** Positions skinned at rest, influences and weights of one skinned primitive from its JOINTS_n / WEIGHTS_n sets and its positions. */
function skinnedMesh(sets: readonly [AccessorArray, Float32Array][], source: Float32Array, skinning: Skinning, n: number): Pick<SkinnedMesh, 'positions' | 'influences' | 'joints' | 'weights'> {
  const influences = 4 * sets.length;
  const joints = new Uint16Array(influences * n);
  const weights = new Float32Array(influences * n);
  for (let set = 0; set < sets.length; set++) {
    const [jointArray, weightArray] = sets[set]!;
    for (let v = 0; v < n; v++) {
      for (let c = 0; c < 4; c++) {
        const k = jointArray[4 * v + c]!;
        const weight = weightArray[4 * v + c]!;
        const inSkin = k < skinning.joints.length && weight > 0;
        joints[influences * v + 4 * set + c] = inSkin ? skinning.joints[k]! : 0;
        weights[influences * v + 4 * set + c] = inSkin ? weight : 0;
      }
    }
  }
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
    positions[3 * v] = px;
    positions[3 * v + 1] = py;
    positions[3 * v + 2] = pz;
  }
  return { positions, influences, joints, weights };
}
