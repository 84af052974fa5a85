import type { AnimResource } from '../../anim/index.js';
import { FormatError } from '../../errors.js';
import type { FormatHandler, OpenInput } from '../handler.js';
import { AAF_VERSION } from './header.js';
import { openAafScene } from './open-scene.js';
import { readAafAnimation } from './read-animation.js';
import { readAafScene } from './read-scene.js';
import { aafAnimationToResource } from './to-resource.js';

/**
 * File name suffixes that pair a scene with its animation in one folder: `walk.scene.aaf` goes
 * with `walk.anim.aaf` (case-insensitive; the project's convention, the post names no files).
 */
const SUFFIX = { scene: '.scene.aaf', animation: '.anim.aaf' } as const;

/** The name of the `want` file paired with `path` by `SUFFIX`, or undefined when `path` has no pairing suffix. */
function pairedName(path: string, want: keyof typeof SUFFIX): string | undefined {
  const name = path.split(/[\\/]/).pop() ?? '';
  const have = want === 'scene' ? SUFFIX.animation : SUFFIX.scene;
  return name.toLowerCase().endsWith(have) ? name.slice(0, name.length - have.length) + SUFFIX[want] : undefined;
}

/** The companion given by role, else the sibling paired by name. */
function companion(input: OpenInput, want: keyof typeof SUFFIX): Uint8Array | undefined {
  const name = pairedName(input.path, want);
  return input.companions[want] ?? (name === undefined ? undefined : input.sibling(name));
}

/**
 * Whether `read` accepts the bytes. AAF has no magic (any 10-byte name is accepted, spec aaf.md
 * §1), so detection checks the version field and then the whole structure.
 */
function reads(bytes: Uint8Array, read: (b: Uint8Array) => unknown): boolean {
  if (bytes.length < 14 || bytes[10]! + 256 * bytes[11]! !== AAF_VERSION) return false;
  try {
    read(bytes);
    return true;
  } catch (e) {
    if (e instanceof FormatError) return false;
    throw e;
  }
}

/**
 * ABTOMAT AAF scene files (spec aaf.md §3); the animation comes from `companions.animation` or
 * the sibling `<name>.anim.aaf`, and is bound by name (§3.2).
 */
export const aafSceneHandler: FormatHandler = {
  id: 'aaf-scene',
  description: 'ABTOMAT AAF v2 scene (object tree, surfaces), with <name>.anim.aaf when present',
  detect: (bytes) => reads(bytes, readAafScene),
  open: (input): AnimResource => openAafScene({ scene: input.bytes, animation: companion(input, 'animation') }),
};

/**
 * ABTOMAT AAF animation files (spec aaf.md §2); bound to `companions.scene` or the sibling
 * `<name>.scene.aaf` when there is one, else read alone.
 */
export const aafAnimationHandler: FormatHandler = {
  id: 'aaf-animation',
  description: 'ABTOMAT AAF v2 animation (position/rotation/scale keys), with <name>.scene.aaf when present',
  detect: (bytes) => reads(bytes, readAafAnimation),
  open(input): AnimResource {
    const scene = companion(input, 'scene');
    return scene ? openAafScene({ scene, animation: input.bytes }) : aafAnimationToResource(readAafAnimation(input.bytes));
  },
};
