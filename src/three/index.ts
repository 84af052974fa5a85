// animcore/three: the three.js adapter (three is an optional peer dependency).
export { toThreeAnimationClip, UNITY_BAKE_RATE } from './to-three-clip.js';
export { toThreeSkeleton } from './to-three-skeleton.js';
export { SkeletonPlayer, type SkeletonPlayerOptions } from './skeleton-player.js';
export { InstancedBoneTexture, type InstancedBoneTextureOptions } from './instanced-bone-texture.js';
export { AnimcoreMixer, type AnimcoreMixerOptions, type AnimcoreMixerEventMap } from './animcore-mixer.js';
export { AnimcoreAction, type ActionFrame, type ActionHost } from './animcore-action.js';
export { fromGltfLoader, type GltfLoaderResult, type GltfLoaderResource } from './from-gltf-loader.js';
export { ScenePlayer } from './scene-player.js';
export { SequencePlayer, type SequencePlayerOptions } from './sequence-player.js';
