// The part of a clip block that every clip kind shares: counts, infinity, duration, and the
// per-curve tables for static/inactive curves, sample counts and Velocity scaling. A kind's own
// fields follow at KIND_FIELDS; its arrays follow the shared ones (see `clipAlloc`).
import { alloc } from './memory';
import { copy4 } from './quat';

export const CURVE_COUNT: u32 = 0;
export const STATIC_COUNT: u32 = 4;
export const VELOCITY_COUNT: u32 = 8;
export const PRE: u32 = 12;
export const POST: u32 = 16;
/** Animated curves ("slots"): non-rotation slots first, rotation slots after. */
export const SLOT_COUNT: u32 = 20;
export const LINEAR_COUNT: u32 = 24;
export const DURATION: u32 = 32;
/** u32 output byte offset per slot. */
export const SLOT_OUT: u32 = 40;
/** u32 output byte offset per static/inactive curve, and their float4 values. */
export const STATIC_OUT: u32 = 44;
export const STATIC_VALUES: u32 = 48;
/** u8 sample count per curve. */
export const COUNTS: u32 = 52;
/** u32 output byte offset per Velocity curve. */
export const VELOCITY_OUT: u32 = 56;
/** Start of the kind's own data (`extraSize` bytes, 16-aligned). */
export const EXTRA: u32 = 60;
/** First header byte a kind may use for its own fields (up to HEADER_SIZE). */
export const KIND_FIELDS: u32 = 64;
export const HEADER_SIZE: u32 = 96;

/** Infinity types as stored: 0 constant, 1 cycle. */
export const CYCLE: u32 = 1;

/** `flags` bits of the clip samplers. */
export const SAMPLE_STEP: u32 = 1;
export const SAMPLE_SLERP: u32 = 2;

export function align16(n: usize): usize {
  return (n + 15) & ~(<usize>15);
}

/** Allocates a clip block with the shared arrays and `extraSize` bytes for the kind's data. */
export function clipAlloc(
  curveCount: u32,
  slotCount: u32,
  linearCount: u32,
  staticCount: u32,
  velocityCount: u32,
  pre: u32,
  post: u32,
  duration: f64,
  extraSize: usize,
): usize {
  const slotSize = align16(<usize>slotCount * 4);
  const staticOutSize = align16(<usize>staticCount * 4);
  const staticValuesSize = <usize>staticCount * 16;
  const countsSize = align16(<usize>curveCount);
  const velocitySize = align16(<usize>velocityCount * 4);
  const p = alloc(<usize>HEADER_SIZE + slotSize + staticOutSize + staticValuesSize + countsSize + velocitySize + align16(extraSize));
  store<u32>(p, curveCount, CURVE_COUNT);
  store<u32>(p, staticCount, STATIC_COUNT);
  store<u32>(p, velocityCount, VELOCITY_COUNT);
  store<u32>(p, pre, PRE);
  store<u32>(p, post, POST);
  store<u32>(p, slotCount, SLOT_COUNT);
  store<u32>(p, linearCount, LINEAR_COUNT);
  store<f64>(p, duration, DURATION);
  let at = p + <usize>HEADER_SIZE;
  store<usize>(p, at, SLOT_OUT);
  at += slotSize;
  store<usize>(p, at, STATIC_OUT);
  at += staticOutSize;
  store<usize>(p, at, STATIC_VALUES);
  at += staticValuesSize;
  store<usize>(p, at, COUNTS);
  at += countsSize;
  store<usize>(p, at, VELOCITY_OUT);
  at += velocitySize;
  store<usize>(p, at, EXTRA);
  return p;
}

/** Byte address of one of the shared arrays (`field` is SLOT_OUT … EXTRA). */
export function clipArray(p: usize, field: u32): usize {
  return load<usize>(p + <usize>field);
}

/**
 * `time` after Cycle pre-/post-infinity: times before 0 (pre) or from the duration on (post)
 * wrap floor-based into [0, duration). Other times are returned unchanged.
 */
export function wrapCycle(p: usize, time: f64): f64 {
  const dur = load<f64>(p, DURATION);
  if (dur <= 0) return time;
  if ((time < 0 && load<u32>(p, PRE) == CYCLE) || (time >= dur && load<u32>(p, POST) == CYCLE)) {
    // max(): a tiny negative time can survive the wrap by rounding (t / dur rounds to -0).
    return max<f64>(0, time - Math.floor(time / dur) * dur);
  }
  return time;
}

/**
 * Writes what does not depend on the keys: static/inactive curves' values, the sample counts, and
 * Velocity outputs scaled by (timeFactor, timeFactor, timeFactor, 1) (spec nebula.md §3.3).
 */
export function finishSample(p: usize, out: usize, outCounts: usize, timeFactor: f32): void {
  const staticCount = load<u32>(p, STATIC_COUNT);
  const staticOut = load<usize>(p, STATIC_OUT);
  const staticValues = load<usize>(p, STATIC_VALUES);
  for (let i: u32 = 0; i < staticCount; i++) {
    copy4(staticValues + (<usize>i << 4), out + <usize>load<u32>(staticOut + (<usize>i << 2)));
  }
  memory.copy(outCounts, load<usize>(p, COUNTS), load<u32>(p, CURVE_COUNT));
  if (timeFactor != 1) {
    const velocityCount = load<u32>(p, VELOCITY_COUNT);
    const velocityOut = load<usize>(p, VELOCITY_OUT);
    for (let i: u32 = 0; i < velocityCount; i++) {
      const o = out + <usize>load<u32>(velocityOut + (<usize>i << 2));
      store<f32>(o, load<f32>(o) * timeFactor);
      store<f32>(o, load<f32>(o, 4) * timeFactor, 4);
      store<f32>(o, load<f32>(o, 8) * timeFactor, 8);
    }
  }
}
