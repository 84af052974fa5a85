import type { AnimClip } from '../anim/index.js';
import { type AnimCore, resample } from '../core/index.js';

/** Keys per second for Unity-curve (MRTK) and cubic-spline clips exported without an explicit rate. */
export const UNITY_EXPORT_FPS = 60;

/**
 * The clip an exporter writes for `clip`: with `fps`, the clip resampled to that uniform rate
 * (`resample`, keys at k / fps seconds); without, the clip itself — its own key times — except that
 * clips with Unity-curve or cubic keys, which the exporter's LINEAR/STEP samplers cannot express,
 * are resampled at `UNITY_EXPORT_FPS`.
 * Rotations of Unity-curve clips are sampled corrected (hemisphere-aligned, normalised).
 * @throws UsageError for an `fps` that is not a finite number > 0
 */
export function exportClip(core: AnimCore, clip: AnimClip, fps?: number): AnimClip {
  const curved = clip.curves.some((c) => c.keys.encoding === 'unity' || c.keys.encoding === 'cubic');
  if (fps === undefined && !curved) return clip;
  return resample(core, clip, { fps: fps ?? UNITY_EXPORT_FPS, measureDeviation: false }).clip;
}
