// Keyframe reduction: per curve, keep the fewest keys (greedily, from the first) whose
// interpolation reproduces every source key — and for rotations every midpoint between source
// keys — within the curve's tolerance. From each kept key the next one is the furthest whose span
// passes the check, found by doubling the span and then bisecting. First and last keys are kept
// exactly; a curve within tolerance of its first key keeps that key alone; a rotation span (or a
// collapse to one key) never turns 180° or more along the source (glTF-Transform issue #501).
// Lerp (and step) errors are linear between source keys, so source keys bound them; slerp is also
// checked halfway. All in f64 with the comparisons of the twin, src/reference/reduce-keys.ts, so
// both builds keep the same keys as it does.
import {
  REDUCE_ERROR,
  REDUCE_FLAGS,
  REDUCE_KEPT,
  REDUCE_KEPT_COUNT,
  REDUCE_KEY_COUNT,
  REDUCE_PATH,
  REDUCE_RECORD_SIZE,
  REDUCE_ROTATION,
  REDUCE_STEP,
  REDUCE_TIMES,
  REDUCE_TOLERANCE,
  REDUCE_VALUES,
  REDUCE_WITH_PREVIOUS,
} from './layout';

/** 1 − cos below which a slerp is a normalised lerp (twin: SLERP_LINEAR_BELOW). */
const SLERP_LINEAR_BELOW: f64 = 1e-7;

// @ts-ignore: decorator
@inline
function component(values: usize, k: u32, c: u32): f64 {
  return <f64>load<f32>(values + (<usize>k << 4) + (<usize>c << 2));
}

// @ts-ignore: decorator
@inline
function time(times: usize, k: u32): f64 {
  return <f64>load<f32>(times + (<usize>k << 2));
}

/** |a − b|² of float4s; for rotations the smaller of |a − b|² and |a + b|². */
// @ts-ignore: decorator
@inline
function distance2(ax: f64, ay: f64, az: f64, aw: f64, bx: f64, by: f64, bz: f64, bw: f64, rotation: bool): f64 {
  const same = (ax - bx) * (ax - bx) + (ay - by) * (ay - by) + (az - bz) * (az - bz) + (aw - bw) * (aw - bw);
  if (!rotation) return same;
  const flipped = (ax + bx) * (ax + bx) + (ay + by) * (ay + by) + (az + bz) * (az + bz) + (aw + bw) * (aw + bw);
  return min(same, flipped);
}

function keyDistance2(values: usize, i: u32, j: u32, rotation: bool): f64 {
  return distance2(
    component(values, i, 0), component(values, i, 1), component(values, i, 2), component(values, i, 3),
    component(values, j, 0), component(values, j, 1), component(values, j, 2), component(values, j, 3),
    rotation,
  );
}

function chordOfAngle(angle: f64): f64 {
  return angle >= 2 * Math.PI ? 2 : 2 * Math.sin(angle / 4);
}

function angleOfChord(chord: f64): f64 {
  return 4 * Math.asin(min(1, chord / 2));
}

/** Largest distance² of the keys inside (a, b) from key a, or −1 beyond `limit`. */
function stepSpan(values: usize, a: u32, b: u32, rotation: bool, limit: f64): f64 {
  let worst: f64 = 0;
  for (let k = a + 1; k < b; k++) {
    const d = keyDistance2(values, k, a, rotation);
    if (d > limit) return -1;
    worst = max(worst, d);
  }
  return worst;
}

/** Largest distance² of the keys inside (a, b) from the lerp of keys a and b, or −1 beyond `limit`. */
function lerpSpan(times: usize, values: usize, a: u32, b: u32, limit: f64): f64 {
  const t0 = time(times, a);
  const dt = time(times, b) - t0;
  const ax = component(values, a, 0), ay = component(values, a, 1), az = component(values, a, 2), aw = component(values, a, 3);
  const dx = component(values, b, 0) - ax, dy = component(values, b, 1) - ay, dz = component(values, b, 2) - az, dw = component(values, b, 3) - aw;
  let worst: f64 = 0;
  for (let k = a + 1; k < b; k++) {
    const u = (time(times, k) - t0) / dt;
    const d = distance2(
      ax + dx * u, ay + dy * u, az + dz * u, aw + dw * u,
      component(values, k, 0), component(values, k, 1), component(values, k, 2), component(values, k, 3),
      false,
    );
    if (d > limit) return -1;
    worst = max(worst, d);
  }
  return worst;
}

// The slerp of the span being checked: its ends, weights' constants and the last point computed.
let sAx: f64 = 0, sAy: f64 = 0, sAz: f64 = 0, sAw: f64 = 0;
let sBx: f64 = 0, sBy: f64 = 0, sBz: f64 = 0, sBw: f64 = 0;
let sSign: f64 = 1, sSin: f64 = 0, sOmega: f64 = 0, sT0: f64 = 0, sDt: f64 = 1;
let sLinear = false;
let px: f64 = 0, py: f64 = 0, pz: f64 = 0, pw: f64 = 0;

/** Sets px…pw to the span's slerp at `t` seconds. */
function slerpAt(t: f64): void {
  const u = (t - sT0) / sDt;
  let wa: f64, wb: f64;
  if (sLinear) {
    wa = 1 - u;
    wb = sSign * u;
  } else {
    wa = Math.sin((1 - u) * sOmega) / sSin;
    wb = (sSign * Math.sin(u * sOmega)) / sSin;
  }
  px = wa * sAx + wb * sBx;
  py = wa * sAy + wb * sBy;
  pz = wa * sAz + wb * sBz;
  pw = wa * sAw + wb * sBw;
  if (sLinear) {
    const len = Math.sqrt(px * px + py * py + pz * pz + pw * pw);
    if (len > 0) {
      px /= len;
      py /= len;
      pz /= len;
      pw /= len;
    }
  }
}

/**
 * Largest chord² between the slerp of keys a and b and the source at the keys inside (a, b) and
 * at the midpoint of every source interval in [a, b], or −1 beyond `limit`.
 */
function slerpSpan(times: usize, values: usize, a: u32, b: u32, limit: f64): f64 {
  sAx = component(values, a, 0); sAy = component(values, a, 1); sAz = component(values, a, 2); sAw = component(values, a, 3);
  sBx = component(values, b, 0); sBy = component(values, b, 1); sBz = component(values, b, 2); sBw = component(values, b, 3);
  let cos = sAx * sBx + sAy * sBy + sAz * sBz + sAw * sBw;
  sSign = cos < 0 ? -1 : 1;
  cos = abs(cos);
  sLinear = 1 - cos < SLERP_LINEAR_BELOW;
  sSin = Math.sqrt(max(0, 1 - cos * cos));
  sOmega = Math.atan2(sSin, cos);
  sT0 = time(times, a);
  sDt = time(times, b) - sT0;
  let worst: f64 = 0;
  for (let k = a; k < b; k++) {
    const kx = component(values, k, 0), ky = component(values, k, 1), kz = component(values, k, 2), kw = component(values, k, 3);
    const nx = component(values, k + 1, 0), ny = component(values, k + 1, 1), nz = component(values, k + 1, 2), nw = component(values, k + 1, 3);
    const s: f64 = kx * nx + ky * ny + kz * nz + kw * nw < 0 ? -1 : 1;
    let qx = kx + s * nx, qy = ky + s * ny, qz = kz + s * nz, qw = kw + s * nw;
    const len = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    if (len > 0) {
      qx /= len;
      qy /= len;
      qz /= len;
      qw /= len;
    }
    slerpAt((time(times, k) + time(times, k + 1)) / 2);
    let d = distance2(px, py, pz, pw, qx, qy, qz, qw, true);
    if (d > limit) return -1;
    worst = max(worst, d);
    if (k + 1 < b) {
      slerpAt(time(times, k + 1));
      d = distance2(px, py, pz, pw, nx, ny, nz, nw, true);
      if (d > limit) return -1;
      worst = max(worst, d);
    }
  }
  return worst;
}

function span(rec: usize, a: u32, b: u32, limit: f64): f64 {
  const flags = load<u32>(rec, REDUCE_FLAGS);
  const rotation = (flags & REDUCE_ROTATION) != 0;
  const values = load<usize>(rec, REDUCE_VALUES);
  if (rotation) {
    const path = load<usize>(rec, REDUCE_PATH);
    if (load<f64>(path + (<usize>b << 3)) - load<f64>(path + (<usize>a << 3)) >= Math.PI) return -1;
  }
  if ((flags & REDUCE_STEP) != 0) return stepSpan(values, a, b, rotation, limit);
  const times = load<usize>(rec, REDUCE_TIMES);
  return rotation ? slerpSpan(times, values, a, b, limit) : lerpSpan(times, values, a, b, limit);
}

/** Rotation scratch and the squared limit of one record; returns its largest squared distance from key 0 (Infinity for a rotation turning 180° or more). */
function prepare(rec: usize, n: u32): f64 {
  const rotation = (load<u32>(rec, REDUCE_FLAGS) & REDUCE_ROTATION) != 0;
  const values = load<usize>(rec, REDUCE_VALUES);
  const limit = limitOf(rec);
  let constant: f64 = 0;
  if (rotation) {
    const path = load<usize>(rec, REDUCE_PATH);
    store<f64>(path, 0);
    for (let k: u32 = 1; k < n; k++) {
      const at = path + (<usize>k << 3);
      store<f64>(at, load<f64>(at - 8) + angleOfChord(Math.sqrt(keyDistance2(values, k, k - 1, true))));
    }
    if (load<f64>(path + (<usize>(n - 1) << 3)) >= Math.PI) constant = Infinity;
  }
  for (let k: u32 = 1; k < n && constant <= limit; k++) constant = max(constant, keyDistance2(values, k, 0, rotation));
  return constant;
}

/** The record's limit, compared with squares: distance², or for rotations the chord² of its angle. */
function limitOf(rec: usize): f64 {
  const tolerance = load<f64>(rec, REDUCE_TOLERANCE);
  const bound = (load<u32>(rec, REDUCE_FLAGS) & REDUCE_ROTATION) != 0 ? chordOfAngle(tolerance) : tolerance;
  return bound * bound;
}

/** The error a squared distance (or chord) of the record stands for. */
function errorOf(rec: usize, d2: f64): f64 {
  return (load<u32>(rec, REDUCE_FLAGS) & REDUCE_ROTATION) != 0 ? angleOfChord(Math.sqrt(d2)) : Math.sqrt(d2);
}

/** Largest squared error of the span a → b over the group's members, or −1 when one does not pass. */
function groupSpan(first: usize, size: u32, a: u32, b: u32): f64 {
  let worst: f64 = 0;
  for (let i: u32 = 0; i < size; i++) {
    const rec = first + <usize>i * REDUCE_RECORD_SIZE;
    const e = span(rec, a, b, limitOf(rec));
    if (e < 0) return -1;
    worst = max(worst, e);
  }
  return worst;
}

/** Reduces one group of `size` records (1 for a curve alone): writes each its kept indices, their count and its largest error. */
function reduceGroup(first: usize, size: u32): void {
  const n = load<u32>(first, REDUCE_KEY_COUNT);
  const kept = load<usize>(first, REDUCE_KEPT);
  store<u32>(kept, 0);
  let count: u32 = 1;
  let worst: f64 = 0;
  let constant = true;
  if (n > 1) {
    for (let i: u32 = 0; i < size; i++) {
      const rec = first + <usize>i * REDUCE_RECORD_SIZE;
      const c = prepare(rec, n);
      if (!(c <= limitOf(rec))) constant = false;
      store<f64>(rec, c, REDUCE_ERROR); // each member's error if the group collapses to key 0
    }
  }
  if (n > 1 && !constant) {
    let a: u32 = 0;
    while (a < n - 1) {
      let good = a + 1;
      let goodError: f64 = 0;
      let bad = n;
      for (let len: u32 = 2; ; len <<= 1) {
        const b = min(a + len, n - 1);
        if (b <= good) break;
        const e = groupSpan(first, size, a, b);
        if (e < 0) {
          bad = b;
          break;
        }
        good = b;
        goodError = e;
      }
      while (bad - good > 1) {
        const mid = (good + bad) >>> 1;
        const e = groupSpan(first, size, a, mid);
        if (e < 0) bad = mid;
        else {
          good = mid;
          goodError = e;
        }
      }
      store<u32>(kept + (<usize>count << 2), good);
      count++;
      worst = max(worst, goodError);
      a = good;
    }
  }
  for (let i: u32 = 0; i < size; i++) {
    const rec = first + <usize>i * REDUCE_RECORD_SIZE;
    store<u32>(rec, count, REDUCE_KEPT_COUNT);
    if (i > 0) memory.copy(load<usize>(rec, REDUCE_KEPT), kept, <usize>count << 2);
    if (n <= 1) {
      store<f64>(rec, 0, REDUCE_ERROR);
    } else if (!constant) {
      let e = worst;
      if (size > 1) {
        // Each member's own largest error over the kept spans (every one passes).
        e = 0;
        for (let j: u32 = 1; j < count; j++) e = max(e, span(rec, load<u32>(kept + (<usize>(j - 1) << 2)), load<u32>(kept + (<usize>j << 2)), limitOf(rec)));
      }
      store<f64>(rec, errorOf(rec, e), REDUCE_ERROR);
    } else {
      store<f64>(rec, errorOf(rec, load<f64>(rec, REDUCE_ERROR)), REDUCE_ERROR);
    }
  }
}

/** Reduces the curves of `count` REDUCE_* records at `records`, a group at a time. */
export function reduceKeys(records: usize, count: u32): void {
  let i: u32 = 0;
  while (i < count) {
    let j = i + 1;
    while (j < count && (load<u32>(records + <usize>j * REDUCE_RECORD_SIZE, REDUCE_FLAGS) & REDUCE_WITH_PREVIOUS) != 0) j++;
    reduceGroup(records + <usize>i * REDUCE_RECORD_SIZE, j - i);
    i = j;
  }
}
