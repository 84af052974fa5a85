import type { KeyedKeys } from '../../anim/index.js';
import { KIND_KEYED } from '../../../assembly/layout.js';
import type { KeyEncoding } from './key-encoding.js';
import { writeTimedRecords } from './timed-records.js';

/**
 * `keyed` keys (AAF, Meteor frames, glTF LINEAR and STEP samplers) for `keyedSampleSlots`
 * (assembly/keyed-clip.ts): per slot a record with its times and float4 values as stored
 * (rotations take the shorter arc per key pair at run time), held keys for `step` curves (KEYED_LERP_END 0).
 */
export const keyedEncoding: KeyEncoding = {
  name: 'keyed',
  kind: KIND_KEYED,
  raw: false,
  clipHeader: true,
  write: (memory, clip, layout) => writeTimedRecords<KeyedKeys>(memory, clip, layout, 16, (keys) => keys.interpolation === 'step'),
};
