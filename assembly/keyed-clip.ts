// A keyed clip and its sampler: every animated curve has its own key times (AAF channels,
// Meteor frames; spec aaf.md §2.3). Per slot a 16-byte record {keyCount u32, times ptr (f32 ×
// keyCount, seconds, non-decreasing), values ptr (float4 × keyCount; rotations sign-aligned at
// load)}. Before the first key a curve holds key 0, from the last key on it holds the last key;
// equal neighbouring times are a step (the later key wins from that time on).
// A per-instance cursor (the first of the curve's four u32 slots, owned by the sample buffer) remembers the last interval,
// so forward playback finds its keys in O(1); it is only a hint and never changes a result.
import {
  clipAlloc,
  EXTRA,
  finishSample,
  LINEAR_COUNT,
  SAMPLE_SLERP,
  SAMPLE_STEP,
  SLOT_COUNT,
  SLOT_OUT,
  wrapCycle,
} from './clip-header';
import { copy4, lerp4, nlerpAligned, slerpShortest } from './quat';

const RECORD_SIZE: usize = 16;

/**
 * Allocates a keyed clip block: slot records (16 bytes each) start at `clipArray(p, EXTRA)`,
 * followed by `keyBytes` bytes for the records' times and values (the caller lays them out).
 */
export function keyedClipCreate(
  curveCount: u32,
  slotCount: u32,
  linearCount: u32,
  staticCount: u32,
  velocityCount: u32,
  pre: u32,
  post: u32,
  duration: f64,
  keyBytes: usize,
): usize {
  const extra = <usize>slotCount * RECORD_SIZE + keyBytes;
  return clipAlloc(curveCount, slotCount, linearCount, staticCount, velocityCount, pre, post, duration, extra);
}

/** Index of the last key with time <= t, given times[0] <= t; starts from the cursor's interval. */
// @ts-ignore: decorator
@inline
function findKey(times: usize, n: u32, t: f64, cursor: u32): u32 {
  let c = cursor < n ? cursor : 0;
  if (<f64>load<f32>(times + (<usize>c << 2)) <= t) {
    // Forward playback: the same interval or the next one.
    if (c + 1 >= n || t < <f64>load<f32>(times + (<usize>(c + 1) << 2))) return c;
    c++;
    if (c + 1 >= n || t < <f64>load<f32>(times + (<usize>(c + 1) << 2))) return c;
  }
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
 * Samples keyed clip `p` at `time` seconds (Cycle infinity wraps the clip time first) into `out`
 * and `outCounts`, reading and updating `cursors` (four u32 slots per curve; this uses the first). Flags as `uniformClipSample`.
 */
export function keyedClipSample(
  p: usize,
  time: f64,
  out: usize,
  outCounts: usize,
  cursors: usize,
  flags: u32,
  timeFactor: f32,
): void {
  const t = wrapCycle(p, time);
  const S = load<u32>(p, SLOT_COUNT);
  const L = load<u32>(p, LINEAR_COUNT);
  const records = load<usize>(p, EXTRA);
  const slotOut = load<usize>(p, SLOT_OUT);
  const step = (flags & SAMPLE_STEP) != 0;
  const slerp = (flags & SAMPLE_SLERP) != 0;
  for (let j: u32 = 0; j < S; j++) {
    const rec = records + <usize>j * RECORD_SIZE;
    const n = load<u32>(rec);
    const times = load<usize>(rec, 4);
    const values = load<usize>(rec, 8);
    const outOffset = load<u32>(slotOut + (<usize>j << 2));
    const dst = out + <usize>outOffset;
    if (t < <f64>load<f32>(times)) {
      copy4(values, dst);
      continue;
    }
    const cursorAt = cursors + <usize>outOffset; // the curve's first cursor slot; 16 bytes per curve
    const k = findKey(times, n, t, load<u32>(cursorAt));
    store<u32>(cursorAt, k);
    const a = values + (<usize>k << 4);
    if (step || k + 1 >= n) {
      copy4(a, dst);
      continue;
    }
    const t0 = <f64>load<f32>(times + (<usize>k << 2));
    const t1 = <f64>load<f32>(times + (<usize>(k + 1) << 2));
    const w = <f32>((t - t0) / (t1 - t0));
    if (j < L) lerp4(a, a + 16, w, dst);
    else if (slerp) slerpShortest(a, a + 16, w, dst);
    else nlerpAligned(a, a + 16, w, dst);
  }
  finishSample(p, out, outCounts, timeFactor);
}
