/**
 * A triangle mesh attached to one joint of a skeleton (rigid skinning: every vertex moves with
 * `joint`). Format-neutral: readers fill it from their surfaces, exporters (glTF) read it.
 * Vertex data is in the joint's local space.
 */
export interface Mesh {
  readonly name: string;
  /** Index of the joint in the resource's `Skeleton` that carries the mesh. */
  readonly joint: number;
  /** `3 × vertexCount` floats: x y z. */
  readonly positions: Float32Array;
  /** `3 × vertexCount` floats: nx ny nz (as stored; not renormalised). */
  readonly normals: Float32Array;
  /** `uvSize × vertexCount` floats: u v, or u v w when `uvSize` is 3. */
  readonly uvs: Float32Array;
  readonly uvSize: 2 | 3;
  /** Triangle list: 3 indices per triangle, each `< vertexCount`. */
  readonly indices: Uint32Array;
}
