export { openGltf, type GltfFiles } from './open.js';
export { readGltfContainer, isGlb, looksLikeGltfJson, type GltfContainer } from './container.js';
export type { GltfResourceReader } from './buffers.js';
export { gltfSource, type GltfSource } from './source.js';
