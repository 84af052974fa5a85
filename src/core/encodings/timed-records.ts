import type { AnimClip, CubicKeys, KeyedKeys } from '../../anim/index.js';
import { KEYED_FLAGS, KEYED_KEY_COUNT, KEYED_RECORD_SIZE, KEYED_TIMES, KEYED_VALUES } from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import { align16, type KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';

/**
 * A clip-header block whose slots have their own key times (the keyed and cubic kinds): per slot a
 * KEYED_* record {keyCount, times (f32 seconds, then two +Inf sentinels that the kernels' cursor
 * reads past the last key), values (as stored, `bytesPerKey` per key), flags}
 * at CLIP_KEYS, its times and values in the same block.
 * @param flags the record flags of a slot's keys
 * @returns the block pointer
 */
export function writeTimedRecords<K extends KeyedKeys | CubicKeys>(memory: KernelMemory, clip: AnimClip, layout: ClipLayout, bytesPerKey: number, flags: (keys: K) => number): number {
  const slots = layout.slots.map((i) => clip.curves[i]!.keys as K);
  const keyBytes = KEYED_RECORD_SIZE * slots.length + slots.reduce((sum, k) => sum + align16(4 * (k.times.length + 2)) + bytesPerKey * k.times.length, 0);
  const { ptr, keys: records } = writeClipBlock(memory, clip, layout, clip.duration, keyBytes);
  const { f32, u32 } = memory;
  let at = records + KEYED_RECORD_SIZE * slots.length;
  slots.forEach((keys, j) => {
    const n = keys.times.length;
    const r = records + KEYED_RECORD_SIZE * j;
    u32[(r + KEYED_KEY_COUNT) >>> 2] = n;
    u32[(r + KEYED_FLAGS) >>> 2] = flags(keys);
    u32[(r + KEYED_TIMES) >>> 2] = at;
    f32.set(keys.times, at >>> 2);
    f32[(at >>> 2) + n] = f32[(at >>> 2) + n + 1] = Infinity;
    at += align16(4 * (n + 2));
    u32[(r + KEYED_VALUES) >>> 2] = at;
    f32.set(keys.values, at >>> 2);
    at += bytesPerKey * n;
  });
  return ptr;
}
