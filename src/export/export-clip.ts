import type { AnimClip, AnimCurve } from '../anim/index.js';
import { type AnimCore, resampledKeyCount } from '../core/index.js';
import { resampleClip } from '../core/resample.js';
import { UsageError } from '../errors.js';
import { type ClipReduction, keyTolerance, reduceClip, type ToleranceOption } from './reduce-clip.js';

/** Keys per second for Unity-curve (MRTK) and cubic-spline clips exported without an explicit rate. */
export const UNITY_EXPORT_FPS = 60;

/**
 * The keys (over its animated curves) an export bakes from one clip at most when no `fps` was
 * asked for: 2^19 (8 MiB of float4 keys, about half a second of baking and reduction), or 64 times
 * the clip's own keys where that is more. The bake's size is duration × `UNITY_EXPORT_FPS`, not
 * what the file holds: a 1.5 KB glTF whose one cubic key sits at 18 h baked 12 million keys
 * (190 MiB, then 10 s of reduction) to write 1.4 KB (issue 13, fuzz seed 2246009700 #127554). A
 * real clip's keys come at a frame rate near the bake's, so its bake stays a small multiple of the
 * file; an explicit `fps` is the caller's choice, bounded only by `resample`'s MAX_OUTPUT_KEYS.
 */
function implicitBakeLimit(clip: AnimClip): number {
  return Math.max(2 ** 19, 64 * clip.curves.reduce((n, c) => n + ownKeyCount(c, clip.keyCount), 0));
}

/** The keys a curve holds in its own encoding (`keyCount`: the clip's, for uniform keys). */
function ownKeyCount(curve: AnimCurve, keyCount: number): number {
  const keys = curve.keys;
  switch (keys.encoding) {
    case 'static':
      return 1;
    case 'uniform':
      return keyCount;
    case 'keyed':
    case 'cubic':
      return keys.times.length;
    case 'unity':
      return keys.lanes.reduce((n, lane) => n + lane.time.length, 0);
  }
}

/**
 * The clip an exporter bakes for `clip`: with `fps`, the clip resampled to that uniform rate
 * (`resample`, keys at k / fps seconds); without, the clip itself — its own key times — except that
 * clips with Unity-curve or cubic keys, which the exporter's LINEAR/STEP samplers cannot express,
 * are resampled at `UNITY_EXPORT_FPS`, within `implicitBakeLimit` keys.
 * Rotations of Unity-curve clips are sampled corrected (hemisphere-aligned, normalised); Bool
 * curves keep their own key times as steps (`withStepBools`). With `packXyz` (a bake that is only
 * written, not reduced) glTF VEC3 keys are baked as x y z (`resampleClip`).
 * @throws UsageError for an `fps` that is not a finite number > 0, or an implicit bake over
 *   `implicitBakeLimit` (before anything is allocated; the message names the clip, its duration
 *   and the keys, and says to pass `fps`)
 */
export function exportClip(core: AnimCore, clip: AnimClip, fps?: number, packXyz = false): AnimClip {
  let curved = false; // a loop, not a callback made per clip (V8 compiled those again per clip: issue 15)
  for (const c of clip.curves) if (c.keys.encoding === 'unity' || c.keys.encoding === 'cubic') curved = true;
  if (fps === undefined && !curved) return clip;
  if (fps === undefined) {
    const keys = resampledKeyCount(clip, UNITY_EXPORT_FPS) * clip.curves.filter((c) => c.keys.encoding !== 'static').length;
    const limit = implicitBakeLimit(clip);
    if (keys > limit) {
      throw new UsageError(
        `baking clip "${clip.name}" (${clip.duration} s of Unity-curve or cubic keys) at ${UNITY_EXPORT_FPS} fps makes ${keys} keys, over the ${limit} an export bakes unasked; pass fps to choose the rate`,
      );
    }
  }
  return withStepBools(clip, resampleClip(core, clip, { fps: fps ?? UNITY_EXPORT_FPS, measureDeviation: false }, packXyz).clip);
}

/**
 * `baked` with each Bool curve that has key times of its own (Unity-curve or keyed) as step keys at
 * those times: a Bool is a step, the value of the last key at or before t (mrtk.md §6.8), which
 * a bake at a frame rate would move to the first frame after each change.
 */
function withStepBools(source: AnimClip, baked: AnimClip): AnimClip {
  const step = source.curves.map(stepBool);
  if (step.every((c) => c === null)) return baked;
  return baked.withCurves(baked.curves.map((c, i) => step[i] ?? c));
}

function stepBool(curve: AnimCurve): AnimCurve | null {
  if (curve.curveType !== 'bool') return null;
  const keys = curve.keys;
  const own = keys.encoding === 'unity' && keys.lanes.length === 1 ? { times: keys.lanes[0]!.time, x: keys.lanes[0]!.value, stride: 1 } : keys.encoding === 'keyed' ? { times: keys.times, x: keys.values, stride: 4 } : null;
  if (own === null) return null;
  // An empty curve is false (mrtk.md §6.8).
  if (own.times.length === 0) return { ...curve, keys: { encoding: 'static', value: new Float32Array(4) } };
  const values = new Float32Array(4 * own.times.length);
  for (let k = 0; k < own.times.length; k++) values[4 * k] = own.x[own.stride * k]!;
  return { ...curve, keys: { encoding: 'keyed', times: Float32Array.from(own.times), values, interpolation: 'step' } };
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
  // Without reduction the baked keys are only written: glTF VEC3 ones stay x y z (`resampleClip`).
  const baked = clips.map((c) => exportClip(core, c, options.fps, tolerance === null));
  if (tolerance === null) return { clips: baked, reductions: [] };
  const reduced = baked.map((c) => reduceClip(core, c, tolerance, options.interpolation));
  return { clips: reduced.map((r) => r.clip), reductions: reduced.map((r) => r.reduction) };
}
