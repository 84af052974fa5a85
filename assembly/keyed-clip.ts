// The keyed clip sampler: every slot has its own key times (AAF channels, Meteor frames, glTF
// LINEAR and STEP samplers; spec aaf.md §2.3, glTF 2.0 Appendix C). Slots sharing one array of
// times form a time group (one KEYED_* record at CLIP_KEYS, assembly/layout.ts): its times are
// searched once per sample, and every member is interpolated with that key pair and weight (glTF
// samplers usually share one input accessor across a node's channels or the whole animation).
// Before the first key a curve holds key 0, from the last key on it holds the last key; equal
// neighbouring times are a step (the later key wins from that time on); a glTF STEP group
// (KEYED_LERP_END 0) holds key k until key k+1. Rotations take the shorter arc between the two
// keys as stored (a dot test per sample), so a key's exact time gives that key as stored, as glTF
// requires. A per-instance
// cursor (in the cursor bytes owned by the sample buffer, assembly/layout.ts KEYED_*) remembers the
// last interval, so forward playback finds its keys in O(1); it is only a hint and never changes a
// result.
import { wrapCycle } from './clip-header';
import {
  CLIP_KEY_COUNT,
  CLIP_KEYS,
  CLIP_LINEAR_COUNT,
  CLIP_CONSTANT_COUNT,
  CLIP_SINGLE_COUNT,
  CLIP_SLOT_OUT,
  CLIP_VELOCITY_COUNT,
  CURSOR_BYTES_PER_CURVE,
  FLAG_SLERP,
  FLAG_STEP,
  KEYED_FIRST_SLOT,
  KEYED_KEY_COUNT,
  KEYED_LERP_END,
  KEYED_LINEAR_COUNT,
  KEYED_MEMBER_COUNT,
  KEYED_RECORD_SIZE,
  KEYED_SINGLE_CURSOR,
  KEYED_TIMES,
  KEYED_VALUES,
} from './layout';
import { copy4, lerp4, lerp4Lanes, nlerpShortest, nlerpShortestLanes4, SLERP_SHARED, SLERP_LANES_SIZE, slerpPrepare, slerpPrepareLanes4, slerpPrepared, slerpPreparedEach4, slerpShortest } from './quat';

/**
 * Index of the last key with time <= t (0 when t is before every key), from the cursor's
 * interval (`cursorKey`), else by binary search (`searchKey`).
 */
// @ts-ignore: decorator
@inline
export function findKey(times: usize, n: u32, t: f64, cursor: u32): u32 {
  const c = cursorKey(times, n, <f32>t, cursor);
  if (<f64>load<f32>(times + (<usize>c << 2)) <= t && t < <f64>load<f32>(times + (<usize>(c + 1) << 2))) return c;
  return searchKey(times, n, t);
}

/**
 * The key forward playback reaches from the cursor's interval: it moves at most two intervals,
 * counted without branches from the next two key times (the times end with two +Inf sentinels, so
 * both are always readable). Compared in f32 (`tf`, the time rounded to f32): a hint, cheaper than
 * widening both times to f64; where the rounding moves t onto a key time the key is one too far,
 * which the caller's check (in f64) catches. The caller checks that t lies in the key's interval,
 * else searches.
 */
// @ts-ignore: decorator
@inline
function cursorKey(times: usize, n: u32, tf: f32, cursor: u32): u32 {
  const c = cursor < n ? cursor : 0;
  const next = times + (<usize>c << 2);
  return c + <u32>(tf >= load<f32>(next, 4)) + <u32>(tf >= load<f32>(next, 8));
}

/** Index of the last key with time <= t (0 when t is before every key), by binary search. */
// @ts-ignore: decorator
@inline
function searchKey(times: usize, n: u32, t: f64): u32 {
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
 * The key of time group `rec` at `t` (clip time), through and into the group's cursor: the index
 * of the last key with time <= t, 0 before every key.
 */
// @ts-ignore: decorator
@inline
export function groupKey(rec: usize, t: f64, cursorAt: usize): u32 {
  const k = findKey(load<usize>(rec, KEYED_TIMES), load<u32>(rec, KEYED_KEY_COUNT), t, load<u32>(cursorAt));
  store<u32>(cursorAt, k);
  return k;
}

/** Groups of one slot are sampled in chunks of at most this many (the size of the lists below). */
const CHUNK: u32 = 64;
// A chunk's rotations to interpolate, as the key pass (`singleSlots`) lists them: the address of
// key k (key k + 1 follows), the output address and the weight, one u32 / f32 each.
const LIST_KEYS = memory.data(<i32>CHUNK << 2, 16);
const LIST_OUT = memory.data(<i32>CHUNK << 2, 16);
const LIST_W = memory.data(<i32>CHUNK << 2, 16);

/**
 * Samples the slots of keyed clip block `p` at `time` seconds (Cycle infinity wraps the clip time
 * first) into `out`, reading and updating `cursors` (CURSOR_BYTES_PER_CURVE per curve). Flags as
 * `uniformSampleSlots`.
 */
export function keyedSampleSlots(p: usize, time: f64, out: usize, cursors: usize, flags: u32): void {
  const t = wrapCycle(p, time);
  const G = load<u32>(p, CLIP_KEY_COUNT);
  const single = load<u32>(p, CLIP_SINGLE_COUNT);
  const L = load<u32>(p, CLIP_LINEAR_COUNT);
  const records = load<usize>(p, CLIP_KEYS);
  const slotOut = load<usize>(p, CLIP_SLOT_OUT);
  // Under FLAG_STEP no key interpolates.
  const lerpMask: u32 = flags & FLAG_STEP ? 0 : 0xffffffff;
  const slerp = (flags & FLAG_SLERP) != 0;
  // Groups of one slot: group j is slot j, the first L of them not rotations.
  singleSlots(records, slotOut, out, cursors, t, 0, L, lerpMask, false, slerp);
  singleSlots(records, slotOut, out, cursors, t, L, single, lerpMask, true, slerp);
  for (let g = single; g < G; g++) {
    const rec = records + <usize>g * KEYED_RECORD_SIZE;
    const times = load<usize>(rec, KEYED_TIMES);
    const M = <usize>load<u32>(rec, KEYED_MEMBER_COUNT);
    const R = <usize>load<u32>(rec, KEYED_LINEAR_COUNT);
    const outs = slotOut + (<usize>load<u32>(rec, KEYED_FIRST_SLOT) << 2);
    const k = groupKey(rec, t, cursors + <usize>load<u32>(outs));
    const stride = M << 4;
    const a = load<usize>(rec, KEYED_VALUES) + <usize>k * stride;
    const t0 = <f64>load<f32>(times + (<usize>k << 2));
    // Before the first key (k is 0), at the last key or beyond, and under a step: key k as stored.
    if (t < t0 || k >= (load<u32>(rec, KEYED_LERP_END) & lerpMask)) {
      for (let m: usize = 0; m < M; m++) copy4(a + (m << 4), out + <usize>load<u32>(outs + (m << 2)));
      continue;
    }
    const t1 = <f64>load<f32>(times + (<usize>(k + 1) << 2));
    const w = <f32>((t - t0) / (t1 - t0));
    const b = a + stride;
    // Two members an iteration: the loop's own instructions are as many as a lerp's.
    let m: usize = 0;
    for (; m + 2 <= R; m += 2) {
      lerp4(a + (m << 4), b + (m << 4), w, out + <usize>load<u32>(outs + (m << 2)));
      lerp4(a + (m << 4) + 16, b + (m << 4) + 16, w, out + <usize>load<u32>(outs + (m << 2), 4));
    }
    if (m < R) lerp4(a + (m << 4), b + (m << 4), w, out + <usize>load<u32>(outs + (m << 2)));
    if (!slerp) {
      for (let m = R; m < M; m++) nlerpShortest(a + (m << 4), b + (m << 4), w, out + <usize>load<u32>(outs + (m << 2)));
    } else if (w >= 0 && w <= 1) {
      // One weight for the group: the polynomial's coefficients once; the SIMD build slerps four
      // members at a time (their keys are consecutive float4s; each in f32 where its own gap
      // allows, `slerpPreparedEach4`, so that a member's bits do not depend on its neighbours:
      // the four-instance pass gives the same, assembly/skinning-four.ts), a group of four or more
      // its last members as the last four (again for those already done: the same keys give the
      // same bits), a smaller group one by one.
      if (R < M) slerpPrepare(SLERP_SHARED, w);
      m = R;
      if (ASC_FEATURE_SIMD && M - R >= 4) {
        for (let done = false; !done; m += 4) {
          if (m + 4 >= M) {
            m = M - 4;
            done = true;
          }
          const o = outs + (m << 2);
          slerpPreparedEach4(SLERP_SHARED, a + (m << 4), b + (m << 4), out + <usize>load<u32>(o), out + <usize>load<u32>(o, 4), out + <usize>load<u32>(o, 8), out + <usize>load<u32>(o, 12));
        }
        m = M;
      }
      for (; m < M; m++) slerpPrepared(SLERP_SHARED, a + (m << 4), b + (m << 4), out + <usize>load<u32>(outs + (m << 2)));
    } else {
      // Only a NaN time gets here: the exact formula, as for one curve.
      for (let m = R; m < M; m++) slerpShortest(SLERP_SHARED, a + (m << 4), b + (m << 4), w, out + <usize>load<u32>(outs + (m << 2)));
    }
  }
}

// Four instances of one keyed clip of one time group at their own times, for the four-instance
// skinning pass (assembly/skinning-four.ts), which interpolates the keys itself, lane l being
// instance l, instead of reading a sample buffer: `keyedLanes4` finds each instance's key pair and
// weight as `keyedSampleSlots` does and lays them out in KEY_LANES.
/** Per lane l: the address of its key row k (u32 at 4l), of key row k + 1 less that (at NEXT + 4l: 0 where held). */
export const LANES_NEXT: usize = 16;
/**
 * Per lane l: its weight in every lane (f32x4 at W + 16l); −0 where held, so that `a + (a − a)·w`
 * is a itself (±0 included) for every finite key (a non-finite one fails the pass's check).
 */
export const LANES_W: usize = 32;
/** Lane l all bits set where it holds key k as stored (before the first key, from the last key on, under a step): an i32x4. */
export const LANES_HELD: usize = 96;
/** The weights as one f32x4 (0 where held): the nlerp's, and the slerp coefficients'. */
export const LANES_WEIGHTS: usize = 112;
/** Under FLAG_SLERP, `slerpPrepareLanes4`'s coefficients for those weights. */
export const LANES_SLERP: usize = 128;
/** The layout above for `keyedLanes4`. */
export const KEY_LANES = memory.data(<i32>(LANES_SLERP + SLERP_LANES_SIZE), 16);

/**
 * Whether keyed clip block `p` can be sampled by `keyedLanes4` with `flags`: one time group holds
 * every curve (no constant or Velocity curve); under FLAG_SLERP at least four of them rotations
 * (so that `keyedSampleSlots` slerps them with `slerp4`), under nlerp any.
 */
export function keyedFourLanes(p: usize, flags: u32): bool {
  if (load<u32>(p, CLIP_KEY_COUNT) != 1 || load<u32>(p, CLIP_SINGLE_COUNT) != 0) return false;
  if (load<u32>(p, CLIP_CONSTANT_COUNT) != 0 || load<u32>(p, CLIP_VELOCITY_COUNT) != 0) return false;
  const rec = load<usize>(p, CLIP_KEYS);
  return (flags & FLAG_SLERP) == 0 || load<u32>(rec, KEYED_MEMBER_COUNT) - load<u32>(rec, KEYED_LINEAR_COUNT) >= 4;
}

/**
 * The key pairs and weights of four instances of keyed clip block `p` (`keyedFourLanes`) at the
 * times at `times` (f64 each), through and into their cursors (instance l's at `cursors` +
 * l · `cursorStride`), into KEY_LANES. Returns false, with nothing for the caller to use, where a
 * weight that interpolates lies outside [0, 1] (the exact slerp's case in `keyedSampleSlots`).
 */
export function keyedLanes4(p: usize, times: usize, cursors: usize, cursorStride: usize, flags: u32): bool {
  const rec = load<usize>(p, CLIP_KEYS);
  const keyTimes = load<usize>(rec, KEYED_TIMES);
  const values = load<usize>(rec, KEYED_VALUES);
  const stride = <usize>load<u32>(rec, KEYED_MEMBER_COUNT) << 4;
  const lerpEnd = load<u32>(rec, KEYED_LERP_END) & (flags & FLAG_STEP ? 0 : 0xffffffff);
  const cursorAt = cursors + <usize>load<u32>(load<usize>(p, CLIP_SLOT_OUT) + (<usize>load<u32>(rec, KEYED_FIRST_SLOT) << 2));
  const lanes = KEY_LANES;
  for (let l: usize = 0; l < 4; l++) {
    const t = wrapCycle(p, load<f64>(times + (l << 3)));
    const k = groupKey(rec, t, cursorAt + l * cursorStride);
    const t0 = <f64>load<f32>(keyTimes + (<usize>k << 2));
    store<u32>(lanes + (l << 2), values + <usize>k * stride);
    if (t < t0 || k >= lerpEnd) {
      store<u32>(lanes + LANES_NEXT + (l << 2), 0);
      v128.store(lanes + LANES_W + (l << 4), f32x4.splat(-0.0));
      store<i32>(lanes + LANES_HELD + (l << 2), -1);
      store<f32>(lanes + LANES_WEIGHTS + (l << 2), 0);
      continue;
    }
    const t1 = <f64>load<f32>(keyTimes + (<usize>(k + 1) << 2));
    const w = <f32>((t - t0) / (t1 - t0));
    if (!(w >= 0 && w <= 1)) return false;
    store<u32>(lanes + LANES_NEXT + (l << 2), stride);
    v128.store(lanes + LANES_W + (l << 4), f32x4.splat(w));
    store<i32>(lanes + LANES_HELD + (l << 2), 0);
    store<f32>(lanes + LANES_WEIGHTS + (l << 2), w);
  }
  if (flags & FLAG_SLERP) slerpPrepareLanes4(v128.load(lanes + LANES_WEIGHTS), lanes + LANES_SLERP);
  return true;
}

/**
 * Groups of one slot `from` … `to` − 1 (all rotations or none), in chunks of CHUNK: a key pass
 * finds each curve's key through its cursor, copies held keys, lerps the non-rotations and lists
 * the rotations with their weights; a second pass nlerps (the SIMD build four at a time) or
 * slerps the list. A rotation's work is a long chain of dependent loads and arithmetic (cursor,
 * times, weight, key pair, normalisation); in two short loops the processor overlaps more curves'
 * chains than in one long one. The SIMD build's key pass takes two curves at a time where both
 * stay in their cursors' reach and interpolate (one f64x2 division for both weights).
 */
// @ts-ignore: decorator
@inline
function singleSlots(records: usize, slotOut: usize, out: usize, cursors: usize, t: f64, from: u32, to: u32, lerpMask: u32, rotation: bool, slerp: bool): void {
  const tf = <f32>t;
  for (let j0 = from; j0 < to; j0 += CHUNK) {
    const j1 = min(j0 + CHUNK, to);
    let count: usize = 0;
    const recEnd = records + <usize>j1 * KEYED_RECORD_SIZE;
    let rec = records + <usize>j0 * KEYED_RECORD_SIZE;
    let slot = slotOut + (<usize>j0 << 2);
    // Slot j's cursor: the second u32 of cursor bytes j (assembly/layout.ts KEYED_*), in slot order.
    let cursorAt = cursors + <usize>j0 * CURSOR_BYTES_PER_CURVE + KEYED_SINGLE_CURSOR;
    if (ASC_FEATURE_SIMD) {
      for (; rec + 2 * KEYED_RECORD_SIZE <= recEnd; rec += 2 * KEYED_RECORD_SIZE, slot += 8, cursorAt += 2 * CURSOR_BYTES_PER_CURVE) {
        const recB = rec + KEYED_RECORD_SIZE;
        const cursorB = cursorAt + CURSOR_BYTES_PER_CURVE;
        const timesA = load<usize>(rec, KEYED_TIMES);
        const timesB = load<usize>(recB, KEYED_TIMES);
        const kA = cursorKeySimd(timesA, load<u32>(rec, KEYED_KEY_COUNT), tf, load<u32>(cursorAt));
        const kB = cursorKeySimd(timesB, load<u32>(recB, KEYED_KEY_COUNT), tf, load<u32>(cursorB));
        const pairA = f64x2.promote_low_f32x4(v128.load64_zero(timesA + (<usize>kA << 2)));
        const pairB = f64x2.promote_low_f32x4(v128.load64_zero(timesB + (<usize>kB << 2)));
        const ts = f64x2.splat(t);
        // Both in their intervals (t0 <= t, not t1 <= t) and both interpolating, else curve by curve.
        const hits = (i64x2.bitmask(f64x2.le(pairA, ts)) | (i64x2.bitmask(f64x2.le(pairB, ts)) << 2)) == 5;
        if (!(hits && kA < (load<u32>(rec, KEYED_LERP_END) & lerpMask) && kB < (load<u32>(recB, KEYED_LERP_END) & lerpMask))) {
          count = singleSlot(rec, out + <usize>load<u32>(slot), cursorAt, t, tf, lerpMask, rotation, count);
          count = singleSlot(recB, out + <usize>load<u32>(slot, 4), cursorB, t, tf, lerpMask, rotation, count);
          continue;
        }
        store<u32>(cursorAt, kA);
        store<u32>(cursorB, kB);
        const t0 = v128.shuffle<f64>(pairA, pairB, 0, 2);
        const t1 = v128.shuffle<f64>(pairA, pairB, 1, 3);
        // The two weights as findKey's f64 division gives each, rounded to f32 (lanes 0 and 1).
        const ws = f32x4.demote_f64x2_zero(f64x2.div(f64x2.sub(ts, t0), f64x2.sub(t1, t0)));
        const aA = load<usize>(rec, KEYED_VALUES) + (<usize>kA << 4);
        const aB = load<usize>(recB, KEYED_VALUES) + (<usize>kB << 4);
        const dA = out + <usize>load<u32>(slot);
        const dB = out + <usize>load<u32>(slot, 4);
        if (!rotation) {
          lerp4Lanes(aA, aA + 16, v128.shuffle<f32>(ws, ws, 0, 0, 0, 0), dA);
          lerp4Lanes(aB, aB + 16, v128.shuffle<f32>(ws, ws, 1, 1, 1, 1), dB);
          continue;
        }
        store<u32>(LIST_KEYS + (count << 2), aA);
        store<u32>(LIST_KEYS + (count << 2), aB, 4);
        store<u32>(LIST_OUT + (count << 2), dA);
        store<u32>(LIST_OUT + (count << 2), dB, 4);
        v128.store64_lane(LIST_W + (count << 2), ws, 0);
        count += 2;
      }
    }
    for (; rec < recEnd; rec += KEYED_RECORD_SIZE, slot += 4, cursorAt += CURSOR_BYTES_PER_CURVE) {
      count = singleSlot(rec, out + <usize>load<u32>(slot), cursorAt, t, tf, lerpMask, rotation, count);
    }
    if (!rotation) continue;
    let i: usize = 0;
    if (slerp) {
      for (; i < count; i++) {
        const a = load<u32>(LIST_KEYS + (i << 2));
        slerpShortest(SLERP_SHARED, a, a + 16, load<f32>(LIST_W + (i << 2)), load<u32>(LIST_OUT + (i << 2)));
      }
    } else {
      if (ASC_FEATURE_SIMD) {
        for (; i + 4 <= count; i += 4) {
          const k = LIST_KEYS + (i << 2);
          const o = LIST_OUT + (i << 2);
          const a0 = load<u32>(k), a1 = load<u32>(k, 4), a2 = load<u32>(k, 8), a3 = load<u32>(k, 12);
          nlerpShortestLanes4(a0, a1, a2, a3, a0 + 16, a1 + 16, a2 + 16, a3 + 16, v128.load(LIST_W + (i << 2)), load<u32>(o), load<u32>(o, 4), load<u32>(o, 8), load<u32>(o, 12));
        }
      }
      for (; i < count; i++) {
        const a = load<u32>(LIST_KEYS + (i << 2));
        nlerpShortest(a, a + 16, load<f32>(LIST_W + (i << 2)), load<u32>(LIST_OUT + (i << 2)));
      }
    }
  }
}

/**
 * `cursorKey` in the SIMD build: the cursor's times t_c … t_c+3 in one load (beyond the sentinels
 * it reads the values that follow the times, never used), the same key.
 */
// @ts-ignore: decorator
@inline
function cursorKeySimd(times: usize, n: u32, tf: f32, cursor: u32): u32 {
  const c = cursor < n ? cursor : 0;
  return c + popcnt<u32>(i32x4.bitmask(f32x4.le(v128.load(times + (<usize>c << 2)), f32x4.splat(tf))) & 6);
}

/**
 * One group of one slot (record `rec`, output `dst`, cursor at `cursorAt`) in the key pass of
 * `singleSlots`: a held key is copied, a non-rotation lerped, a rotation listed at `count`.
 * @returns the list's new length
 */
// @ts-ignore: decorator
@inline
function singleSlot(rec: usize, dst: usize, cursorAt: usize, t: f64, tf: f32, lerpMask: u32, rotation: bool, count: usize): usize {
  const n = load<u32>(rec, KEYED_KEY_COUNT);
  const times = load<usize>(rec, KEYED_TIMES);
  // findKey, keeping the interval's two times for the weight.
  let k: u32;
  let t0: f64, t1: f64;
  let hit: bool;
  if (ASC_FEATURE_SIMD) {
    // The interval's two times as an f64 pair, checked by one compare.
    k = cursorKeySimd(times, n, tf, load<u32>(cursorAt));
    const pair = f64x2.promote_low_f32x4(v128.load64_zero(times + (<usize>k << 2)));
    hit = i64x2.bitmask(f64x2.le(pair, f64x2.splat(t))) == 1; // t0 <= t, not t1 <= t
    t0 = f64x2.extract_lane(pair, 0);
    t1 = f64x2.extract_lane(pair, 1);
  } else {
    k = cursorKey(times, n, tf, load<u32>(cursorAt));
    t0 = <f64>load<f32>(times + (<usize>k << 2));
    t1 = <f64>load<f32>(times + (<usize>k << 2), 4);
    hit = t0 <= t && t < t1;
  }
  const values = load<usize>(rec, KEYED_VALUES);
  if (!hit) {
    k = searchKey(times, n, t);
    t0 = <f64>load<f32>(times + (<usize>k << 2));
    t1 = <f64>load<f32>(times + (<usize>k << 2), 4);
    if (!(t0 <= t)) {
      // Before the first key (k is 0): key 0 as stored.
      store<u32>(cursorAt, k);
      copy4(values, dst);
      return count;
    }
  }
  store<u32>(cursorAt, k);
  const a = values + (<usize>k << 4);
  // At the last key or beyond, and under a step: key k as stored.
  if (k >= (load<u32>(rec, KEYED_LERP_END) & lerpMask)) {
    copy4(a, dst);
    return count;
  }
  const w = <f32>((t - t0) / (t1 - t0));
  if (!rotation) {
    lerp4(a, a + 16, w, dst);
    return count;
  }
  store<u32>(LIST_KEYS + (count << 2), a);
  store<u32>(LIST_OUT + (count << 2), dst);
  store<f32>(LIST_W + (count << 2), w);
  return count + 1;
}
