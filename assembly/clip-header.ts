// What every clip-header kind shares (assembly/layout.ts, CLIP_*): Cycle infinity on the clip time,
// and the part of a sample that does not depend on the keys (constant curves, sample counts and
// Velocity scaling). A kind's kernel samples only its slots.
import { copy4 } from './quat';
import {
  CLIP_CONSTANT_COUNT,
  CLIP_CONSTANT_OUT,
  CLIP_CONSTANT_VALUES,
  CLIP_COUNTS,
  CLIP_CURVE_COUNT,
  CLIP_DURATION,
  CLIP_POST,
  CLIP_PRE,
  CLIP_VELOCITY_COUNT,
  CLIP_VELOCITY_OUT,
  INFINITY_CYCLE,
} from './layout';

/**
 * `time` after Cycle pre-/post-infinity: times before 0 (pre) or from the duration on (post)
 * wrap floor-based into [0, duration). Other times are returned unchanged.
 */
export function wrapCycle(p: usize, time: f64): f64 {
  const dur = load<f64>(p, CLIP_DURATION);
  if (dur <= 0) return time;
  if ((time < 0 && load<u32>(p, CLIP_PRE) == INFINITY_CYCLE) || (time >= dur && load<u32>(p, CLIP_POST) == INFINITY_CYCLE)) {
    // max(): a tiny negative time can survive the wrap by rounding (t / dur rounds to -0).
    return max<f64>(0, time - Math.floor(time / dur) * dur);
  }
  return time;
}

/**
 * Writes what does not depend on the keys: constant curves' values, the sample counts, and
 * Velocity outputs scaled by (timeFactor, timeFactor, timeFactor, 1) (spec nebula.md §3.3).
 */
export function finishSample(p: usize, out: usize, outCounts: usize, timeFactor: f32): void {
  const constantCount = load<u32>(p, CLIP_CONSTANT_COUNT);
  const constantOut = load<usize>(p, CLIP_CONSTANT_OUT);
  const constantValues = load<usize>(p, CLIP_CONSTANT_VALUES);
  for (let i: u32 = 0; i < constantCount; i++) {
    copy4(constantValues + (<usize>i << 4), out + <usize>load<u32>(constantOut + (<usize>i << 2)));
  }
  memory.copy(outCounts, load<usize>(p, CLIP_COUNTS), load<u32>(p, CLIP_CURVE_COUNT));
  if (timeFactor != 1) {
    const velocityCount = load<u32>(p, CLIP_VELOCITY_COUNT);
    const velocityOut = load<usize>(p, CLIP_VELOCITY_OUT);
    for (let i: u32 = 0; i < velocityCount; i++) {
      const o = out + <usize>load<u32>(velocityOut + (<usize>i << 2));
      store<f32>(o, load<f32>(o) * timeFactor);
      store<f32>(o, load<f32>(o, 4) * timeFactor, 4);
      store<f32>(o, load<f32>(o, 8) * timeFactor, 8);
    }
  }
}
