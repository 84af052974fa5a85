import type { Buffer, Document, Node } from '@gltf-transform/core';
import type { Mesh } from '../anim/index.js';

/**
 * One glTF mesh per rigid `Mesh` (AAF scene surfaces), on a child node of its joint's node named
 * after the mesh, so the surface moves with the joint: POSITION, NORMAL (normalised; left out when
 * any normal is zero), TEXCOORD_0 (u v; a third uv component is dropped) and triangle indices.
 * Meshes without vertices or triangles are left out.
 * @param skeleton node of skeleton joint i at index i
 */
export function addRigidMeshes(document: Document, buffer: Buffer, meshes: readonly Mesh[], skeleton: readonly Node[]): void {
  for (const mesh of meshes) {
    const n = mesh.positions.length / 3;
    // glTF accessors hold at least one element (glTF 2.0 §5.1.1): a surface without triangles draws nothing.
    if (n === 0 || mesh.indices.length === 0) continue;
    const accessor = (type: 'VEC2' | 'VEC3' | 'SCALAR', array: Float32Array | Uint32Array) =>
      document.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    const primitive = document
      .createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', mesh.positions))
      .setIndices(accessor('SCALAR', mesh.indices));
    const normals = unitNormals(mesh.normals);
    if (normals) primitive.setAttribute('NORMAL', accessor('VEC3', normals));
    const uvs = new Float32Array(2 * n);
    for (let v = 0; v < n; v++) uvs.set(mesh.uvs.subarray(mesh.uvSize * v, mesh.uvSize * v + 2), 2 * v);
    primitive.setAttribute('TEXCOORD_0', accessor('VEC2', uvs));
    const node = document.createNode(mesh.name).setMesh(document.createMesh(mesh.name).addPrimitive(primitive));
    skeleton[mesh.joint]!.addChild(node);
  }
}

/** `normals` scaled to unit length, or null when one of them is zero (or not finite). */
function unitNormals(normals: Float32Array): Float32Array | null {
  const out = new Float32Array(normals.length);
  for (let i = 0; i < normals.length; i += 3) {
    const len = Math.hypot(normals[i]!, normals[i + 1]!, normals[i + 2]!);
    if (!(len > 0) || !Number.isFinite(len)) return null;
    for (let c = 0; c < 3; c++) out[i + c] = normals[i + c]! / len;
  }
  return out;
}
