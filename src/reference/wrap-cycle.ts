import type { AnimClip } from '../anim/index.js';

/**
 * Cycle pre-/post-infinity applied to a clip time (twin of `wrapCycle`, assembly/clip-header.ts):
 * times before 0 (pre) or from the duration on (post) wrap floor-based into [0, duration).
 */
export function wrapCycle(clip: AnimClip, t: number): number {
  const dur = clip.duration;
  if (dur > 0 && ((t < 0 && clip.preInfinity === 'cycle') || (t >= dur && clip.postInfinity === 'cycle'))) {
    // max(): a tiny negative time can survive the wrap by rounding (t / dur rounds to -0).
    return Math.max(0, t - Math.floor(t / dur) * dur);
  }
  return t;
}
