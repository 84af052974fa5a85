import { type AnimClip, type AnimCurve, type UniformKeys, withClosingKey } from '../anim/index.js';
import { packedXyz } from '../anim/packed-keys.js';
import { hemisphereSign } from '../anim/rotation-alignment.js';
import { UsageError } from '../errors.js';

/**
 * Writes rotation keys sign-aligned and normalised as `AlignedRotations.write` does, by other means
 * (the kernel: src/core/aligned-rotations.ts `KernelAlignedRotations`), bit for bit.
 */
export interface RotationWriter {
  /** Keys 0 … count − 1 of the `keyCount` float4 `keys` (key keyCount is key 0 again) aligned and normalised into `out` from `at`. */
  writeAligned(keys: Float32Array, keyCount: number, count: number, out: Float32Array, at: number): void;
}

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
 * array per clip): read them, do not modify them. A uniform rotation track makes its aligned,
 * normalised `values` only when they are read; `writeTrackValues` writes them into an output
 * without making them.
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
      if (curve.curveType === 'rotation') {
        const track = new AlignedRotations(times, keys.values, clip.keyCount);
        return track.allEqual() ? { times: new Float32Array(1), values: track.values.slice(0, 4) } : track;
      }
      const xyz = n === clip.keyCount ? packedXyz(keys) : undefined;
      if (xyz !== undefined) {
        const track = new XyzTrack(times, keys, xyz);
        return track.allEqual() ? { times: new Float32Array(1), values: track.values.slice(0, 4) } : track;
      }
      // Curves that do not cycle are their keys; a cycling one gets its closing key in a new array.
      own = n > clip.keyCount;
      values = own ? withClosingKey(keys.values, clip.keyCount, false).subarray(0, 4 * n) : keys.values.subarray(0, 4 * n);
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
  for (let i = 0; i < values.length; i += 4) normaliseInto(values[i]!, values[i + 1]!, values[i + 2]!, values[i + 3]!, values, i);
  return values;
}

/** Quaternion x y z w normalised into `out` from `at` (a zero quaternion as identity): divided by its length in float64, then rounded to float32 as stored. */
function normaliseInto(x: number, y: number, z: number, w: number, out: Float32Array, at: number): void {
  // float32 components: their squares cannot overflow a float64, so Math.hypot's care (and cost) is not needed.
  const len = Math.sqrt(x * x + y * y + z * z + w * w);
  if (len === 0) {
    out[at] = out[at + 1] = out[at + 2] = 0;
    out[at + 3] = 1;
  } else {
    out[at] = x / len;
    out[at + 1] = y / len;
    out[at + 2] = z / len;
    out[at + 3] = w / len;
  }
}

/**
 * A uniform rotation curve's track: its keys each in its predecessor's hemisphere (the rule of
 * `alignRotationKeys`: a cycling clip's closing key, key 0 again, aligned to the last) and
 * normalised (`normaliseInto`), made when `values` is first read or written straight into an
 * output (`writeTrackValues`). Why: a glTF → glTF bake writes most of its keys this way, and a
 * float4 copy of each rotation track, then another into the file, were two of its passes over the
 * keys (issue 15, gltf-resample).
 */
class AlignedRotations implements CurveTrack {
  private made: Float32Array | undefined;

  /** `keys`: the curve's `4 × keyCount` floats; `times.length` is keyCount, or keyCount + 1 with the closing key. */
  constructor(
    readonly times: Float32Array,
    private readonly keys: Float32Array,
    private readonly keyCount: number,
  ) {}

  get values(): Float32Array {
    if (this.made === undefined) {
      this.made = new Float32Array(4 * this.times.length);
      this.write(this.made, 0, this.times.length);
    }
    return this.made;
  }

  /** Whether every key is equal (`allEqual` of `values`), deciding on the first two keys where they differ (animated curves) without making `values`. */
  allEqual(): boolean {
    if (this.made === undefined && this.times.length > 1) {
      const two = new Float32Array(8);
      this.write(two, 0, 2);
      if (!allEqual(two)) return false;
    }
    return allEqual(this.values);
  }

  /** Keys 0 … count − 1, aligned and normalised, into `out` from `at` (x y z w each). */
  write(out: Float32Array, at: number, count: number): void {
    const keys = this.keys;
    // The previous key aligned but not normalised: the next key's hemisphere is decided against it, as alignRotationKeys does.
    let px = 0;
    let py = 0;
    let pz = 0;
    let pw = 0;
    for (let k = 0; k < count; k++) {
      const src = k === this.keyCount ? 0 : 4 * k;
      const s = k === 0 ? 1 : hemisphereSign(px, py, pz, pw, keys[src]!, keys[src + 1]!, keys[src + 2]!, keys[src + 3]!);
      px = s * keys[src]!;
      py = s * keys[src + 1]!;
      pz = s * keys[src + 2]!;
      pw = s * keys[src + 3]!;
      normaliseInto(px, py, pz, pw, out, at + 4 * k);
    }
  }

  /** Writes the keys into `out` from `at`: copied once `values` is made, else computed there (by `rotations` when given). */
  writeTo(out: Float32Array, at: number, rotations: RotationWriter | undefined): void {
    if (this.made !== undefined) out.set(this.made, at);
    else if (rotations !== undefined) rotations.writeAligned(this.keys, this.keyCount, this.times.length, out, at);
    else this.write(out, at, this.times.length);
  }
}

/**
 * A uniform curve's track whose keys are held as x y z (`packedUniformKeys`, a resampled glTF
 * translation or scale): its float4 `values` are the keys' own (made when first read), and a VEC3
 * output is the x y z floats copied as they are (`writeTrackValues`), not packed again from float4s.
 */
class XyzTrack implements CurveTrack {
  constructor(
    readonly times: Float32Array,
    private readonly keys: UniformKeys,
    /** `3 × times.length` floats. */
    readonly xyz: Float32Array,
  ) {}

  get values(): Float32Array {
    return this.keys.values;
  }

  /** Whether every key is equal (`allEqual` of `values`, whose w is 0), tested on the x y z floats. */
  allEqual(): boolean {
    const xyz = this.xyz;
    for (let i = 3; i < xyz.length; i++) if (xyz[i] !== xyz[i % 3]) return false;
    return true;
  }
}

/**
 * The values of `track` as `width` floats per key (x y z, or x y z w) into `out` from `at`: the
 * output accessor of a glTF sampler (VEC3 translation and scale, VEC4 rotation), written without
 * making the track's `values` where they are not made yet (`AlignedRotations`; aligned by
 * `rotations` where given).
 */
export function writeTrackValues(track: CurveTrack, out: Float32Array, at: number, width: 3 | 4, rotations?: RotationWriter): void {
  if (width === 4 && track instanceof AlignedRotations) return track.writeTo(out, at, rotations);
  if (width === 3 && track instanceof XyzTrack) return out.set(track.xyz, at);
  const n = track.times.length;
  const v = track.values;
  if (width === 4) return out.set(v.subarray(0, 4 * n), at);
  for (let k = 0; k < n; k++) {
    out[at + 3 * k] = v[4 * k]!;
    out[at + 3 * k + 1] = v[4 * k + 1]!;
    out[at + 3 * k + 2] = v[4 * k + 2]!;
  }
}

function allEqual(values: Float32Array): boolean {
  for (let i = 4; i < values.length; i++) if (values[i] !== values[i % 4]) return false;
  return true;
}
