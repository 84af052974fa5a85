import type { FormatHandler } from '../handler.js';
import { FormatError } from '../../errors.js';
import { blendShapeAnimatorsOf, playsFile } from './blend-shapes.js';
import { detectNebulaFormat, type NebulaFormat, openNebula, readNebulaSkeleton } from './open.js';

/** Joints the animation's first clip drives, by main file (several skeletons may be tried against one animation). */
const jointCounts = new WeakMap<Uint8Array, number>();

function animatedJoints(bytes: Uint8Array, format: NebulaFormat | undefined): number {
  let n = jointCounts.get(bytes);
  if (n === undefined) {
    const clip = openNebula({ animation: bytes }, format === undefined ? {} : { format }).clips[0];
    n = new Set(clip?.curves.map((c) => c.target.joint).filter((j) => j !== null)).size;
    jointCounts.set(bytes, n);
  }
  return n;
}

/**
 * Nebula `.nax2` / `.nanim2` / `.nax3`, detected by magic bytes or the `type nanim2` line
 * (`detectNebulaFormat`); the skeleton (`.n2` script or `.constants` XML, spec nebula.md §1.9, §2)
 * is the `skeleton` companion, else the file with the animation's base name beside it, else the
 * only skeleton file beside it, or the only one whose joint count equals the joints the
 * animation's curves drive (issue 14: `kila.n2` beside `kila_layoutA.nax2`), or the one whose
 * `nblendshapeanimator` names the animation. The animation's path goes to `openNebula` as `name`.
 */
export const nebulaHandler: FormatHandler<NebulaFormat> = {
  id: 'nebula',
  description: 'Nebula2 .nax2/.nanim2 and Nebula3 .nax3 animations (with .n2 / .constants skeletons)',
  priority: 30,
  extensions: ['.nax2', '.nax3', '.nanim2'],
  companions: [{ role: 'skeleton', extensions: ['.n2', '.constants'], description: 'Nebula skeleton (.n2 script or .constants XML)', byContent: true }],
  detect(bytes) {
    const format = detectNebulaFormat(bytes);
    return format === null ? null : { parsed: format };
  },
  companionFits(_role, main, candidate) {
    try {
      const skeleton = readNebulaSkeleton(candidate);
      // A scene script whose nblendshapeanimator plays this file (its curves are morph weights).
      if (blendShapeAnimatorsOf(skeleton).some((a) => playsFile(a, main.path))) return true;
      return skeleton.joints.length === animatedJoints(main.bytes, main.detected);
    } catch (e) {
      if (e instanceof FormatError) return false;
      throw e;
    }
  },
  // The name lets an .n2 companion's nblendshapeanimator claim the file (blend-shape weights).
  open: (input) => openNebula({ animation: input.bytes, skeleton: input.companions.skeleton }, { name: input.path, ...(input.detected !== undefined && { format: input.detected }) }),
};
