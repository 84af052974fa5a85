import type { AnimResource } from '../../anim/index.js';
import type { AafAnimation } from './animation.js';
import { readAafAnimation } from './read-animation.js';
import { readAafScene } from './read-scene.js';
import type { AafScene } from './scene.js';
import { type AafResourceOptions, aafSceneToResource } from './to-resource.js';

/** A scene file and, optionally, the animation to bind to it: bytes, or documents already read. */
export interface AafSceneFiles {
  scene: Uint8Array | AafScene;
  animation?: Uint8Array | AafAnimation;
}

/**
 * Reads an AAF scene and its animation and binds them by object name (spec aaf.md §3.2): a
 * resource with the scene's `Skeleton`, its meshes and one clip (see `aafSceneToResource` for the
 * binding rules and what is reported in `warnings` and `info.binding`).
 * @throws FormatError for bad bytes (format `aaf-scene` or `aaf-animation`), UsageError for bad
 *   time options
 */
export function openAafScene(files: AafSceneFiles, options: AafResourceOptions = {}): AnimResource {
  const scene = files.scene instanceof Uint8Array ? readAafScene(files.scene) : files.scene;
  const animation = files.animation instanceof Uint8Array ? readAafAnimation(files.animation) : files.animation;
  return aafSceneToResource(scene, animation, options);
}
