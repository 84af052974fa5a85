import type { MixOptions } from '../anim/index.js';
import { checkWeight } from '../anim/blend-options.js';
import { UsageError } from '../errors.js';
import { FLAG_SLERP } from '../../assembly/layout.js';
import type { KernelRuntime, RuntimeOwner } from './runtime.js';
import type { AnimSampleBuffer } from './sample-buffer.js';

/**
 * Mixes two sample buffers (Nebula3 `AnimMixer::Mix`, spec nebula.md §3.5). Per curve: both
 * counts > 0 → blend with `weight` as b's share (Rotation: nlerp or slerp along the shortest arc;
 * everything else lerp); only one > 0 → that sample is copied; none → count 0 (the value is a's).
 * Counts add up (saturating at 255). Curve types come from `a`. `out` may be `a` or `b`.
 */
export class AnimMixer {
  private readonly runtime: KernelRuntime;

  constructor(core: RuntimeOwner) {
    this.runtime = core.runtime;
  }

  /**
   * @param weight b's share, usually in [0, 1] (other finite values extrapolate)
   * @throws UsageError when the buffers differ in curve count or `weight` is not finite or beyond float32
   */
  mix(a: AnimSampleBuffer, b: AnimSampleBuffer, weight: number, out: AnimSampleBuffer, options: MixOptions = {}): void {
    for (const buf of [a, b, out]) buf.checkLive();
    if (a.curveCount !== b.curveCount || a.curveCount !== out.curveCount) {
      throw new UsageError(`buffers differ in curve count: ${a.curveCount}, ${b.curveCount}, ${out.curveCount}`);
    }
    checkWeight('weight', weight);
    this.runtime.kernel.mixSamples(
      a.mixCurvesPtr,
      a.mixLinearCount,
      a.curveCount,
      a.samplesPtr,
      a.countsPtr,
      b.samplesPtr,
      b.countsPtr,
      weight,
      out.samplesPtr,
      out.countsPtr,
      options.rotation === 'slerp' ? FLAG_SLERP : 0,
    );
  }
}
