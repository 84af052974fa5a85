import type { AnimClip } from '../../anim/index.js';
import {
  CLIP_KEY_COUNT,
  CLIP_KEY_DURATION,
  KIND_QUANTIZED,
  QUANT_PAD,
  QUANT_ROTATION_BYTES,
  QUANT_SLICE_BYTES,
  QUANT_TRACK_MIN,
  QUANT_TRACK_OFFSET,
  QUANT_TRACK_PLACE,
  QUANT_TRACK_SIZE,
  QUANT_TRACK_STEP,
  QUANT_TRACKS,
} from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';
import type { EncodingContext, KeyEncoding } from './key-encoding.js';

/** An i8x16.swizzle index that reads zero. */
const ZERO_LANE = 0xff;

/**
 * `quantized` keys (uniform keys compressed at load, `compression`) for `quantizedSampleSlots`
 * (assembly/quantized-clip.ts): the slice size, a track record per linear slot, then key-major
 * slices (rotations first, then the codes of the linear slots' changing components), the closing
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
    // Per linear slot, its changing components (step > 0) and their byte offset in a slice.
    const changing = curves.slice(0, L).map((q) => [0, 1, 2].filter((i) => q.range![4 + i]! > 0));
    const offsets: number[] = [];
    let sliceBytes = QUANT_ROTATION_BYTES * R;
    for (const c of changing) {
      offsets.push(sliceBytes);
      sliceBytes += 2 * c.length;
    }
    const { ptr, keys } = writeClipBlock(memory, clip, layout, clip.duration, QUANT_TRACKS + QUANT_TRACK_SIZE * L + sliceBytes * (n + 1) + QUANT_PAD);
    const { u32, f32, f64, u8 } = memory;
    u32[(ptr + CLIP_KEY_COUNT) >>> 2] = n;
    f64[(ptr + CLIP_KEY_DURATION) >>> 3] = clip.keyDuration;
    u32[(keys + QUANT_SLICE_BYTES) >>> 2] = sliceBytes;
    const slices = keys + QUANT_TRACKS + QUANT_TRACK_SIZE * L;
    const u16 = new Uint16Array(u8.buffer);
    changing.forEach((components, j) => {
      const track = keys + QUANT_TRACKS + QUANT_TRACK_SIZE * j;
      const range = curves[j]!.range!;
      f32.set(range.subarray(0, 4), (track + QUANT_TRACK_MIN) >>> 2);
      f32.set(range.subarray(4, 8), (track + QUANT_TRACK_STEP) >>> 2);
      // Lane i takes lane m of the lerped codes (the slot's m-th changing component): bytes 4m … 4m + 3.
      u8.fill(ZERO_LANE, track + QUANT_TRACK_PLACE, track + QUANT_TRACK_PLACE + 16);
      components.forEach((i, m) => u8.set([4 * m, 4 * m + 1, 4 * m + 2, 4 * m + 3], track + QUANT_TRACK_PLACE + 4 * i));
      u32[(track + QUANT_TRACK_OFFSET) >>> 2] = offsets[j]!;
      const codes = curves[j]!.codes;
      for (let k = 0; k <= n; k++) {
        const at = slices + sliceBytes * k + offsets[j]!;
        components.forEach((i, m) => (u16[(at >>> 1) + m] = codes[3 * k + i]!));
      }
    });
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
