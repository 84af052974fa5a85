import type { FormatHandler, OpenInput } from '../handler.js';
import { detectNebulaFormat, openNebula } from './open.js';

/** Skeleton companions looked for next to an animation, by base name (spec nebula.md §1.9, §2). */
const SKELETON_EXTENSIONS = ['.n2', '.constants'];

function skeletonFor(input: OpenInput): Uint8Array | undefined {
  if (input.companions.skeleton) return input.companions.skeleton;
  const base = input.path.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  for (const ext of SKELETON_EXTENSIONS) {
    const found = input.sibling(base + ext);
    if (found) return found;
  }
  return undefined;
}

/**
 * Nebula `.nax2` / `.nanim2` / `.nax3`, detected by magic bytes or the `type nanim2` line; a
 * skeleton (`.n2` script or `.constants` XML) is taken from `companions.skeleton`, else from a file
 * with the same base name next to the animation.
 */
export const nebulaHandler: FormatHandler = {
  id: 'nebula',
  description: 'Nebula2 .nax2/.nanim2 and Nebula3 .nax3 animations (with .n2 / .constants skeletons)',
  detect: (bytes) => detectNebulaFormat(bytes) !== null,
  open: (input) => openNebula({ animation: input.bytes, skeleton: skeletonFor(input) }),
};
