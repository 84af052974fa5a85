import type { AnimClip } from '../../anim/index.js';
import {
  CLIP_KEY_COUNT,
  CLIP_SLICE_BYTES,
  CLIP_KEY_DURATION,
  KIND_QUANTIZED,
  QUANT_OFFSET_SIZE,
  QUANT_PAD,
  QUANT_RANGE_SIZE,
  QUANT_ROTATION_BYTES,
} from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';
import type { EncodingContext, KeyEncoding } from './key-encoding.js';

/**
 * Byte offsets in a slice for linear slots whose changing components are `masks` (bit i:
 * component i, whose code lies at offset + 2i), from `start` on: first fit, so that a slot's code
 * may take the place of another slot's constant component (x and z of one scale, x and z of the
 * next, in four codes). Slots with two gaps (x and z) go first, so the others fill their gaps.
 */
function packLinearCodes(masks: readonly number[], start: number): number[] {
  const taken: boolean[] = [];
  const offsets = new Array<number>(masks.length).fill(start);
  const order = masks.map((_, j) => j).sort((a, b) => Number(masks[b] === 5) - Number(masks[a] === 5) || a - b);
  // Every place below `free` is taken, so a fit starts at free − 2 at the earliest (linear time).
  let free = 0;
  for (const j of order) {
    const m = masks[j]!;
    if (m === 0) continue;
    let slot = Math.max(0, free - 2);
    while ((m & 1 && taken[slot]) || (m & 2 && taken[slot + 1]) || (m & 4 && taken[slot + 2])) slot++;
    for (let i = 0; i < 3; i++) if (m & (1 << i)) taken[slot + i] = true;
    while (taken[free]) free++;
    offsets[j] = start + 2 * slot;
  }
  return offsets;
}

/**
 * `quantized` keys (uniform keys compressed at load, `compression`) for `quantizedSampleSlots`
 * (assembly/quantized-clip.ts): the slice size (in the clip header), a range and the codes' offset per linear slot,
 * then key-major slices (rotations first, then the codes of the linear slots' changing components), the closing
 * slice included, as `quantizeClip` coded them (assembly/layout.ts QUANT_*). Only the curves
 * `quantizeClip` accepted come here; the others keep their own encoding beside it in a mixed clip.
 */
export const quantizedEncoding: KeyEncoding = {
  name: 'quantized',
  kind: KIND_QUANTIZED,
  raw: false,
  clipHeader: true,
  write(memory: KernelMemory, clip: AnimClip, layout: ClipLayout, context: EncodingContext): number {
    const S = layout.slots.length;
    const L = layout.linearCount;
    const R = S - L;
    const n = clip.keyCount;
    // writeClip gives this encoding only the curves quantizeClip coded.
    const curves = layout.slots.map((i) => context.quantized![i]!);
    const offsets = packLinearCodes(curves.slice(0, L).map((q) => q.changing), QUANT_ROTATION_BYTES * R);
    const sliceBytes = Math.max(QUANT_ROTATION_BYTES * R, ...curves.slice(0, L).map((q, j) => offsets[j]! + 2 * (32 - Math.clz32(q.changing))));
    const offsetTable = QUANT_RANGE_SIZE * L;
    const { ptr, keys } = writeClipBlock(memory, clip, layout, clip.duration, offsetTable + QUANT_OFFSET_SIZE * L + sliceBytes * (n + 1) + QUANT_PAD);
    const { u32, f32, f64, u8 } = memory;
    u32[(ptr + CLIP_KEY_COUNT) >>> 2] = n;
    f64[(ptr + CLIP_KEY_DURATION) >>> 3] = clip.keyDuration;
    u32[(ptr + CLIP_SLICE_BYTES) >>> 2] = sliceBytes;
    const slices = keys + offsetTable + QUANT_OFFSET_SIZE * L;
    const u16 = new Uint16Array(u8.buffer);
    for (let j = 0; j < L; j++) {
      const q = curves[j]!;
      f32.set(q.range!, (keys + QUANT_RANGE_SIZE * j) >>> 2);
      u32[(keys + offsetTable + QUANT_OFFSET_SIZE * j) >>> 2] = offsets[j]!;
      for (let k = 0; k <= n; k++) {
        const at = (slices + sliceBytes * k + offsets[j]!) >>> 1;
        for (let i = 0; i < 3; i++) if (q.changing & (1 << i)) u16[at + i] = q.codes[3 * k + i]!;
      }
    }
    // Rotation slots in whole groups of four are stored component by component (assembly/layout.ts QUANT_*).
    const groups = R & ~3;
    const i16 = new Int16Array(u8.buffer);
    for (let r = 0; r < R; r++) {
      const codes = curves[L + r]!.codes;
      const [first, stride] = r < groups ? [QUANT_ROTATION_BYTES * (r & ~3) + 2 * (r & 3), 8] : [QUANT_ROTATION_BYTES * r, 2];
      for (let k = 0; k <= n; k++) {
        const at = slices + sliceBytes * k + first;
        for (let i = 0; i < 4; i++) i16[(at + stride * i) >>> 1] = codes[4 * k + i]!;
      }
    }
    return ptr;
  },
};
