import { MathUtils, type mat4, type vec3, type vec4 } from '@gltf-transform/core';
import { type Joint, Skeleton, type Skin } from '../../anim/index.js';
import { readAccessorFloats } from './accessor-values.js';
import { type GltfCollections, morphTargetCount } from './check-document.js';
import { fail, type JsonObject } from './json-fields.js';
import { describeBadValue, firstBadValue } from '../value-range.js';

/** A node's rest transform: translation, rotation (x y z w) and scale. */
export interface NodeTrs {
  readonly translation: vec3;
  readonly rotation: vec4;
  readonly scale: vec3;
}

/**
 * The node hierarchy as a `Skeleton`, read from the checked JSON (`checkDocument`): every node, in
 * index order, named `names[i]`, with its parent (children may come before their parents) and its
 * rest transform — translation, rotation, scale (defaults 0, identity, 1), or its `matrix`
 * decomposed (glTF-Transform's `MathUtils.decompose`, as three.js decomposes it; a matrix with
 * shear cannot be a TRS and is reported in `warnings`) — and, for nodes whose mesh has morph
 * targets, their rest weights (per target `node.weights`, else `mesh.weights`, else 0). Skins keep their
 * joint lists (node indices, each node once: `checkDocument`) and inverse bind matrices
 * (identity when the file has none), named by the skin (`skin<s>` without a name).
 * @throws FormatError at `/skins/<s>/inverseBindMatrices` for matrices that are not file values or
 *   whose fourth row is not (0, 0, 0, 1)
 */
export function gltfSkeleton(c: GltfCollections, buffers: readonly Uint8Array[], names: readonly string[], warnings: string[]): Skeleton {
  const nodes = c.nodes!;
  const parents = nodeParents(c);
  const joints: Joint[] = nodes.map((def, i) => {
    const rest = nodeTrs(def);
    if (def.matrix !== undefined && !isTrs(def.matrix as number[], MathUtils.compose(rest.translation, rest.rotation, rest.scale, [] as unknown as mat4))) {
      warnings.push(`node ${i} "${names[i]}": its matrix has shear, which a translation/rotation/scale rest pose cannot hold; the nearest TRS is used`);
    }
    const joint: Joint = { name: names[i]!, parent: parents[i]!, rest };
    const targets = morphTargetCount(c, def);
    if (targets > 0) {
      const own = def.weights as number[] | undefined;
      const mesh = c.meshes![def.mesh as number]!.weights as number[] | undefined;
      // Target by target, as three.js's GLTFLoader: a list shorter than the targets (which the spec forbids) leaves the rest to the mesh.
      joint.morphWeights = Array.from({ length: targets }, (_, k) => own?.[k] ?? mesh?.[k] ?? 0);
    }
    return joint;
  });
  const skins: Skin[] = c.skins!.map((skin, s) => {
    const members = skin.joints as number[];
    const matrices = new Float32Array(16 * members.length);
    if (skin.inverseBindMatrices !== undefined) matrices.set(inverseBindMatrices(c, buffers, skin, `/skins/${s}/inverseBindMatrices`, members.length));
    else for (let k = 0; k < members.length; k++) matrices.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 16 * k);
    const name = typeof skin.name === 'string' && skin.name !== '' ? skin.name : `skin${s}`;
    return { name, joints: Uint32Array.from(members), inverseBindMatrices: matrices, skeleton: (skin.skeleton as number | undefined) ?? -1 };
  });
  return new Skeleton(joints, skins);
}

/**
 * The first `n` inverse bind matrices of a skin: file values (value-range.ts) whose fourth row is
 * (0, 0, 0, 1), as glTF 2.0 §3.7.3.1 requires (a projective matrix skins no vertex; the exports
 * and the validator refuse one).
 * @throws FormatError at `pointer` naming the matrix and entry
 */
function inverseBindMatrices(c: GltfCollections, buffers: readonly Uint8Array[], skin: JsonObject, pointer: string, n: number): Float32Array {
  const m = readAccessorFloats(c, buffers, skin.inverseBindMatrices as number).subarray(0, 16 * n);
  const bad = firstBadValue(m);
  if (bad >= 0) fail(pointer, `matrix ${bad >> 4}, entry ${bad & 15}: ${describeBadValue(m[bad]!)}`, 'bad-value');
  for (let k = 0; k < n; k++) {
    const row = [m[16 * k + 3], m[16 * k + 7], m[16 * k + 11], m[16 * k + 15]];
    if (row[0] !== 0 || row[1] !== 0 || row[2] !== 0 || row[3] !== 1) fail(pointer, `matrix ${k} has fourth row (${row.join(', ')}); glTF 2.0 requires (0, 0, 0, 1)`, 'bad-value');
  }
  return m;
}

/** Each node's parent (−1 for roots), from the children lists (`checkDocument` made them a forest). */
export function nodeParents(c: GltfCollections): Int32Array {
  const parents = new Int32Array(c.nodes!.length).fill(-1);
  const nodes = c.nodes!;
  for (let i = 0; i < nodes.length; i++) for (const child of (nodes[i]!.children as number[] | undefined) ?? []) parents[child] = i;
  return parents;
}

/** A node's rest TRS as glTF-Transform reads it: its `translation`, `rotation`, `scale` (or defaults), a `matrix` decomposed instead. */
export function nodeTrs(def: JsonObject): NodeTrs {
  const translation = [...((def.translation as number[] | undefined) ?? [0, 0, 0])] as vec3;
  const rotation = [...((def.rotation as number[] | undefined) ?? [0, 0, 0, 1])] as vec4;
  const scale = [...((def.scale as number[] | undefined) ?? [1, 1, 1])] as vec3;
  if (def.matrix !== undefined) {
    MathUtils.decompose(def.matrix as mat4, translation, rotation, scale);
    // A singular matrix (an axis scaled to 0, a glTF way to hide a node) has no rotation: gl-matrix
    // divides by the zero scale and gives NaN. Identity then; the caller reports a matrix that the TRS does not reproduce.
    if (!rotation.every(Number.isFinite)) rotation.splice(0, 4, 0, 0, 0, 1);
  }
  return { translation, rotation, scale };
}

/** Whether the composed TRS reproduces `matrix` (relative 1e-5). */
function isTrs(matrix: readonly number[], composed: mat4): boolean {
  const scale = Math.max(1, ...matrix.map(Math.abs));
  return matrix.every((v, i) => Math.abs(v - composed[i]!) <= 1e-5 * scale);
}
