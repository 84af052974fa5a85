import type { AnimClip } from '../../anim/index.js';
import {
  CLIP_KEY_COUNT,
  CLIP_KEY_DURATION,
  CLIP_QUANT_SLICES,
  CLIP_SLICE_BYTES,
  KIND_QUANTIZED,
  QUANT_CODE_BYTES,
  QUANT_GROUP_COUNTS,
  QUANT_RANGE_MINS,
  QUANT_RANGE_STEP,
  QUANT_RANGES,
  QUANT_ROTATION_BYTES,
  QUANT_W_ROTATIONS,
} from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';
import { omitsW } from './quantize.js';
import type { EncodingContext, KeyEncoding } from './key-encoding.js';

/** Components (set bits) of a changing-component mask. */
function componentCount(mask: number): number {
  return (mask & 1) + ((mask >> 1) & 1) + (mask >> 2);
}

/**
 * `quantized` keys (uniform keys compressed at load, `compression`) for `quantizedSampleSlots`
 * (assembly/quantized-clip.ts): the linear slots in groups of four by changing-component mask (a
 * partial group filled with copies of its first slot), their group counts and ranges, then
 * key-major slices (rotations first, then per group the codes of its changing components), the
 * closing slice included, as `quantizeClip` coded them (assembly/layout.ts QUANT_*). Only the
 * curves `quantizeClip` accepted come here; the others keep their own encoding beside it in a
 * mixed clip.
 */
export const quantizedEncoding: KeyEncoding = {
  name: 'quantized',
  kind: KIND_QUANTIZED,
  raw: false,
  clipHeader: true,
  write(memory: KernelMemory, clip: AnimClip, clipLayout: ClipLayout, context: EncodingContext): number {
    // writeClip gives this encoding only the curves quantizeClip coded.
    const coded = (i: number) => context.quantized![i]!;
    const linear = clipLayout.slots.slice(0, clipLayout.linearCount);
    const groupCounts: number[] = [];
    const grouped: number[] = [];
    for (let m = 0; m < 8; m++) {
      const slots = linear.filter((i) => coded(i).changing === m);
      while (slots.length % 4) slots.push(slots[0]!);
      groupCounts.push(slots.length / 4);
      grouped.push(...slots);
    }
    const L = grouped.length;
    const R = clipLayout.slots.length - clipLayout.linearCount;
    const rotations = clipLayout.slots.slice(clipLayout.linearCount);
    const omitW = rotations.map((i) => omitsW(coded(i).codes));
    const byW = rotations.filter((_, r) => omitW[r]);
    const layout = { ...clipLayout, slots: [...grouped, ...byW, ...rotations.filter((_, r) => !omitW[r])], linearCount: L };
    const n = clip.keyCount;
    const masks = grouped.map((i) => coded(i).changing);
    let rangeBytes = 0;
    let codeBytes = 0;
    for (let j = 0; j < L; j += 4) {
      rangeBytes += QUANT_RANGE_MINS + QUANT_RANGE_STEP * componentCount(masks[j]!);
      codeBytes += QUANT_CODE_BYTES * componentCount(masks[j]!);
    }
    const sliceBytes = QUANT_ROTATION_BYTES * R + codeBytes;
    const slicesAt = QUANT_RANGES + rangeBytes;
    const { ptr, keys } = writeClipBlock(memory, clip, layout, clip.duration, slicesAt + sliceBytes * (n + 1));
    const { u32, f32, f64, u8 } = memory;
    u32[(ptr + CLIP_KEY_COUNT) >>> 2] = n;
    f64[(ptr + CLIP_KEY_DURATION) >>> 3] = clip.keyDuration;
    u32[(ptr + CLIP_SLICE_BYTES) >>> 2] = sliceBytes;
    u32[(ptr + CLIP_QUANT_SLICES) >>> 2] = slicesAt;
    u32.set(groupCounts, (keys + QUANT_GROUP_COUNTS) >>> 2);
    u32[(keys + QUANT_W_ROTATIONS) >>> 2] = byW.length & ~3;
    const slices = keys + slicesAt;
    const u16 = new Uint16Array(u8.buffer);
    let range = keys + QUANT_RANGES;
    let codes = QUANT_ROTATION_BYTES * R;
    for (let j = 0; j < L; j += 4) {
      const m = masks[j]!;
      const changing = [0, 1, 2].filter((c) => m & (1 << c));
      for (let lane = 0; lane < 4; lane++) {
        const q = coded(grouped[j + lane]!);
        // Vectors of four lanes: min x, y, z, then the step of each changing component.
        for (let c = 0; c < 3; c++) f32[((range + 16 * c) >>> 2) + lane] = q.range![c]!;
        changing.forEach((c, r) => {
          f32[((range + QUANT_RANGE_MINS + QUANT_RANGE_STEP * r) >>> 2) + lane] = q.range![4 + c]!;
          for (let k = 0; k <= n; k++) u16[((slices + sliceBytes * k + codes + QUANT_CODE_BYTES * r) >>> 1) + lane] = q.codes[3 * k + c]!;
        });
      }
      range += QUANT_RANGE_MINS + QUANT_RANGE_STEP * changing.length;
      codes += QUANT_CODE_BYTES * changing.length;
    }
    const groups = R & ~3;
    for (let r = 0; r < R; r++) {
      const codes = coded(layout.slots[L + r]!).codes;
      const [first, stride] = r < groups ? [QUANT_ROTATION_BYTES * (r & ~3) + 2 * (r & 3), 8] : [QUANT_ROTATION_BYTES * r, 2];
      for (let k = 0; k <= n; k++) {
        const at = slices + sliceBytes * k + first;
        for (let i = 0; i < 3; i++) u16[(at + stride * i) >>> 1] = codes[3 * k + i]!;
      }
    }
    return ptr;
  },
};
