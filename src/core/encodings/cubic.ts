import type { CubicKeys } from '../../anim/index.js';
import { CUBIC_KEY_BYTES, KIND_CUBIC } from '../../../assembly/layout.js';
import type { KeyEncoding } from './key-encoding.js';
import { writeTimedRecords } from './timed-records.js';

/**
 * `cubic` keys (glTF CUBICSPLINE samplers, glTF 2.0 Appendix C) for `cubicSampleSlots`
 * (assembly/cubic-clip.ts): per slot a record with its times and, per key, in-tangent, value and
 * out-tangent float4s as stored.
 */
export const cubicEncoding: KeyEncoding = {
  name: 'cubic',
  kind: KIND_CUBIC,
  raw: false,
  clipHeader: true,
  write: (memory, clip, layout) => writeTimedRecords<CubicKeys>(memory, clip, layout, CUBIC_KEY_BYTES, () => false),
};
