import type { FormatHandler } from '../handler.js';
import { openMrtk } from './open.js';
import { MRTK_MAGIC } from './recording.js';

/** Whether `bytes` start with the MRTK input-animation magic (spec mrtk.md §2.2). */
export function isMrtk(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true) === MRTK_MAGIC;
}

/** MRTK2 input-animation recordings (`.bin`, versions 1.0 and 1.1), detected by their magic; the clip is named after the file. */
export const mrtkHandler: FormatHandler<null> = {
  id: 'mrtk',
  description: 'MRTK2 input animation recording (.bin, v1.0 / v1.1)',
  priority: 20,
  extensions: ['.bin'],
  companions: [],
  detect: (bytes) => (isMrtk(bytes) ? { parsed: null } : null),
  open: (input) => openMrtk({ recording: input.bytes }, { name: input.path.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') }),
};
