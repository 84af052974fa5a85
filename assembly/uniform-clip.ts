// A uniform clip and its sampler (Nebula3 2009 `AnimUtil::Sample`, spec nebula.md §3.3, with
// floor-based negative times).
//
// Keys are stored key-major as in the Nebula pool: for each key k one "slice" of S float4s, one
// per slot (clip-header.ts: linear slots first, rotations after). There are keyCount + 1 slices:
// the extra one is key 0 again (rotations sign-aligned to the last key), so a cycling clip's last
// interval reads slice n and never wraps.
import {
  clipAlloc,
  CYCLE,
  DURATION,
  EXTRA,
  finishSample,
  KIND_FIELDS,
  LINEAR_COUNT,
  POST,
  SAMPLE_SLERP,
  SAMPLE_STEP,
  SLOT_COUNT,
  SLOT_OUT,
  wrapCycle,
} from './clip-header';
import { copy4, lerp4, nlerpAligned, slerpShortest } from './quat';

const KEY_COUNT: u32 = KIND_FIELDS;
const KEY_DURATION: u32 = KIND_FIELDS + 8;

/**
 * Allocates a uniform clip block; the keys ((keyCount + 1) × slotCount float4) start at
 * `clipArray(p, EXTRA)`.
 */
export function uniformClipCreate(
  curveCount: u32,
  slotCount: u32,
  linearCount: u32,
  staticCount: u32,
  velocityCount: u32,
  pre: u32,
  post: u32,
  duration: f64,
  keyCount: u32,
  keyDuration: f64,
): usize {
  const keysSize = <usize>(keyCount + 1) * <usize>slotCount * 16;
  const p = clipAlloc(curveCount, slotCount, linearCount, staticCount, velocityCount, pre, post, duration, keysSize);
  store<u32>(p, keyCount, KEY_COUNT);
  store<f64>(p, keyDuration, KEY_DURATION);
  return p;
}

/**
 * Samples clip `p` at `time` seconds into `out` (float4 per curve) and `outCounts` (u8 per
 * curve). `flags`: SAMPLE_STEP (key k0 as stored), SAMPLE_SLERP (rotations slerped, else nlerp).
 */
export function uniformClipSample(p: usize, time: f64, out: usize, outCounts: usize, flags: u32, timeFactor: f32): void {
  const n = load<u32>(p, KEY_COUNT);
  const kd = load<f64>(p, KEY_DURATION);
  const dur = load<f64>(p, DURATION);
  const cyclePost = load<u32>(p, POST) == CYCLE;
  let t = wrapCycle(p, time);
  if (t < 0) t = 0;
  else if (t > dur) t = dur;
  const f = t / kd;
  const kf = Math.floor(f);
  let w = <f32>(f - kf);
  let k0 = <u32>kf;
  if (k0 >= n) {
    // Only reached at the clip end (or by rounding just below it).
    if (cyclePost) {
      k0 = k0 % n;
    } else {
      k0 = n - 1;
      w = 0;
    }
  }
  const k1: u32 = cyclePost ? k0 + 1 : min<u32>(k0 + 1, n - 1); // slice n holds key 0

  const S = load<u32>(p, SLOT_COUNT);
  const L = load<u32>(p, LINEAR_COUNT);
  const keys = load<usize>(p, EXTRA);
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
  finishSample(p, out, outCounts, timeFactor);
}
