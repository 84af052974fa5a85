import type { AnimResource } from '../../anim/index.js';
import { readMrtk } from './read.js';
import { mrtkToResource } from './to-resource.js';

/** The file of an MRTK recording. */
export interface MrtkFiles {
  /** The recording (`.bin`, spec mrtk.md §2). */
  recording: Uint8Array;
}

/** Options of `openMrtk`. */
export interface OpenMrtkOptions {
  /** Name of the clip; default `recording`. */
  name?: string;
}

/**
 * Opens an MRTK2 input-animation recording: `readMrtk`, then `mrtkToResource` (one clip of Unity
 * curves, described there).
 * @throws FormatError from `readMrtk`
 */
export function openMrtk(files: MrtkFiles, options: OpenMrtkOptions = {}): AnimResource {
  return mrtkToResource(readMrtk(files.recording), options.name);
}
