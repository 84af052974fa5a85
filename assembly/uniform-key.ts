// The key pair of a uniform key grid at a sample time (Nebula3 2009 `AnimUtil::ClampKeyIndex` /
// `InbetweenTicks`, spec nebula.md §3.3, with floor-based negative times), shared by the samplers
// of the encodings on the grid (uniform-clip.ts, quantized-clip.ts). Twin: `uniformKeyPair` in
// src/reference/uniform-key.ts.
import { wrapCycle } from './clip-header';
import { CLIP_DURATION, CLIP_KEY_COUNT, CLIP_KEY_DURATION, CLIP_POST, INFINITY_CYCLE } from './layout';

/** Slice k0 of the last `uniformKeyPair` call. */
export let pairK0: u32 = 0;
/** Slice k1 (slice keyCount holds key 0 again, for a cycling clip's last interval). */
export let pairK1: u32 = 0;
/** Weight of k1. */
export let pairW: f32 = 0;

/** Sets `pairK0`, `pairK1` and `pairW` for clip-header block `p` at `time` seconds. */
// @ts-ignore: decorator
@inline
export function uniformKeyPair(p: usize, time: f64): void {
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
  pairK0 = k0;
  pairK1 = cyclePost ? k0 + 1 : min<u32>(k0 + 1, n - 1); // slice n holds key 0
  pairW = w;
}
