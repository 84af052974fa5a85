// ABTOMAT AAF v2 animation and scene files (spec aaf.md).
export {
  AAF_ANIMATION_VARIANTS,
  AAF_CHANNELS,
  AafChannelFlag,
  type AafAnimation,
  type AafAnimationInit,
  type AafAnimationObject,
  type AafAnimationVariant,
  type AafChannelName,
  type AafKeys,
} from './animation.js';
export {
  AAF_SCENE_VARIANTS,
  sceneVariantLabel,
  type AafScene,
  type AafSceneInit,
  type AafSceneObject,
  type AafSceneVariant,
  type AafSurface,
} from './scene.js';
export { AAF_FORMAT_NAME, AAF_VERSION, aafHeader, formatNameText, type AafHeader } from './header.js';
export { aafText, decodeAafText, type AafText } from './text.js';
export { AAF_ANIMATION_FORMAT, readAafAnimation, type ReadAafAnimationOptions } from './read-animation.js';
export { AAF_SCENE_FORMAT, readAafScene, type ReadAafSceneOptions } from './read-scene.js';
export { writeAafAnimation } from './write-animation.js';
export { writeAafScene } from './write-scene.js';
export { AAF_DEFAULT_FPS, aafSecondsPerUnit, type AafTimeOptions } from './time.js';
export { aafAnimationToResource, aafSceneToResource, type AafResourceOptions } from './to-resource.js';
export { openAaf, openAafScene, readAafFile, type AafDocument, type AafFiles, type AafSceneFiles } from './open.js';
export { aafHandler } from './handler.js';
export { makeTeapotMan } from './teapot-man.js';
