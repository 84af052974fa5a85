// The uniform clip sampler (Nebula3 2009 `AnimUtil::Sample`, spec nebula.md §3.3, with
// floor-based negative times).
//
// Keys (at CLIP_KEYS) are stored key-major as in the Nebula pool: for each key k one "slice" of S
// float4s, one per slot (linear slots first, rotations after). There are keyCount + 1 slices: the
// extra one is key 0 again (rotations sign-aligned to the last key), so a cycling clip's last
// interval reads slice n and never wraps.
import { wrapCycle } from './clip-header';
import {
  CLIP_DURATION,
  CLIP_KEY_COUNT,
  CLIP_KEY_DURATION,
  CLIP_KEYS,
  CLIP_LINEAR_COUNT,
  CLIP_POST,
  CLIP_SLOT_COUNT,
  CLIP_SLOT_OUT,
  FLAG_SLERP,
  FLAG_STEP,
  INFINITY_CYCLE,
} from './layout';
import { copy4, lerp4, nlerpAligned, slerpPrepare, slerpPrepared } from './quat';

/**
 * Samples the slots of uniform clip block `p` at `time` seconds into `out` (float4 per curve, at
 * each slot's output offset). `flags`: FLAG_STEP (key k0 as stored), FLAG_SLERP (rotations
 * slerped, else nlerp).
 */
export function uniformSampleSlots(p: usize, time: f64, out: usize, flags: u32): void {
  const n = load<u32>(p, CLIP_KEY_COUNT);
  const kd = load<f64>(p, CLIP_KEY_DURATION);
  const dur = load<f64>(p, CLIP_DURATION);
  const cyclePost = load<u32>(p, CLIP_POST) == INFINITY_CYCLE;
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

  const S = load<u32>(p, CLIP_SLOT_COUNT);
  const L = load<u32>(p, CLIP_LINEAR_COUNT);
  const keys = load<usize>(p, CLIP_KEYS);
  const slotOut = load<usize>(p, CLIP_SLOT_OUT);
  const s0 = keys + <usize>k0 * <usize>S * 16;
  const s1 = keys + <usize>k1 * <usize>S * 16;

  if (flags & FLAG_STEP) {
    for (let j: u32 = 0; j < S; j++) {
      copy4(s0 + (<usize>j << 4), out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
    return;
  }
  for (let j: u32 = 0; j < L; j++) {
    const o = <usize>j << 4;
    lerp4(s0 + o, s1 + o, w, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
  }
  if (flags & FLAG_SLERP) {
    slerpPrepare(w);
    for (let j: u32 = L; j < S; j++) {
      const o = <usize>j << 4;
      slerpPrepared(s0 + o, s1 + o, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
  } else {
    for (let j: u32 = L; j < S; j++) {
      const o = <usize>j << 4;
      nlerpAligned(s0 + o, s1 + o, w, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
  }
}
