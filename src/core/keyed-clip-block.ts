import { alignRotationKeys, type AnimClip, type KeyedKeys } from '../anim/index.js';
import { clipLayout, sharedClipArgs, writeSharedTables } from './clip-layout.js';
import { ClipField, type KernelExports } from './kernel-exports.js';
import type { MemoryViews } from './memory-views.js';

const align16 = (n: number) => (n + 15) & ~15;

/**
 * Copies a clip of `static` and `keyed` curves into one wasm block for `keyedClipSample`
 * (assembly/keyed-clip.ts): per slot a record {keyCount, times, values} with its times (f32
 * seconds) and values (float4; rotations sign-aligned) in the same block. Returns the pointer.
 */
export function writeKeyedClip(kernel: KernelExports, views: MemoryViews, clip: AnimClip): number {
  const layout = clipLayout(clip);
  const keyed = layout.slots.map((i) => clip.curves[i]!.keys as KeyedKeys);
  const keyBytes = keyed.reduce((sum, k) => sum + align16(4 * k.times.length) + 16 * k.times.length, 0);
  const p = kernel.keyedClipCreate(...sharedClipArgs(clip, layout, clip.duration), keyBytes);
  writeSharedTables(kernel, views, p, clip, layout);
  const { f32, u32 } = views;
  const records = kernel.clipArray(p, ClipField.Extra);
  let at = records + 16 * keyed.length;
  keyed.forEach((keys, j) => {
    const n = keys.times.length;
    const rotation = clip.curves[layout.slots[j]!]!.curveType === 'rotation';
    const r = (records >>> 2) + 4 * j;
    u32[r] = n;
    u32[r + 1] = at;
    f32.set(keys.times, at >>> 2);
    at += align16(4 * n);
    u32[r + 2] = at;
    f32.set(rotation ? alignRotationKeys(keys.values, n).subarray(0, 4 * n) : keys.values, at >>> 2);
    at += 16 * n;
  });
  return p;
}
