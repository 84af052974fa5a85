import type { FormatHandler } from '../handler.js';
import { detectNebulaFormat, type NebulaFormat, openNebula } from './open.js';

/**
 * Nebula `.nax2` / `.nanim2` / `.nax3`, detected by magic bytes or the `type nanim2` line
 * (`detectNebulaFormat`); the skeleton (`.n2` script or `.constants` XML, spec nebula.md §1.9, §2)
 * is the `skeleton` companion, else the file with the animation's base name beside it.
 */
export const nebulaHandler: FormatHandler<NebulaFormat> = {
  id: 'nebula',
  description: 'Nebula2 .nax2/.nanim2 and Nebula3 .nax3 animations (with .n2 / .constants skeletons)',
  priority: 30,
  extensions: ['.nax2', '.nax3', '.nanim2'],
  companions: [{ role: 'skeleton', extensions: ['.n2', '.constants'], description: 'Nebula skeleton (.n2 script or .constants XML)' }],
  detect(bytes) {
    const format = detectNebulaFormat(bytes);
    return format === null ? null : { parsed: format };
  },
  open: (input) => openNebula({ animation: input.bytes, skeleton: input.companions.skeleton }, input.detected === undefined ? {} : { format: input.detected }),
};
