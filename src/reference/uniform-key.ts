import type { AnimClip } from '../anim/index.js';
import { wrapCycle } from './wrap-cycle.js';

/** The two keys and the weight between them for one sample time. */
export interface UniformKeyPair {
  k0: number;
  /** `keyCount` means key 0 reached by cycling from the last key. */
  k1: number;
  w: number;
}

/**
 * Key pair for a uniform clip at `time` seconds: Nebula3 2009 `AnimUtil::ClampKeyIndex` /
 * `InbetweenTicks` (spec nebula.md §3.3) in seconds, with floor-based wrapping of negative
 * times instead of the upstream truncation. Twin of `uniformClipSample`'s index step.
 */
export function uniformKeyPair(clip: AnimClip, time: number): UniformKeyPair {
  const n = clip.keyCount;
  const kd = clip.keyDuration;
  const dur = clip.duration;
  const cyclePost = clip.postInfinity === 'cycle';
  const t = Math.min(Math.max(wrapCycle(clip, time), 0), dur);
  const f = t / kd;
  const kf = Math.floor(f);
  let w = Math.fround(f - kf);
  let k0 = kf;
  if (k0 >= n) {
    if (cyclePost) k0 = k0 % n;
    else {
      k0 = n - 1;
      w = 0;
    }
  }
  const k1 = cyclePost ? k0 + 1 : Math.min(k0 + 1, n - 1);
  return { k0, k1, w };
}
