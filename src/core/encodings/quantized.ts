import type { AnimClip } from '../../anim/index.js';
import { CLIP_KEY_COUNT, CLIP_KEY_DURATION, KIND_QUANTIZED, QUANT_KEY_BYTES, QUANT_PAD, QUANT_RANGE_SIZE } from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';
import type { EncodingContext, KeyEncoding } from './key-encoding.js';

/**
 * `quantized` keys (uniform keys compressed at load, `compression`) for `quantizedSampleSlots`
 * (assembly/quantized-clip.ts): the ranges of the linear slots, then key-major slices of
 * QUANT_KEY_BYTES per slot, the closing slice included, as `quantizeClip` coded them
 * (assembly/layout.ts QUANT_*). Only the curves `quantizeClip` accepted come here; the others keep
 * their own encoding beside it in a mixed clip.
 */
export const quantizedEncoding: KeyEncoding = {
  name: 'quantized',
  kind: KIND_QUANTIZED,
  raw: false,
  clipHeader: true,
  write(memory: KernelMemory, clip: AnimClip, layout: ClipLayout, context: EncodingContext): number {
    const S = layout.slots.length;
    const L = layout.linearCount;
    const n = clip.keyCount;
    // writeClip gives this encoding only the curves quantizeClip coded.
    const curves = layout.slots.map((i) => context.quantized![i]!);
    const { ptr, keys } = writeClipBlock(memory, clip, layout, clip.duration, QUANT_RANGE_SIZE * L + QUANT_KEY_BYTES * S * (n + 1) + QUANT_PAD);
    const { u32, f32, f64, u8 } = memory;
    u32[(ptr + CLIP_KEY_COUNT) >>> 2] = n;
    f64[(ptr + CLIP_KEY_DURATION) >>> 3] = clip.keyDuration;
    const slices = keys + QUANT_RANGE_SIZE * L;
    // Rotation slots in whole groups of four are stored field by field (assembly/layout.ts QUANT_*).
    const groupsEnd = L + ((S - L) & ~3);
    const u16 = new Uint16Array(u8.buffer);
    curves.forEach((q, j) => {
      if (j < L) f32.set(q.range!, (keys + QUANT_RANGE_SIZE * j) >>> 2);
      const lane = (j - L) & 3;
      const [first, stride] = j >= L && j < groupsEnd ? [QUANT_KEY_BYTES * (j - lane) + 2 * lane, 8] : [QUANT_KEY_BYTES * j, 2];
      for (let k = 0; k <= n; k++) {
        const at = slices + QUANT_KEY_BYTES * S * k + first;
        for (let f = 0; f < 3; f++) u16[(at + stride * f) >>> 1] = q.codes[3 * k + f]!;
      }
    });
    return ptr;
  },
};
