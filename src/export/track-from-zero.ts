import type { CurveTrack } from './curve-track.js';

/**
 * `track` starting at 0 s: glTF animation inputs are never negative (glTF 2.0 §3.11, validator
 * `ACCESSOR_ANIMATION_INPUT_NEGATIVE`), while keyed clips may have keys before 0 (AAF, MRTK). The
 * keys before 0 become one key at 0 holding the value a glTF sampler gives there: the key in force
 * (`step`), slerp for rotations and lerp otherwise (LINEAR, §3.11.2). Sampling the result at any
 * time ≥ 0 gives what the original track gives. A track that already starts at 0 or later is
 * returned as it is.
 */
export function trackFromZero(track: CurveTrack, rotation: boolean, step: boolean): CurveTrack {
  const times = track.times;
  // `values` read only past this test: a baked rotation track makes them when read (`curveTrack`).
  if (!(times[0]! < 0)) return track;
  const values = track.values;
  let j = 0;
  while (j < times.length && times[j]! < 0) j++;
  if (j === times.length) return { times: new Float32Array(1), values: values.slice(4 * (j - 1), 4 * j) };
  if (times[j] === 0) return { times: times.slice(j), values: values.slice(4 * j) };
  const w = (0 - times[j - 1]!) / (times[j]! - times[j - 1]!);
  const a = values.subarray(4 * (j - 1), 4 * j);
  const b = values.subarray(4 * j, 4 * j + 4);
  const atZero = step ? a : rotation ? slerp(a, b, w) : a.map((v, c) => v + (b[c]! - v) * w);
  const out = { times: new Float32Array(times.length - j + 1), values: new Float32Array(4 * (times.length - j + 1)) };
  out.times.set(times.subarray(j), 1);
  out.values.set(atZero);
  out.values.set(values.subarray(4 * j), 4);
  return out;
}

/** Slerp of unit quaternions a → b (b in a's hemisphere, as curve tracks are aligned), as glTF samplers do. */
function slerp(a: Float32Array, b: Float32Array, w: number): Float32Array {
  const cos = Math.min(1, a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!);
  const angle = Math.acos(cos);
  if (angle < 1e-6) return a.map((v, c) => v + (b[c]! - v) * w);
  const s = Math.sin(angle);
  const wa = Math.sin((1 - w) * angle) / s;
  const wb = Math.sin(w * angle) / s;
  return a.map((v, c) => wa * v + wb * b[c]!);
}
