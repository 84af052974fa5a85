import { type AnimClip, restValue } from '../../anim/index.js';
import {
  CLIP_CONSTANT_COUNT,
  CLIP_CONSTANT_OUT,
  CLIP_CONSTANT_VALUES,
  CLIP_COUNTS,
  CLIP_CURVE_COUNT,
  CLIP_DURATION,
  CLIP_HEADER_SIZE,
  CLIP_KEYS,
  CLIP_LINEAR_COUNT,
  CLIP_POST,
  CLIP_PRE,
  CLIP_SLOT_COUNT,
  CLIP_SLOT_OUT,
  CLIP_VELOCITY_COUNT,
  CLIP_VELOCITY_OUT,
  INFINITY_CONSTANT,
  INFINITY_CYCLE,
} from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';

/**
 * Allocates and fills a clip-header block (assembly/layout.ts, CLIP_*) with `keyBytes` bytes of key
 * data at CLIP_KEYS for the caller to fill: counts, infinity, `duration` (seconds), constant values
 * (a static curve's value; an inactive curve's first key) and key data in the block; the slot and
 * constant output offsets, sample counts (1 active, 0 inactive) and Velocity output offsets, which
 * only the clip's layout decides, in a block shared with the clips of the same layout
 * (`KernelMemory.sharedArrays`; the header points to them, so the kernels do not tell the two apart).
 * @returns the block pointer and the address of its key data
 */
export function writeClipBlock(memory: KernelMemory, clip: AnimClip, layout: ClipLayout, duration: number, keyBytes: number): { ptr: number; keys: number } {
  const n = clip.curves.length;
  const { ptr, arrays } = memory.allocBlock(CLIP_HEADER_SIZE, [16 * layout.constant.length, keyBytes]);
  const [constantValues, keys] = arrays as [number, number];
  const active = new Uint8Array(n);
  for (let i = 0; i < n; i++) active[i] = clip.curves[i]!.active ? 1 : 0;
  const [slotOut, constantOut, counts, velocityOut] = memory.sharedArrays(ptr, [outputOffsets(layout.slots), outputOffsets(layout.constant), active, outputOffsets(layout.velocity)]) as [number, number, number, number];
  // Views are read after the allocations, which may have grown memory.
  const { u32, f32, f64 } = memory;
  const at = (field: number) => (ptr + field) >>> 2;
  u32[at(CLIP_CURVE_COUNT)] = n;
  u32[at(CLIP_CONSTANT_COUNT)] = layout.constant.length;
  u32[at(CLIP_VELOCITY_COUNT)] = layout.velocity.length;
  u32[at(CLIP_PRE)] = clip.preInfinity === 'cycle' ? INFINITY_CYCLE : INFINITY_CONSTANT;
  u32[at(CLIP_POST)] = clip.postInfinity === 'cycle' ? INFINITY_CYCLE : INFINITY_CONSTANT;
  u32[at(CLIP_SLOT_COUNT)] = layout.slots.length;
  u32[at(CLIP_LINEAR_COUNT)] = layout.linearCount;
  f64[(ptr + CLIP_DURATION) >>> 3] = duration;
  u32[at(CLIP_SLOT_OUT)] = slotOut;
  u32[at(CLIP_CONSTANT_OUT)] = constantOut;
  u32[at(CLIP_CONSTANT_VALUES)] = constantValues;
  u32[at(CLIP_COUNTS)] = counts;
  u32[at(CLIP_VELOCITY_OUT)] = velocityOut;
  u32[at(CLIP_KEYS)] = keys;
  for (let s = 0; s < layout.constant.length; s++) f32.set(restValue(clip.curves[layout.constant[s]!]!.keys), (constantValues >>> 2) + 4 * s);
  return { ptr, keys };
}

/** Output offsets (16 bytes a curve, u32) of curve indices, as bytes for `sharedArrays`; a loop, not a callback made per clip (V8 compiled those again per clip loaded: issue 15). */
function outputOffsets(curves: readonly number[]): Uint8Array {
  const out = new Uint32Array(curves.length);
  for (let k = 0; k < curves.length; k++) out[k] = 16 * curves[k]!;
  return new Uint8Array(out.buffer);
}
