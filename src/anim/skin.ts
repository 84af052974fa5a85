/**
 * A skin: the joints a skinned mesh's vertices index, in the skin's own order, with their inverse
 * bind matrices (glTF 2.0 §3.7.3). A vertex's joint index k means skeleton joint `joints[k]`; its
 * skinning matrix is that joint's model-space matrix · `inverseBindMatrices[16k .. 16k + 15]`.
 */
export interface Skin {
  readonly name: string;
  /** Skeleton joint index of each skin joint (glTF `skin.joints`, node indices). */
  readonly joints: Uint32Array;
  /** `16 × joints.length` floats, column-major 4×4 per joint; identity where the file gives none. */
  readonly inverseBindMatrices: Float32Array;
  /** Skeleton joint index of the skin's root (glTF `skin.skeleton`), or -1 when not given. */
  readonly skeleton: number;
}

/**
 * A skin's inverse bind matrices spread over a whole skeleton of `jointCount` joints: skeleton
 * joint `skin.joints[k]` gets matrix k, every other joint the identity. The shape that
 * `SampleManyJob`'s `inverseBindMatrices` takes (16 floats per skeleton joint, column-major).
 */
export function skeletonInverseBindMatrices(skin: Skin, jointCount: number): Float32Array {
  const out = new Float32Array(16 * jointCount);
  for (let j = 0; j < jointCount; j++) out[16 * j] = out[16 * j + 5] = out[16 * j + 10] = out[16 * j + 15] = 1;
  skin.joints.forEach((joint, k) => out.set(skin.inverseBindMatrices.subarray(16 * k, 16 * k + 16), 16 * joint));
  return out;
}
