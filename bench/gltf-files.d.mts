// Types of bench/gltf-files.mjs for TypeScript callers (the viewer's browser benchmark pages).

/** A `.glb` of the synthetic skinned rig (see bench/gltf-files.mjs). */
export function makeGltfRig(options?: { joints?: number; clips?: number; seconds?: number; fps?: number; interpolation?: 'LINEAR' | 'CUBICSPLINE'; seed?: number }): Promise<Uint8Array>;
