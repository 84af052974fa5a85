import type { AnimClip } from '../anim/index.js';
import { type AnimCore, resample } from '../core/index.js';
import { type ClipReduction, keyTolerance, reduceClip, type ToleranceOption } from './reduce-clip.js';

/** Keys per second for Unity-curve (MRTK) and cubic-spline clips exported without an explicit rate. */
export const UNITY_EXPORT_FPS = 60;

/**
 * The clip an exporter bakes for `clip`: with `fps`, the clip resampled to that uniform rate
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

/** How exporters bake and reduce clips (`exportClips`). */
export interface ClipExportOptions {
  /** Keys per second of the bake (`exportClip`); default each clip's own key times. */
  fps?: number;
  /**
   * Keyframe reduction (`reduceClip`): default `DEFAULT_KEY_TOLERANCE` (1e-4 units, 0.1°); `0`
   * writes every baked key; see `ToleranceOption`.
   */
  tolerance?: ToleranceOption;
  /** How the written keys are played: `linear` (default; slerp for rotations) or `step`. */
  interpolation?: 'linear' | 'step';
}

/**
 * The clips an exporter writes: each baked (`exportClip`), then reduced (`reduceClip`) unless the
 * tolerance is 0; `reductions` says per clip what the reduction kept and the largest error it
 * made (empty without reduction).
 * @throws UsageError for a bad `fps` or tolerance
 */
export function exportClips(core: AnimCore, clips: readonly AnimClip[], options: ClipExportOptions = {}): { clips: AnimClip[]; reductions: ClipReduction[] } {
  const tolerance = keyTolerance(options.tolerance);
  const baked = clips.map((c) => exportClip(core, c, options.fps));
  if (tolerance === null) return { clips: baked, reductions: [] };
  const reduced = baked.map((c) => reduceClip(core, c, tolerance, options.interpolation));
  return { clips: reduced.map((r) => r.clip), reductions: reduced.map((r) => r.reduction) };
}
