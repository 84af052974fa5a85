import { type AnimClip, lanesShareKeyTimes, type SampleArrays, type SampleOptions, type UnityCurve } from '../anim/index.js';
import { UsageError } from '../errors.js';
import {
  evaluateUnityCurve,
  evaluateUnitySegment,
  evaluateUnityStep,
  unityKeyIndex,
  wrapUnityTime,
} from './unity-curve.js';

/**
 * Corrected rotations shorter than this become identity. Unity's `Quaternion.Normalize` uses
 * `Mathf.Epsilon` (1.4e-45), but the direction of a quaternion that short is rounding noise (and
 * differs between math libraries), so anything below 1e-6 counts as zero.
 */
export const QUAT_MIN_LENGTH = 1e-6;

/**
 * The four lanes of a rotation whose lanes share key times, each hemisphere-aligned per segment:
 * key k+1 is negated for the segment (k, k+1) when its quaternion has a negative dot product with
 * key k's (q and −q are one rotation; spec mrtk.md §4.5). Outside the segments, the clamped key.
 */
function alignedRotation(lanes: readonly UnityCurve[], t: number): number[] {
  const first = lanes[0]!;
  const n = first.time.length;
  if (n < 2) return lanes.map((l) => evaluateUnityCurve(l, t));
  const tw = wrapUnityTime(t, first.time[0]!, first.time[n - 1]!, first.preWrapMode, first.postWrapMode);
  const k = unityKeyIndex(first.time, tw);
  if (k < 0) return lanes.map((l) => l.value[0]!);
  if (k >= n - 1) return lanes.map((l) => l.value[n - 1]!);
  let dot = 0;
  for (const l of lanes) dot += l.value[k]! * l.value[k + 1]!;
  const sign = dot < 0 ? -1 : 1;
  return lanes.map((l) => evaluateUnitySegment(l, k, tw, sign));
}

/**
 * Plain-TypeScript twin of the core's Unity-curve clip sampler (`unityClipSample`, spec mrtk.md
 * §4–§6). Per curve: static → its value; inactive unity → each lane's first key value (0 without
 * keys) with count 0; Bool → each lane an exact step tested `> 0.5`; other types → each lane by
 * `evaluateUnityCurve`, missing lanes 0. Rotations: `rotation: 'raw'` leaves the component-wise
 * result as MRTK does (no sign alignment, not normalised, §4.3); otherwise (default) lanes that
 * share key times are hemisphere-aligned per segment, and the result is normalised, a zero
 * quaternion (shorter than `QUAT_MIN_LENGTH`) becoming identity. Writes `out.samples` (4 × curveCount) and `out.counts`.
 */
export function referenceSampleUnity(clip: AnimClip, time: number, out: SampleArrays, options: SampleOptions = {}): void {
  if (out.counts.length < clip.curves.length || out.samples.length < 4 * clip.curves.length) {
    throw new UsageError(`output holds fewer than the clip's ${clip.curves.length} curves`);
  }
  const raw = options.rotation === 'raw';
  clip.curves.forEach((curve, i) => {
    const keys = curve.keys;
    const v = [0, 0, 0, 0];
    if (keys.encoding === 'static') {
      v.splice(0, 4, ...keys.value);
    } else if (keys.encoding !== 'unity') {
      throw new UsageError(`curve ${i}: the Unity-curve sampler cannot sample ${keys.encoding} keys`);
    } else if (!curve.active) {
      keys.lanes.forEach((l, c) => (v[c] = l.time.length > 0 ? l.value[0]! : 0));
    } else if (curve.curveType === 'bool') {
      keys.lanes.forEach((l, c) => (v[c] = evaluateUnityStep(l, time)));
    } else if (curve.curveType === 'rotation' && !raw) {
      const lanes = keys.lanes;
      const q = lanes.length === 4 && lanesShareKeyTimes(lanes) ? alignedRotation(lanes, time) : lanes.map((l) => evaluateUnityCurve(l, time));
      q.forEach((x, c) => (v[c] = x));
      const len = Math.sqrt(v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]! + v[3]! * v[3]!);
      if (len < QUAT_MIN_LENGTH) v.splice(0, 4, 0, 0, 0, 1);
      else for (let c = 0; c < 4; c++) v[c] = v[c]! / len;
    } else {
      keys.lanes.forEach((l, c) => (v[c] = evaluateUnityCurve(l, time)));
    }
    out.samples.set(v, 4 * i);
    out.counts[i] = curve.active ? 1 : 0;
  });
}
