import { type AnimClip, type AnimCurve, withClosingKey } from '../anim/index.js';
import { UsageError } from '../errors.js';

/** The keys of one glTF animation sampler: `times` in seconds (strictly increasing), float4 `values`. */
export interface CurveTrack {
  /** Seconds, strictly increasing, at least one. */
  readonly times: Float32Array;
  /** `4 × times.length` floats: key k is x y z w at `4k` (quaternions x y z w). */
  readonly values: Float32Array;
}

/**
 * A curve's own keys as a glTF track (glTF 2.0 §3.11 "Animations"), so that a glTF LINEAR or STEP
 * sampler reproduces the curve over [0, clip.duration]:
 * - `static` → one key at 0; `uniform` → key k at k·keyDuration, and for a cycling clip
 *   (post-infinity `cycle`) the closing key (key 0 once more, `withClosingKey`) at
 *   keyCount·keyDuration, since the last interval runs back to key 0 (spec nebula.md §3.3);
 *   `keyed` → its own times, equal neighbouring times (a step) moved up to the next float32 so the
 *   times strictly increase, as glTF requires; a `step` keyed curve gets before each later key
 *   the previous value once more, one float32 step earlier, so that a LINEAR sampler holds it;
 * - rotations normalised; uniform ones sign-continuous (each key in its predecessor's hemisphere,
 *   as the core aligns them), keyed ones with their signs as stored (the core and glTF's LINEAR
 *   sampler both take the shorter arc per key pair);
 * - a track whose keys are all equal collapses to one key at 0.
 * The arrays may be the curve's own or shared with the clip's other tracks (uniform times: one
 * array per clip): read them, do not modify them.
 * @throws UsageError for `unity` and `cubic` curves (resample them first)
 */
export function curveTrack(clip: AnimClip, curve: AnimCurve): CurveTrack {
  const keys = curve.keys;
  let times: Float32Array;
  let values: Float32Array;
  /** Whether `values` is a new array (not the curve's), which normalising may change in place. */
  let own = false;
  switch (keys.encoding) {
    case 'static':
      return { times: new Float32Array(1), values: curve.curveType === 'rotation' ? normalised(keys.value.slice(0, 4)) : keys.value.slice(0, 4) };
    case 'unity':
    case 'cubic':
      throw new UsageError(`curve ${curve.target.joint}.${curve.target.property} has ${keys.encoding} keys; resample the clip before export`);
    case 'uniform': {
      const n = clip.keyCount + (clip.postInfinity === 'cycle' ? 1 : 0);
      times = uniformTimes(clip, n);
      const rotation = curve.curveType === 'rotation';
      // Rotations are sign-aligned (and the closing key added) in a new array; other curves that do not cycle are their keys.
      own = rotation || n > clip.keyCount;
      values = own ? withClosingKey(keys.values, clip.keyCount, rotation).subarray(0, 4 * n) : keys.values.subarray(0, 4 * n);
      break;
    }
    case 'keyed':
      [times, values] = keys.interpolation === 'step' ? held(keys.times, keys.values) : [keys.times, keys.values];
      own = keys.interpolation === 'step';
      times = increasing(times);
      break;
  }
  if (curve.curveType === 'rotation') values = normalised(own ? values : values.slice());
  return allEqual(values) ? { times: new Float32Array(1), values: values.slice(0, 4) } : { times, values };
}

/** Key times k · keyDuration (k < n) of a clip's uniform curves: one array per clip, shared by its tracks (so writers find one input by identity, `SharedTimes`). */
const uniformTimesOf = new WeakMap<AnimClip, Float32Array>();

function uniformTimes(clip: AnimClip, n: number): Float32Array {
  let times = uniformTimesOf.get(clip);
  if (times === undefined) {
    times = new Float32Array(n);
    for (let k = 0; k < n; k++) times[k] = k * clip.keyDuration;
    uniformTimesOf.set(clip, times);
  }
  return times;
}

/** Step keys as linear ones: before each later key, the previous value one float32 step earlier. */
function held(times: Float32Array, values: Float32Array): [Float32Array, Float32Array] {
  const n = times.length;
  const t = new Float32Array(2 * n - 1);
  const v = new Float32Array(4 * (2 * n - 1));
  for (let k = 0; k < n; k++) {
    if (k > 0) {
      t[2 * k - 1] = -nextFloat32(-times[k]!);
      v.set(values.subarray(4 * (k - 1), 4 * k), 4 * (2 * k - 1));
    }
    t[2 * k] = times[k]!;
    v.set(values.subarray(4 * k, 4 * k + 4), 8 * k);
  }
  return [t, v];
}

/** `times` with every time not above its predecessor moved to the next float32 after it. */
function increasing(times: Float32Array): Float32Array {
  const out = times.slice();
  for (let k = 1; k < out.length; k++) if (out[k]! <= out[k - 1]!) out[k] = nextFloat32(out[k - 1]!);
  return out;
}

function nextFloat32(x: number): number {
  const f = new Float32Array([x]);
  const bits = new Int32Array(f.buffer);
  if (x === 0) return 1.401298464324817e-45;
  bits[0]! += x > 0 ? 1 : -1;
  return f[0]!;
}

/** Normalises every quaternion of `values` in place; a zero quaternion becomes identity. */
function normalised(values: Float32Array): Float32Array {
  for (let i = 0; i < values.length; i += 4) {
    // float32 components: their squares cannot overflow a float64, so Math.hypot's care (and cost) is not needed.
    const len = Math.sqrt(values[i]! * values[i]! + values[i + 1]! * values[i + 1]! + values[i + 2]! * values[i + 2]! + values[i + 3]! * values[i + 3]!);
    if (len === 0) values.set([0, 0, 0, 1], i);
    else for (let c = i; c < i + 4; c++) values[c]! /= len;
  }
  return values;
}

function allEqual(values: Float32Array): boolean {
  for (let i = 4; i < values.length; i++) if (values[i] !== values[i % 4]) return false;
  return true;
}
