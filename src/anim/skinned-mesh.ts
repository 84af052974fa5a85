/**
 * A triangle mesh skinned to a resource's `Skeleton` (linear blend skinning). Format-neutral:
 * readers fill it (Meteor `.skc`), exporters (glTF skins) read it. The bind pose is the skeleton's
 * rest pose: `positions` are model space with every joint at rest, so a joint's inverse bind
 * matrix is the inverse of its rest model-space matrix.
 */
export interface SkinnedMesh {
  readonly name: string;
  /** `3 × vertexCount` floats: x y z, model space at the rest pose. */
  readonly positions: Float32Array;
  /** `2 × vertexCount` floats: u v. */
  readonly uvs: Float32Array;
  /** Joint influences per vertex (the stride of `joints` and `weights`), at least 1. */
  readonly influences: number;
  /** `influences × vertexCount` indices into the skeleton's joints; unused slots 0 with weight 0. */
  readonly joints: Uint16Array;
  /** `influences × vertexCount` weights; each vertex sums to 1. */
  readonly weights: Float32Array;
  /** Triangle list: 3 indices per triangle, each `< vertexCount`, in the source's winding. */
  readonly indices: Uint32Array;
}
