// The uniform clip sampler (Nebula3 2009 `AnimUtil::Sample`, spec nebula.md §3.3, with
// floor-based negative times).
//
// Keys (at CLIP_KEYS) are stored key-major as in the Nebula pool: for each key k one "slice" of S
// float4s, one per slot (linear slots first, rotations after). There are keyCount + 1 slices: the
// extra one is key 0 again (rotations sign-aligned to the last key), so a cycling clip's last
// interval reads slice n and never wraps.
import { CLIP_KEYS, CLIP_LINEAR_COUNT, CLIP_SLOT_COUNT, CLIP_SLOT_OUT, FLAG_SLERP, FLAG_STEP } from './layout';
import { copy4, lerp4, nlerpAligned, nlerpAlignedLanes4, SLERP_SHARED, slerpPrepare, slerpPrepared, slerpPrepared4 } from './quat';
import { pairK0, pairK1, pairW, uniformKeyPair } from './uniform-key';

/**
 * Samples the slots of uniform clip block `p` at `time` seconds into `out` (float4 per curve, at
 * each slot's output offset). `flags`: FLAG_STEP (key k0 as stored), FLAG_SLERP (rotations
 * slerped, else nlerp).
 */
export function uniformSampleSlots(p: usize, time: f64, out: usize, flags: u32): void {
  uniformKeyPair(p, time);
  sampleRange(p, out, flags, 0, load<u32>(p, CLIP_SLOT_COUNT));
}

/**
 * `uniformSampleSlots` of the slots in the ranges at `ranges` only (u32 count, then [from, to)
 * slot index pairs, ascending): a layer whose mask leaves curves out (assembly/blend.ts). The
 * other slots' outputs keep what they held.
 */
export function uniformSampleRanges(p: usize, time: f64, out: usize, flags: u32, ranges: usize): void {
  uniformKeyPair(p, time);
  const count = <usize>load<u32>(ranges);
  for (let r: usize = 0; r < count; r++) sampleRange(p, out, flags, load<u32>(ranges + (r << 3), 4), load<u32>(ranges + (r << 3), 8));
}

/** Slots [from, to) of block `p` at the key pair of the last `uniformKeyPair` call. */
// @ts-ignore: decorator
@inline
function sampleRange(p: usize, out: usize, flags: u32, from: u32, to: u32): void {
  const k0 = pairK0;
  const k1 = pairK1;
  const w = pairW;

  const S = load<u32>(p, CLIP_SLOT_COUNT);
  const L = load<u32>(p, CLIP_LINEAR_COUNT);
  const keys = load<usize>(p, CLIP_KEYS);
  const slotOut = load<usize>(p, CLIP_SLOT_OUT);
  const s0 = keys + <usize>k0 * <usize>S * 16;
  const s1 = keys + <usize>k1 * <usize>S * 16;

  if (flags & FLAG_STEP) {
    for (let j = from; j < to; j++) {
      copy4(s0 + (<usize>j << 4), out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
    return;
  }
  // By pointer (slot j's keys in slices k0 and k1, its output offset): fewer instructions a slot.
  const linearEnd = min<u32>(to, L);
  const slotEnd = slotOut + (<usize>linearEnd << 2);
  for (let a = s0 + (<usize>from << 4), b = s1 + (<usize>from << 4), slot = slotOut + (<usize>from << 2); slot < slotEnd; a += 16, b += 16, slot += 4) {
    lerp4(a, b, w, out + <usize>load<u32>(slot));
  }
  const first = max<u32>(from, L);
  if (flags & FLAG_SLERP) {
    slerpPrepare(SLERP_SHARED, w);
    let j: u32 = first;
    if (ASC_FEATURE_SIMD) {
      // Four rotations at a time (their slots are consecutive float4s); the rest one by one.
      for (; j + 4 <= to; j += 4) {
        const o = <usize>j << 4;
        const outs = slotOut + (<usize>j << 2);
        slerpPrepared4(SLERP_SHARED, s0 + o, s1 + o, out + <usize>load<u32>(outs), out + <usize>load<u32>(outs, 4), out + <usize>load<u32>(outs, 8), out + <usize>load<u32>(outs, 12));
      }
    }
    for (; j < to; j++) {
      const o = <usize>j << 4;
      slerpPrepared(SLERP_SHARED, s0 + o, s1 + o, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
  } else {
    let j: u32 = first;
    if (ASC_FEATURE_SIMD && j < to) {
      // Four rotations at a time as structure of arrays (their slots are consecutive float4s).
      const ws = f32x4.splat(w);
      j += (to - j) & ~3;
      const outsEnd = slotOut + (<usize>j << 2);
      for (let a = s0 + (<usize>first << 4), b = s1 + (<usize>first << 4), outs = slotOut + (<usize>first << 2); outs < outsEnd; a += 64, b += 64, outs += 16) {
        nlerpAlignedLanes4(a, a + 16, a + 32, a + 48, b, b + 16, b + 32, b + 48, ws, out + <usize>load<u32>(outs), out + <usize>load<u32>(outs, 4), out + <usize>load<u32>(outs, 8), out + <usize>load<u32>(outs, 12));
      }
    }
    for (; j < to; j++) {
      const o = <usize>j << 4;
      nlerpAligned(s0 + o, s1 + o, w, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
  }
}
