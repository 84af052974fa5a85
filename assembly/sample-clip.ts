// One entry point for every clip kind: `sampleClip` dispatches on the kind (KIND_* of
// assembly/layout.ts) to the kind's sampler. Clip-header kinds sample their slots, then the shared
// part (constants, counts, Velocity scaling) is written once; a mixed clip samples each part's
// slots and finishes with its own header.
import { finishSample } from './clip-header';
import { cubicSampleSlots } from './cubic-clip';
import { keyedSampleSlots } from './keyed-clip';
import { CLIP_KEY_COUNT, CLIP_KEYS, KIND_CUBIC, KIND_KEYED, KIND_MIXED, KIND_QUANTIZED, KIND_UNIFORM, MIXED_BLOCK, MIXED_KIND, MIXED_RECORD_SIZE } from './layout';
import { quantizedSampleSlots } from './quantized-clip';
import { uniformSampleRanges, uniformSampleSlots } from './uniform-clip';
import { unityClipSample } from './unity-curve';

/** The slots of clip-header block `p` of kind `kind` (KIND_UNIFORM, KIND_KEYED or KIND_CUBIC). */
// @ts-ignore: decorator
@inline
function sampleSlots(p: usize, kind: u32, time: f64, out: usize, cursors: usize, flags: u32): void {
  if (kind == KIND_UNIFORM) uniformSampleSlots(p, time, out, flags);
  else if (kind == KIND_KEYED) keyedSampleSlots(p, time, out, cursors, flags);
  else if (kind == KIND_CUBIC) cubicSampleSlots(p, time, out, cursors, flags);
  else if (kind == KIND_QUANTIZED) quantizedSampleSlots(p, time, out, flags);
}

/**
 * Samples clip block `p` of kind `kind` at `time` seconds into one sample buffer: `out` (float4
 * per curve), `counts` (u8 per curve) and `cursors` (CURSOR_BYTES_PER_CURVE per curve, forward
 * playback hints; zeroed or left from earlier calls of the same clip). `flags`: FLAG_STEP,
 * FLAG_SLERP, FLAG_RAW. Velocity samples are scaled by `timeFactor` (Unity-curve clips ignore
 * FLAG_STEP and `timeFactor`).
 */
export function sampleClip(p: usize, kind: u32, time: f64, out: usize, counts: usize, cursors: usize, flags: u32, timeFactor: f32): void {
  if (kind == KIND_UNIFORM || kind == KIND_KEYED || kind == KIND_CUBIC || kind == KIND_QUANTIZED) {
    sampleSlots(p, kind, time, out, cursors, flags);
  } else if (kind == KIND_MIXED) {
    const parts = load<u32>(p, CLIP_KEY_COUNT);
    const records = load<usize>(p, CLIP_KEYS);
    for (let i: u32 = 0; i < parts; i++) {
      const r = records + <usize>i * MIXED_RECORD_SIZE;
      sampleSlots(load<usize>(r, MIXED_BLOCK), load<u32>(r, MIXED_KIND), time, out, cursors, flags);
    }
  } else {
    unityClipSample(p, time, out, counts, flags, cursors);
    return;
  }
  finishSample(p, out, counts, timeFactor);
}

/**
 * `sampleClip` of uniform clip block `p` (KIND_UNIFORM) with only the slots in the ranges at
 * `ranges` sampled (`uniformSampleRanges`): the curves of other slots keep what `out` held.
 */
export function sampleUniformRanges(p: usize, time: f64, out: usize, counts: usize, flags: u32, timeFactor: f32, ranges: usize): void {
  uniformSampleRanges(p, time, out, flags, ranges);
  finishSample(p, out, counts, timeFactor);
}
