import type { FormatHandler } from '../handler.js';
import { readMrtk } from './read.js';
import { MRTK_MAGIC } from './recording.js';
import { mrtkToResource } from './to-resource.js';

/** Whether `bytes` start with the MRTK input-animation magic (spec mrtk.md §2.2). */
export function isMrtk(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true) === MRTK_MAGIC;
}

/** MRTK2 input-animation recordings (`.bin`, versions 1.0 and 1.1), detected by their magic. */
export const mrtkHandler: FormatHandler = {
  id: 'mrtk',
  description: 'MRTK2 input animation recording (.bin, v1.0 / v1.1)',
  detect: (bytes) => isMrtk(bytes),
  open: (input) => mrtkToResource(readMrtk(input.bytes), input.path.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '')),
};
