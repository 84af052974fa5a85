// A uniform clip in linear memory and its sampler (Nebula3 2009 `AnimUtil::Sample`, spec
// nebula.md §3.3, with floor-based negative times).
//
// One block holds a header and its arrays. Keys are stored key-major as in the Nebula pool: for
// each key k, one "slice" of S float4s, one per animated slot; linear slots first (L of them),
// rotation slots after. There are keyCount + 1 slices: the extra one is key 0 again (rotations
// sign-aligned to the last key), so a cycling clip's last interval reads slice n, never wraps.
// Static and inactive curves are written from their own list; counts are copied from a table.
import { alloc } from './memory';
import { copy4, lerp4, nlerpAligned, slerpShortest } from './quat';

const CURVE_COUNT: u32 = 0;
const KEY_COUNT: u32 = 4;
const SLICE_WIDTH: u32 = 8;
const LINEAR_COUNT: u32 = 12;
const STATIC_COUNT: u32 = 16;
const VELOCITY_COUNT: u32 = 20;
const PRE: u32 = 24;
const POST: u32 = 28;
const KEY_DURATION: u32 = 32;
const DURATION: u32 = 40;
const KEYS: u32 = 48;
const SLOT_OUT: u32 = 52;
const STATIC_OUT: u32 = 56;
const STATIC_VALUES: u32 = 60;
const COUNTS: u32 = 64;
const VELOCITY_OUT: u32 = 68;
const HEADER_SIZE: u32 = 80;

/** Infinity types as stored: 0 constant, 1 cycle. */
const CYCLE: u32 = 1;

/** `flags` bits for `uniformClipSample`. */
export const SAMPLE_STEP: u32 = 1;
export const SAMPLE_SLERP: u32 = 2;

function align16(n: usize): usize {
  return (n + 15) & ~(<usize>15);
}

/**
 * Allocates a clip block. The caller fills the arrays found with the `uniformClip*` getters:
 * keys ((keyCount + 1) × sliceWidth float4), slot → output byte offset (u32 × sliceWidth),
 * static output byte offsets (u32) and values (float4), per-curve counts (u8 × curveCount) and
 * velocity curves' output byte offsets (u32).
 */
export function uniformClipCreate(
  curveCount: u32,
  keyCount: u32,
  sliceWidth: u32,
  linearCount: u32,
  staticCount: u32,
  velocityCount: u32,
  pre: u32,
  post: u32,
  keyDuration: f64,
  duration: f64,
): usize {
  const keysSize = align16(<usize>(keyCount + 1) * <usize>sliceWidth * 16);
  const slotSize = align16(<usize>sliceWidth * 4);
  const staticOutSize = align16(<usize>staticCount * 4);
  const staticValuesSize = <usize>staticCount * 16;
  const countsSize = align16(<usize>curveCount);
  const velocitySize = align16(<usize>velocityCount * 4);
  const p = alloc(<usize>HEADER_SIZE + keysSize + slotSize + staticOutSize + staticValuesSize + countsSize + velocitySize);
  store<u32>(p, curveCount, CURVE_COUNT);
  store<u32>(p, keyCount, KEY_COUNT);
  store<u32>(p, sliceWidth, SLICE_WIDTH);
  store<u32>(p, linearCount, LINEAR_COUNT);
  store<u32>(p, staticCount, STATIC_COUNT);
  store<u32>(p, velocityCount, VELOCITY_COUNT);
  store<u32>(p, pre, PRE);
  store<u32>(p, post, POST);
  store<f64>(p, keyDuration, KEY_DURATION);
  store<f64>(p, duration, DURATION);
  let at = p + <usize>HEADER_SIZE;
  store<usize>(p, at, KEYS);
  at += keysSize;
  store<usize>(p, at, SLOT_OUT);
  at += slotSize;
  store<usize>(p, at, STATIC_OUT);
  at += staticOutSize;
  store<usize>(p, at, STATIC_VALUES);
  at += staticValuesSize;
  store<usize>(p, at, COUNTS);
  at += countsSize;
  store<usize>(p, at, VELOCITY_OUT);
  return p;
}

export function uniformClipKeys(p: usize): usize {
  return load<usize>(p, KEYS);
}
export function uniformClipSlotOut(p: usize): usize {
  return load<usize>(p, SLOT_OUT);
}
export function uniformClipStaticOut(p: usize): usize {
  return load<usize>(p, STATIC_OUT);
}
export function uniformClipStaticValues(p: usize): usize {
  return load<usize>(p, STATIC_VALUES);
}
export function uniformClipCounts(p: usize): usize {
  return load<usize>(p, COUNTS);
}
export function uniformClipVelocityOut(p: usize): usize {
  return load<usize>(p, VELOCITY_OUT);
}

/**
 * Samples clip `p` at `time` seconds into `out` (float4 per curve) and `outCounts` (u8 per
 * curve). `flags`: SAMPLE_STEP (key k0 only), SAMPLE_SLERP (rotations slerped, else nlerp).
 * Velocity outputs are scaled by (timeFactor, timeFactor, timeFactor, 1) (spec §3.3).
 */
export function uniformClipSample(p: usize, time: f64, out: usize, outCounts: usize, flags: u32, timeFactor: f32): void {
  const n = load<u32>(p, KEY_COUNT);
  const kd = load<f64>(p, KEY_DURATION);
  const dur = load<f64>(p, DURATION);
  const post = load<u32>(p, POST);
  let t = time;
  if (t < 0) {
    // max(): a tiny negative time can survive the wrap by rounding (t / dur rounds to -0).
    t = load<u32>(p, PRE) == CYCLE && dur > 0 ? max<f64>(0, t - Math.floor(t / dur) * dur) : 0;
  } else if (t >= dur) {
    t = post == CYCLE && dur > 0 ? t - Math.floor(t / dur) * dur : dur;
  }
  const f = t / kd;
  const kf = Math.floor(f);
  let w = <f32>(f - kf);
  let k0 = <u32>kf;
  let k1: u32;
  if (k0 >= n) {
    // Only reached at the clip end (or by rounding just below it).
    if (post == CYCLE) {
      k0 = k0 % n;
    } else {
      k0 = n - 1;
      w = 0;
    }
  }
  if (post == CYCLE) {
    k1 = k0 + 1; // slice n holds key 0
  } else {
    k1 = k0 + 1 < n ? k0 + 1 : n - 1;
  }

  const S = load<u32>(p, SLICE_WIDTH);
  const L = load<u32>(p, LINEAR_COUNT);
  const keys = load<usize>(p, KEYS);
  const slotOut = load<usize>(p, SLOT_OUT);
  const s0 = keys + <usize>k0 * <usize>S * 16;
  const s1 = keys + <usize>k1 * <usize>S * 16;

  if (flags & SAMPLE_STEP) {
    for (let j: u32 = 0; j < S; j++) {
      copy4(s0 + (<usize>j << 4), out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
  } else {
    for (let j: u32 = 0; j < L; j++) {
      const o = <usize>j << 4;
      lerp4(s0 + o, s1 + o, w, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
    if (flags & SAMPLE_SLERP) {
      for (let j: u32 = L; j < S; j++) {
        const o = <usize>j << 4;
        slerpShortest(s0 + o, s1 + o, w, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
      }
    } else {
      for (let j: u32 = L; j < S; j++) {
        const o = <usize>j << 4;
        nlerpAligned(s0 + o, s1 + o, w, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
      }
    }
  }

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
