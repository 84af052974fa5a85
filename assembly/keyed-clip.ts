// The keyed clip sampler: every slot has its own key times (AAF channels, Meteor frames, glTF
// LINEAR and STEP samplers; spec aaf.md §2.3, glTF 2.0 Appendix C), one KEYED_* record per slot
// at CLIP_KEYS. Before the first key a curve holds key 0, from the last key on it holds the last
// key; equal neighbouring times are a step (the later key wins from that time on); a KEYED_STEP
// curve holds key k until key k+1. Rotations take the shorter arc between the two keys as stored
// (a dot test per sample), so a key's exact time gives that key as stored, as glTF requires. A per-instance cursor (the first u32 of the curve's cursor slots, owned
// by the sample buffer) remembers the last interval, so forward playback finds its keys in O(1);
// it is only a hint and never changes a result.
import { wrapCycle } from './clip-header';
import {
  CLIP_KEYS,
  CLIP_LINEAR_COUNT,
  CLIP_SLOT_COUNT,
  CLIP_SLOT_OUT,
  FLAG_SLERP,
  FLAG_STEP,
  KEYED_FLAGS,
  KEYED_KEY_COUNT,
  KEYED_RECORD_SIZE,
  KEYED_STEP,
  KEYED_TIMES,
  KEYED_VALUES,
} from './layout';
import { copy4, lerp4, nlerpShortest, SLERP_SHARED, slerpShortest } from './quat';

/**
 * Index of the last key with time <= t (0 when t is before every key), from the cursor's
 * interval: forward playback moves at most two intervals, counted without branches from the next
 * two key times (the times end with two +Inf sentinels, so both are always readable); anything
 * else is a binary search.
 */
// @ts-ignore: decorator
@inline
export function findKey(times: usize, n: u32, t: f64, cursor: u32): u32 {
  let c = cursor < n ? cursor : 0;
  const next = times + (<usize>c << 2);
  c += <u32>(t >= <f64>load<f32>(next, 4)) + <u32>(t >= <f64>load<f32>(next, 8));
  if (<f64>load<f32>(times + (<usize>c << 2)) <= t && t < <f64>load<f32>(times + (<usize>(c + 1) << 2))) return c;
  let lo: u32 = 0;
  let hi: u32 = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (<f64>load<f32>(times + (<usize>mid << 2)) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Samples the slots of keyed clip block `p` at `time` seconds (Cycle infinity wraps the clip time
 * first) into `out`, reading and updating `cursors` (CURSOR_BYTES_PER_CURVE per curve). Flags as
 * `uniformSampleSlots`.
 */
export function keyedSampleSlots(p: usize, time: f64, out: usize, cursors: usize, flags: u32): void {
  const t = wrapCycle(p, time);
  const S = load<u32>(p, CLIP_SLOT_COUNT);
  const L = load<u32>(p, CLIP_LINEAR_COUNT);
  const records = load<usize>(p, CLIP_KEYS);
  const slotOut = load<usize>(p, CLIP_SLOT_OUT);
  const step = (flags & FLAG_STEP) != 0;
  const slerp = (flags & FLAG_SLERP) != 0;
  for (let j: u32 = 0; j < S; j++) {
    const rec = records + <usize>j * KEYED_RECORD_SIZE;
    const n = load<u32>(rec, KEYED_KEY_COUNT);
    const times = load<usize>(rec, KEYED_TIMES);
    const values = load<usize>(rec, KEYED_VALUES);
    const outOffset = load<u32>(slotOut + (<usize>j << 2));
    const dst = out + <usize>outOffset;
    const cursorAt = cursors + <usize>outOffset; // 16 cursor bytes per curve, as 16 sample bytes
    const k = findKey(times, n, t, load<u32>(cursorAt));
    store<u32>(cursorAt, k);
    const a = values + (<usize>k << 4);
    const t0 = <f64>load<f32>(times + (<usize>k << 2));
    // Before the first key (k is 0), at the last key or beyond, and under a step: key k as stored.
    if (step || t < t0 || k + 1 >= n || (load<u32>(rec, KEYED_FLAGS) & KEYED_STEP) != 0) {
      copy4(a, dst);
      continue;
    }
    const t1 = <f64>load<f32>(times + (<usize>(k + 1) << 2));
    const w = <f32>((t - t0) / (t1 - t0));
    if (j < L) lerp4(a, a + 16, w, dst);
    else if (slerp) slerpShortest(SLERP_SHARED, a, a + 16, w, dst);
    else nlerpShortest(a, a + 16, w, dst);
  }
}
