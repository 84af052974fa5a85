import { alignRotationKeys, type AnimClip, type KeyedKeys } from '../../anim/index.js';
import { KEYED_KEY_COUNT, KEYED_RECORD_SIZE, KEYED_TIMES, KEYED_VALUES, KIND_KEYED } from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import { align16, type KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';
import type { KeyEncoding } from './key-encoding.js';

/**
 * `keyed` keys (AAF, Meteor frames) for `keyedSampleSlots` (assembly/keyed-clip.ts): per slot a
 * record {keyCount, times, values} with its times (f32 seconds) and values (float4; rotations
 * sign-aligned) in the same block.
 */
export const keyedEncoding: KeyEncoding = {
  name: 'keyed',
  kind: KIND_KEYED,
  raw: false,
  clipHeader: true,
  write(memory: KernelMemory, clip: AnimClip, layout: ClipLayout): number {
    const keyed = layout.slots.map((i) => clip.curves[i]!.keys as KeyedKeys);
    const keyBytes = KEYED_RECORD_SIZE * keyed.length + keyed.reduce((sum, k) => sum + align16(4 * k.times.length) + 16 * k.times.length, 0);
    const { ptr, keys: records } = writeClipBlock(memory, clip, layout, clip.duration, keyBytes);
    const { f32, u32 } = memory;
    let at = records + KEYED_RECORD_SIZE * keyed.length;
    keyed.forEach((keys, j) => {
      const n = keys.times.length;
      const rotation = clip.curves[layout.slots[j]!]!.curveType === 'rotation';
      const r = records + KEYED_RECORD_SIZE * j;
      u32[(r + KEYED_KEY_COUNT) >>> 2] = n;
      u32[(r + KEYED_TIMES) >>> 2] = at;
      f32.set(keys.times, at >>> 2);
      at += align16(4 * n);
      u32[(r + KEYED_VALUES) >>> 2] = at;
      f32.set(rotation ? alignRotationKeys(keys.values, n).subarray(0, 4 * n) : keys.values, at >>> 2);
      at += 16 * n;
    });
    return ptr;
  },
};
