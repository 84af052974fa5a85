import type { AnimResource } from '../../anim/index.js';
import { FormatError, UsageError } from '../../errors.js';
import type { AafAnimation } from './animation.js';
import { shorten } from '../text.js';
import { AAF_VERSION } from './header.js';
import { readAafAnimation } from './read-animation.js';
import { readAafScene } from './read-scene.js';
import type { AafScene } from './scene.js';
import { type AafResourceOptions, aafAnimationToResource, aafSceneToResource } from './to-resource.js';

/** A scene file and, optionally, the animation to bind to it: bytes, or documents already read. */
export interface AafSceneFiles {
  scene: Uint8Array | AafScene;
  animation?: Uint8Array | AafAnimation;
}

/** The AAF files of one set: a scene, an animation, or both (bytes or documents already read). */
export interface AafFiles {
  scene?: Uint8Array | AafScene;
  animation?: Uint8Array | AafAnimation;
}

/** An AAF file read by content: which of the two kinds it is, and its document. */
export type AafDocument = { kind: 'scene'; scene: AafScene } | { kind: 'animation'; animation: AafAnimation };

/**
 * Reads an AAF file of either kind. AAF has no magic (any 10-byte name is accepted, spec aaf.md
 * §1), so the version field is checked first and then the whole structure: as a scene (§3), else
 * as an animation (§2).
 * @throws FormatError (format `aaf`, code `unrecognised`) at the offset, and with the reason, of the
 *   kind that read further
 */
export function readAafFile(bytes: Uint8Array): AafDocument {
  const version = bytes.length >= 12 ? bytes[10]! + 256 * bytes[11]! : -1;
  if (version !== AAF_VERSION) {
    throw new FormatError('aaf', 'unrecognised', { offset: Math.min(10, bytes.length) }, `expected AAF version ${AAF_VERSION} at byte 10, found ${version < 0 ? 'end of file' : version}`);
  }
  try {
    return { kind: 'scene', scene: readAafScene(bytes) };
  } catch (sceneError) {
    if (!(sceneError instanceof FormatError)) throw sceneError;
    try {
      return { kind: 'animation', animation: readAafAnimation(bytes) };
    } catch (animationError) {
      if (!(animationError instanceof FormatError)) throw animationError;
      // The reading that got further says most (and where); one short line.
      const [kind, e] = (animationError.offset ?? 0) > (sceneError.offset ?? 0) ? ['animation', animationError] : ['scene', sceneError];
      throw new FormatError('aaf', 'unrecognised', { offset: e.offset ?? 0 }, `neither an AAF scene nor an AAF animation; read as an ${kind}: ${shorten(e.message, 180)}`);
    }
  }
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

/**
 * Opens an AAF file set: a scene (with its animation bound by name, `openAafScene`), or an
 * animation alone (`aafAnimationToResource`: one clip, no skeleton).
 * @throws UsageError when neither file is given or for bad time options, FormatError for bad bytes
 */
export function openAaf(files: AafFiles, options: AafResourceOptions = {}): AnimResource {
  if (files.scene !== undefined) return openAafScene({ scene: files.scene, ...(files.animation !== undefined && { animation: files.animation }) }, options);
  if (files.animation === undefined) throw new UsageError('openAaf: give a `scene`, an `animation` or both');
  const animation = files.animation instanceof Uint8Array ? readAafAnimation(files.animation) : files.animation;
  return aafAnimationToResource(animation, options);
}
