// A clip of Unity AnimationCurves in linear memory and its sampler (`AnimationCurve.Evaluate`,
// spec mrtk.md §5–§6). Twin: src/reference/unity-curve.ts and sample-unity.ts — same operations
// in the same order, in f64 on the f32 keys, so both agree to rounding of the math library.
//
// The block (assembly/layout.ts, UNITY_*) holds a header, a record per output curve, one per lane
// (one scalar Unity curve), a u8 count per curve and an arena of 4-byte key data the records
// point into. Linear lanes (every segment a straight line) store only times and values; lanes
// that share key times may point at one time array. The evaluation is scalar f64 in both
// builds: Unity's closed-form Bézier root needs f64 to match the reference, and lanes rarely
// share segments in a way f64x2 would pay for.
import {
  FLAG_RAW,
  UNITY_BOOL,
  UNITY_COUNTS,
  UNITY_CURVE_COUNT,
  UNITY_CURVE_FIRST_LANE,
  UNITY_CURVE_FLAGS,
  UNITY_CURVE_LANES,
  UNITY_CURVE_OUT,
  UNITY_CURVE_SIZE,
  UNITY_CURVE_VALUE,
  UNITY_CURVES,
  UNITY_LANE_IN_TANGENT,
  UNITY_LANE_IN_WEIGHT,
  UNITY_LANE_KEY_COUNT,
  UNITY_LANE_LINEAR,
  UNITY_LANE_MODE,
  UNITY_LANE_OUT_TANGENT,
  UNITY_LANE_OUT_WEIGHT,
  UNITY_LANE_POST,
  UNITY_LANE_PRE,
  UNITY_LANE_SIZE,
  UNITY_LANE_TIME,
  UNITY_LANE_VALUE,
  UNITY_LANES,
  UNITY_ROTATION,
  UNITY_LINEAR4,
  UNITY_SHARED,
  UNITY_STATIC,
} from './layout';

/** Unity's default Bézier weight (float32 1/3). */
const DEFAULT_WEIGHT: f64 = <f64>(<f32>(1.0 / 3.0));
/** Shorter quaternions become identity when corrected. Twin: `QUAT_MIN_LENGTH`. */
const QUAT_MIN_LENGTH: f64 = 1e-6;

// @ts-ignore: decorator
@inline
function f32At(array: usize, k: i32): f64 {
  return <f64>load<f32>(array + (<usize>k << 2));
}

/** Unity `Mathf.Repeat`. */
function repeat(x: f64, length: f64): f64 {
  return Math.min(Math.max(x - Math.floor(x / length) * length, 0), length);
}

/** Wrapped evaluation time (spec §5); zero-length curves clamp. Twin: `wrapUnityTime`. */
function wrapTime(t: f64, begin: f64, end: f64, pre: i32, post: i32): f64 {
  const mode = t < begin ? pre : t > end ? post : 1;
  const length = end - begin;
  if (mode == 1 || mode == 8 || !(length > 0)) return t;
  if (mode == 4) return begin + (length - Math.abs(repeat(t - begin, 2 * length) - length));
  return begin + repeat(t - begin, length);
}

/** Last key with time ≤ t, or −1 (spec §6.1). Twin: `unityKeyIndex`. */
function keyIndex(time: usize, n: i32, t: f64): i32 {
  let first: i32 = 0;
  let length: i32 = n;
  while (length > 0) {
    const half = length >> 1;
    const middle = first + half;
    if (t < f32At(time, middle)) {
      length = half;
    } else {
      first = middle + 1;
      length = length - half - 1;
    }
  }
  return first - 1;
}

/**
 * `keyIndex` with a per-lane cursor for forward playback: `slot` (an i32, 0 = no cursor) holds
 * the last segment found. It is only a hint: it is used when t still lies in that segment or the
 * next, which for keys sorted by time is exactly the segment `keyIndex` finds; otherwise the
 * binary search runs and the slot is updated.
 */
function findKey(time: usize, n: i32, t: f64, slot: usize): i32 {
  if (slot != 0) {
    const k = load<i32>(slot);
    if (k >= 0 && k + 1 < n && f32At(time, k) <= t) {
      if (t < f32At(time, k + 1)) return k;
      if (k + 2 < n && f32At(time, k + 1) <= t && t < f32At(time, k + 2)) {
        store<i32>(slot, k + 1);
        return k + 1;
      }
    }
  }
  const k = keyIndex(time, n, t);
  if (slot != 0) store<i32>(slot, k);
  return k;
}

function cbrt(x: f64): f64 {
  return x < 0 ? -Math.exp(Math.log(-x) / 3) : Math.exp(Math.log(x) / 3);
}

/** Unity `BezierExtractU` (spec §6.4). Twin: `bezierExtractU`. */
function bezierExtractU(s: f64, w1: f64, w2: f64): f64 {
  const a = 3 * w1 - 3 * w2 + 1;
  const b = -6 * w1 + 3 * w2;
  const c = 3 * w1;
  const fallback: f64 = s < 0.5 ? 0 : 1;
  if (Math.abs(a) > 1e-3) {
    const p = -b / (3 * a);
    const p2 = p * p;
    const q = p2 * p + (b * c + 3 * a * s) / (6 * a * a);
    const q2 = q * q;
    const rmp2 = c / (3 * a) - p2;
    const d = q2 + rmp2 * rmp2 * rmp2;
    if (d < 0) {
      const r3 = Math.exp(Math.log(Math.sqrt(q2 - d)) / 3);
      const phi3 = Math.atan2(Math.sqrt(-d), q) / 3;
      const u1 = 2 * r3 * Math.cos(phi3) + p;
      if (u1 >= 0 && u1 <= 1) return u1;
      const u2 = 2 * r3 * Math.cos(phi3 + (2 * Math.PI) / 3) + p;
      if (u2 >= 0 && u2 <= 1) return u2;
      const u3 = 2 * r3 * Math.cos(phi3 - (2 * Math.PI) / 3) + p;
      if (u3 >= 0 && u3 <= 1) return u3;
      return fallback;
    }
    const sd = Math.sqrt(d);
    const u = cbrt(q + sd) + cbrt(q - sd) + p;
    return u >= 0 && u <= 1 ? u : fallback;
  }
  if (Math.abs(b) > 1e-3) {
    const sd = Math.sqrt(c * c + 4 * b * s);
    const u1 = (-c - sd) / (2 * b);
    if (u1 >= 0 && u1 <= 1) return u1;
    const u2 = (-c + sd) / (2 * b);
    if (u2 >= 0 && u2 <= 1) return u2;
    return fallback;
  }
  if (Math.abs(c) > 1e-3) return s / c;
  return 0;
}

/**
 * Segment (k, k+1) of `lane` at t (t0 ≤ t < t1); `sign` multiplies key k+1's value and
 * inTangent. Linear segments lerp (exactly the weighted Bézier they encode, spec §6.7); otherwise
 * stepped / weighted Bézier / Hermite (spec §6.2–§6.4). Twin: `evaluateUnitySegment`.
 */
function segment(lane: usize, k: i32, t: f64, sign: f64): f64 {
  const time = load<usize>(lane, UNITY_LANE_TIME);
  const value = load<usize>(lane, UNITY_LANE_VALUE);
  const v0 = f32At(value, k);
  const v1 = sign * f32At(value, k + 1);
  const t0 = f32At(time, k);
  const dx = f32At(time, k + 1) - t0;
  if (load<u32>(lane, UNITY_LANE_LINEAR) != 0) return v0 + (v1 - v0) * ((t - t0) / dx);
  const mode = load<usize>(lane, UNITY_LANE_MODE);
  const outBit = (load<i32>(mode + (<usize>k << 2)) & 2) != 0;
  const inBit = (load<i32>(mode + (<usize>(k + 1) << 2)) & 1) != 0;
  const outTangent = f32At(load<usize>(lane, UNITY_LANE_OUT_TANGENT), k);
  const inTangent = sign * f32At(load<usize>(lane, UNITY_LANE_IN_TANGENT), k + 1);
  const outWeight = f32At(load<usize>(lane, UNITY_LANE_OUT_WEIGHT), k);
  const inWeight = f32At(load<usize>(lane, UNITY_LANE_IN_WEIGHT), k + 1);
  if (outBit && inBit && outWeight == 0 && inWeight == 0 && isFinite<f64>(outTangent) && isFinite<f64>(inTangent)) {
    return v0 + (v1 - v0) * ((t - t0) / dx);
  }
  if (Math.abs(outTangent) == Infinity || Math.abs(inTangent) == Infinity) return v0;
  const s = (t - t0) / dx;
  const m0 = outTangent * dx;
  const m1 = inTangent * dx;
  if (outBit || inBit) {
    const w1 = outBit ? outWeight : DEFAULT_WEIGHT;
    const w2 = inBit ? inWeight : DEFAULT_WEIGHT;
    const u = bezierExtractU(s, w1, 1 - w2);
    const p1 = v0 + w1 * m0;
    const p2 = v1 - w2 * m1;
    const omu = 1 - u;
    return omu * omu * omu * v0 + 3 * u * omu * omu * p1 + 3 * u * u * omu * p2 + u * u * u * v1;
  }
  const a = 2 * v0 + m0 - 2 * v1 + m1;
  const b = -3 * v0 - 2 * m0 + 3 * v1 - m1;
  return s * (s * (a * s + b) + m0) + v0;
}

/** The wrapped time of `lane` for t (lanes with fewer than 2 keys need none). */
// @ts-ignore: decorator
@inline
function laneTime(lane: usize, n: i32, t: f64): f64 {
  const time = load<usize>(lane, UNITY_LANE_TIME);
  return wrapTime(t, f32At(time, 0), f32At(time, n - 1), load<i32>(lane, UNITY_LANE_PRE), load<i32>(lane, UNITY_LANE_POST));
}

/** `AnimationCurve.Evaluate` of one lane at key index k of wrapped time tw. */
// @ts-ignore: decorator
@inline
function atIndex(lane: usize, n: i32, k: i32, tw: f64, sign: f64): f64 {
  const value = load<usize>(lane, UNITY_LANE_VALUE);
  if (k < 0) return f32At(value, 0);
  if (k >= n - 1) return f32At(value, n - 1);
  return segment(lane, k, tw, sign);
}

/** `AnimationCurve.Evaluate` (spec §5–§6); `slot` is the lane's cursor. Twin: `evaluateUnityCurve`. */
function evaluate(lane: usize, t: f64, slot: usize): f64 {
  const n = load<i32>(lane, UNITY_LANE_KEY_COUNT);
  if (n == 0) return 0;
  if (n == 1) return f32At(load<usize>(lane, UNITY_LANE_VALUE), 0);
  const tw = laneTime(lane, n, t);
  return atIndex(lane, n, findKey(load<usize>(lane, UNITY_LANE_TIME), n, tw, slot), tw, 1);
}

/** Exact step tested > 0.5 (spec §6.8); `slot` is the lane's cursor. Twin: `evaluateUnityStep`. */
function step(lane: usize, t: f64, slot: usize): f64 {
  const n = load<i32>(lane, UNITY_LANE_KEY_COUNT);
  if (n == 0) return 0;
  const k = findKey(load<usize>(lane, UNITY_LANE_TIME), n, laneTime(lane, n, t), slot);
  return f32At(load<usize>(lane, UNITY_LANE_VALUE), k < 0 ? 0 : k) > 0.5 ? 1 : 0;
}

/**
 * Samples clip `p` at `time` seconds into `out` (float4 per curve) and `outCounts` (u8 per
 * curve). Lanes beyond a curve's lane count give 0. Rotations: with FLAG_RAW the lanes
 * as evaluated (MRTK, spec §4.3); otherwise lanes sharing key times are hemisphere-aligned per
 * segment and the quaternion is normalised, a zero one becoming identity. `cursors` is 0 or an
 * i32 per lane (UNITY_LANE_COUNT; at most 4 per curve), segment hints kept between calls for forward playback;
 * any contents are safe. Twin: `referenceSampleUnity`.
 */
export function unityClipSample(p: usize, time: f64, out: usize, outCounts: usize, flags: u32, cursors: usize): void {
  const curveCount = load<u32>(p, UNITY_CURVE_COUNT);
  const curves = load<usize>(p, UNITY_CURVES);
  const lanes = load<usize>(p, UNITY_LANES);
  const raw = (flags & FLAG_RAW) != 0;
  for (let i: u32 = 0; i < curveCount; i++) {
    const c = curves + <usize>i * UNITY_CURVE_SIZE;
    const o = out + <usize>load<u32>(c, UNITY_CURVE_OUT);
    const cf = load<u32>(c, UNITY_CURVE_FLAGS);
    if (cf & UNITY_STATIC) {
      memory.copy(o, c + UNITY_CURVE_VALUE, 16);
      continue;
    }
    const firstIndex = <usize>load<u32>(c, UNITY_CURVE_FIRST_LANE);
    const first = lanes + firstIndex * UNITY_LANE_SIZE;
    const laneCount = load<u32>(c, UNITY_CURVE_LANES);
    const slot: usize = cursors == 0 ? 0 : cursors + (firstIndex << 2);
    let x: f64 = 0, y: f64 = 0, z: f64 = 0, w: f64 = 0;
    if (cf & UNITY_BOOL) {
      x = step(first, time, slot);
      if (laneCount > 1) y = step(first + UNITY_LANE_SIZE, time, slot == 0 ? 0 : slot + 4);
      if (laneCount > 2) z = step(first + 2 * UNITY_LANE_SIZE, time, slot == 0 ? 0 : slot + 8);
      if (laneCount > 3) w = step(first + 3 * UNITY_LANE_SIZE, time, slot == 0 ? 0 : slot + 12);
    } else if (cf & UNITY_LINEAR4) {
      // Shared key times, every lane a straight line: one look-up, the lanes' values as one float4
      // per key (the first lane's VALUE); the same arithmetic as the lane-by-lane path below.
      const n = load<i32>(first, UNITY_LANE_KEY_COUNT);
      if (n > 0) {
        const values = load<usize>(first, UNITY_LANE_VALUE);
        let k: i32 = 0;
        let tw: f64 = 0;
        if (n > 1) {
          tw = laneTime(first, n, time);
          k = findKey(load<usize>(first, UNITY_LANE_TIME), n, tw, slot);
        }
        const inside = k >= 0 && k < n - 1;
        const a = values + (<usize>(k < 0 ? 0 : k) << 4);
        x = <f64>load<f32>(a);
        y = <f64>load<f32>(a, 4);
        z = <f64>load<f32>(a, 8);
        w = <f64>load<f32>(a, 12);
        if (inside) {
          const bx = <f64>load<f32>(a, 16), by = <f64>load<f32>(a, 20), bz = <f64>load<f32>(a, 24), bw = <f64>load<f32>(a, 28);
          let sign: f64 = 1;
          if ((cf & UNITY_ROTATION) != 0 && !raw && laneCount == 4) {
            let dot: f64 = 0;
            dot += x * bx;
            dot += y * by;
            dot += z * bz;
            dot += w * bw;
            if (dot < 0) sign = -1;
          }
          const times = load<usize>(first, UNITY_LANE_TIME);
          const t0 = f32At(times, k);
          const dx = f32At(times, k + 1) - t0;
          x = x + (sign * bx - x) * ((tw - t0) / dx);
          y = y + (sign * by - y) * ((tw - t0) / dx);
          z = z + (sign * bz - z) * ((tw - t0) / dx);
          w = w + (sign * bw - w) * ((tw - t0) / dx);
        }
      }
    } else if (cf & UNITY_SHARED) {
      const n = load<i32>(first, UNITY_LANE_KEY_COUNT);
      if (n == 1) {
        x = f32At(load<usize>(first, UNITY_LANE_VALUE), 0);
        if (laneCount > 1) y = f32At(load<usize>(first + UNITY_LANE_SIZE, UNITY_LANE_VALUE), 0);
        if (laneCount > 2) z = f32At(load<usize>(first + 2 * UNITY_LANE_SIZE, UNITY_LANE_VALUE), 0);
        if (laneCount > 3) w = f32At(load<usize>(first + 3 * UNITY_LANE_SIZE, UNITY_LANE_VALUE), 0);
      } else if (n > 1) {
        const tw = laneTime(first, n, time);
        const k = findKey(load<usize>(first, UNITY_LANE_TIME), n, tw, slot);
        let sign: f64 = 1;
        if ((cf & UNITY_ROTATION) != 0 && !raw && laneCount == 4 && k >= 0 && k < n - 1) {
          let dot: f64 = 0;
          for (let j: u32 = 0; j < 4; j++) {
            const value = load<usize>(first + <usize>j * UNITY_LANE_SIZE, UNITY_LANE_VALUE);
            dot += f32At(value, k) * f32At(value, k + 1);
          }
          if (dot < 0) sign = -1;
        }
        x = atIndex(first, n, k, tw, sign);
        if (laneCount > 1) y = atIndex(first + UNITY_LANE_SIZE, n, k, tw, sign);
        if (laneCount > 2) z = atIndex(first + 2 * UNITY_LANE_SIZE, n, k, tw, sign);
        if (laneCount > 3) w = atIndex(first + 3 * UNITY_LANE_SIZE, n, k, tw, sign);
      }
    } else {
      x = evaluate(first, time, slot);
      if (laneCount > 1) y = evaluate(first + UNITY_LANE_SIZE, time, slot == 0 ? 0 : slot + 4);
      if (laneCount > 2) z = evaluate(first + 2 * UNITY_LANE_SIZE, time, slot == 0 ? 0 : slot + 8);
      if (laneCount > 3) w = evaluate(first + 3 * UNITY_LANE_SIZE, time, slot == 0 ? 0 : slot + 12);
    }
    if ((cf & UNITY_ROTATION) != 0 && !raw) {
      const len = Math.sqrt(x * x + y * y + z * z + w * w);
      if (len < QUAT_MIN_LENGTH) {
        x = 0;
        y = 0;
        z = 0;
        w = 1;
      } else {
        x /= len;
        y /= len;
        z /= len;
        w /= len;
      }
    }
    store<f32>(o, <f32>x);
    store<f32>(o, <f32>y, 4);
    store<f32>(o, <f32>z, 8);
    store<f32>(o, <f32>w, 12);
  }
  memory.copy(outCounts, load<usize>(p, UNITY_COUNTS), curveCount);
}
