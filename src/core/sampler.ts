import type { AnimClip, SampleOptions } from '../anim/index.js';
import { UsageError } from '../errors.js';
import type { AnimSampleBuffer } from './sample-buffer.js';
import type { KernelRuntime, RuntimeOwner } from './runtime.js';

/**
 * Samples a loaded clip at one time (Nebula3 `AnimSampler`, spec nebula.md §3.3): every curve
 * of the clip is evaluated at `time` seconds into `out`. Keyed clips (spec aaf.md §2.3): per curve
 * the surrounding keys by time (from the buffer's cursor, else binary search), held before the
 * first and after the last key; Cycle infinity wraps the clip time first. Uniform clips: key index from time,
 * Constant/Cycle pre- and post-infinity (a cycling clip's last interval runs from the last key back
 * to key 0; negative times wrap floor-based), lerp for every type but Rotation, nlerp (default) or
 * slerp for rotations over keys sign-aligned at load. Static curves give their value; inactive
 * curves get count 0 and their static value (or key 0). Velocity samples are scaled by
 * `timeFactor`.
 *
 * Unity-curve clips (MRTK): each lane by `AnimationCurve.Evaluate` (spec mrtk.md §5–§6), Bool
 * curves as exact steps tested `> 0.5`. Rotations: `rotation: 'raw'` gives the component-wise
 * result exactly as MRTK does (no sign alignment, not normalised; a joint without keys is
 * (0, 0, 0, 0), §4.3); the default (`nlerp` or `slerp`, which mean the same here) is corrected:
 * lanes sharing key times are hemisphere-aligned per segment, then the quaternion is normalised
 * and a zero one becomes identity. `sampleType` and `timeFactor` do not apply to them. `out`
 * keeps a segment cursor per lane, so forward playback skips the binary search (keys must be
 * sorted by time, as Unity keeps them).
 */
export class AnimSampler {
  private readonly runtime: KernelRuntime;

  constructor(core: RuntimeOwner) {
    this.runtime = core.runtime;
  }

  /**
   * @param clip a clip of a resource loaded into this core
   * @param time seconds (any finite number)
   * @param out a buffer of the clip's curve count
   * @throws UsageError when the clip is not loaded, `out` does not fit, `time` or `timeFactor` is
   *   not finite, or `rotation: 'raw'` is asked of a clip that is not Unity-curve (clips of static
   *   curves only, such as an MRTK recording without any data, sample raw as stored)
   */
  sample(clip: AnimClip, time: number, out: AnimSampleBuffer, options: SampleOptions = {}): void {
    const { loaded, flags, timeFactor } = this.runtime.plan(clip, options);
    out.checkLive();
    if (out.curveCount !== clip.curves.length) {
      throw new UsageError(`buffer has ${out.curveCount} curves, clip "${clip.name}" has ${clip.curves.length}`);
    }
    if (!Number.isFinite(time)) throw new UsageError(`time must be a finite number of seconds, got ${time}`);
    this.runtime.kernel.sampleClip(loaded.ptr, loaded.kind, time, out.samplesPtr, out.countsPtr, out.cursorsPtr, flags, timeFactor);
  }
}
