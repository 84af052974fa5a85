// Twin of assembly/reduce-keys.ts: keyframe reduction of one curve, in float64 with the same
// search, the same checked points and the same comparisons, so both kernel builds keep the same
// keys as this twin.
import type { ReduceTrack, ReducedTrack } from '../anim/index.js';

/** Rotations closer than this (1 − cos of the half angle) are interpolated linearly and normalised. */
const SLERP_LINEAR_BELOW = 1e-7;

/**
 * Drops the keys of each curve that interpolation between the kept keys reproduces within its
 * `tolerance`, greedily from the first key: from each kept key the next kept key is the furthest
 * one (found by doubling the span, then bisecting) whose span passes the check, so the first and
 * last keys are kept exactly. A span passes when at every source key inside it — and, for
 * rotations, at every midpoint between source keys — the interpolated value (lerp; slerp for
 * rotations; the held key for `step`) lies within `tolerance` of the source. For lerp and step
 * the difference is linear (or constant) between source keys, so its largest value is at source
 * keys; slerp is checked between them too. A rotation span must also turn less than 180° along
 * the source (glTF-Transform issue #501), so the slerp between its ends takes the source's way.
 * A curve whose keys all lie within `tolerance` of key 0 (and, for rotations, that turns less
 * than 180° along the way) keeps key 0 alone. Tracks `withPrevious` form a group with the track
 * before them: one set of kept keys, whose spans pass for every member.
 * Distances are Euclidean over the four components; rotation errors are rotation angles (radians).
 */
export function referenceReduceKeys(tracks: readonly ReduceTrack[]): ReducedTrack[] {
  const out: ReducedTrack[] = [];
  for (let i = 0; i < tracks.length; ) {
    let j = i + 1;
    while (j < tracks.length && tracks[j]!.withPrevious) j++;
    out.push(...reduceGroup(tracks.slice(i, j)));
    i = j;
  }
  return out;
}

/** One track's checks: its limit (a squared distance or chord) and its span test. */
interface Member {
  limit: number;
  /** Largest squared error of the span from key a to key b, or −1 when it does not pass. */
  span(a: number, b: number): number;
  /** Largest squared distance from key 0 (Infinity when a rotation turns 180° or more). */
  constant: number;
  /** The error a squared distance or chord stands for. */
  error(d2: number): number;
}

function member(track: ReduceTrack): Member {
  const { times, values, rotation, step } = track;
  const n = times.length;
  // Compared as squares: Euclidean distance², or for rotations the chord² between unit quaternions (chord = 2 sin(angle / 4)).
  const limit = rotation ? chordOfAngle(track.tolerance) ** 2 : track.tolerance ** 2;
  // The source's turning angle from key 0 to key k (rotations), for the 180° rule.
  const path = new Float64Array(n);
  if (rotation) for (let k = 1; k < n; k++) path[k] = path[k - 1]! + angleOfChord(Math.sqrt(distance2(values, 4 * k, values, 4 * (k - 1), true)));
  let constant = rotation && path[n - 1]! >= Math.PI ? Infinity : 0;
  for (let k = 1; k < n && constant <= limit; k++) constant = Math.max(constant, distance2(values, 4 * k, values, 0, rotation));
  return {
    limit,
    constant,
    span(a, b) {
      if (rotation && path[b]! - path[a]! >= Math.PI) return -1;
      return step ? stepSpan(values, a, b, rotation, limit) : rotation ? slerpSpan(times, values, a, b, limit) : lerpSpan(times, values, a, b, limit);
    },
    error: (d2) => (rotation ? angleOfChord(Math.sqrt(d2)) : Math.sqrt(d2)),
  };
}

function reduceGroup(group: readonly ReduceTrack[]): ReducedTrack[] {
  const n = group[0]!.times.length;
  const members = group.map(member);
  const result = (kept: number[], d2: (m: Member, i: number) => number) => members.map((m, i) => ({ kept: Uint32Array.from(kept), error: m.error(d2(m, i)) }));
  if (n === 1) return result([0], () => 0);
  if (members.every((m) => m.constant <= m.limit)) return result([0], (m) => m.constant);
  // A span passes when it passes for every member; its error is the largest member's (one member's when alone).
  const span = (a: number, b: number): number => {
    let worst = 0;
    for (const m of members) {
      const e = m.span(a, b);
      if (e < 0) return -1;
      worst = Math.max(worst, e);
    }
    return worst;
  };
  const kept = [0];
  let worst = 0;
  let a = 0;
  while (a < n - 1) {
    let good = a + 1;
    let goodError = 0;
    let bad = n;
    for (let len = 2; ; len *= 2) {
      const b = Math.min(a + len, n - 1);
      if (b <= good) break;
      const e = span(a, b);
      if (e < 0) {
        bad = b;
        break;
      }
      good = b;
      goodError = e;
    }
    while (bad - good > 1) {
      const mid = (good + bad) >>> 1;
      const e = span(a, mid);
      if (e < 0) bad = mid;
      else {
        good = mid;
        goodError = e;
      }
    }
    kept.push(good);
    worst = Math.max(worst, goodError);
    a = good;
  }
  if (members.length === 1) return result(kept, () => worst);
  // Each member's own largest error over the kept spans (every one passes).
  return result(kept, (m) => {
    let e = 0;
    for (let i = 1; i < kept.length; i++) e = Math.max(e, m.span(kept[i - 1]!, kept[i]!));
    return e;
  });
}

/** Chord between unit quaternions whose rotations differ by `angle` radians (4D angle angle/2): 2 sin(angle/4), at most 2. */
function chordOfAngle(angle: number): number {
  return angle >= 2 * Math.PI ? 2 : 2 * Math.sin(angle / 4);
}

function angleOfChord(chord: number): number {
  return 4 * Math.asin(Math.min(1, chord / 2));
}

/** |a − b|² of float4s at `ai` and `bi`; for rotations the smaller of |a − b|² and |a + b|² (q and −q are one rotation). */
function distance2(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, rotation: boolean): number {
  let same = 0;
  let flipped = 0;
  for (let c = 0; c < 4; c++) {
    const x = a[ai + c]!;
    const y = b[bi + c]!;
    same += (x - y) * (x - y);
    flipped += (x + y) * (x + y);
  }
  return rotation ? Math.min(same, flipped) : same;
}

/** Largest distance² of the keys inside (a, b) from key a, or −1 once one exceeds `limit`. */
function stepSpan(values: Float32Array, a: number, b: number, rotation: boolean, limit: number): number {
  let worst = 0;
  for (let k = a + 1; k < b; k++) {
    const d = distance2(values, 4 * k, values, 4 * a, rotation);
    if (d > limit) return -1;
    worst = Math.max(worst, d);
  }
  return worst;
}

/** Largest distance² of the keys inside (a, b) from the lerp of keys a and b at their times, or −1 beyond `limit`. */
function lerpSpan(times: Float32Array, values: Float32Array, a: number, b: number, limit: number): number {
  const t0 = times[a]!;
  const dt = times[b]! - t0;
  const p: number[] = [0, 0, 0, 0];
  let worst = 0;
  for (let k = a + 1; k < b; k++) {
    const u = (times[k]! - t0) / dt;
    for (let c = 0; c < 4; c++) p[c] = values[4 * a + c]! + (values[4 * b + c]! - values[4 * a + c]!) * u;
    const d = distance2(p, 0, values, 4 * k, false);
    if (d > limit) return -1;
    worst = Math.max(worst, d);
  }
  return worst;
}

/**
 * Largest chord² between the slerp of keys a and b and the source, at the source keys inside
 * (a, b) and the midpoints of every source interval in [a, b] (where the source is the
 * normalised sum of its two keys: slerp at one half), or −1 beyond `limit`.
 */
function slerpSpan(times: Float32Array, values: Float32Array, a: number, b: number, limit: number): number {
  const A = 4 * a;
  const B = 4 * b;
  let cos = 0;
  for (let c = 0; c < 4; c++) cos += values[A + c]! * values[B + c]!;
  const sign = cos < 0 ? -1 : 1;
  cos = Math.abs(cos);
  const linear = 1 - cos < SLERP_LINEAR_BELOW;
  const sin = Math.sqrt(Math.max(0, 1 - cos * cos));
  const omega = Math.atan2(sin, cos);
  const t0 = times[a]!;
  const dt = times[b]! - t0;
  const p: number[] = [0, 0, 0, 0];
  const q: number[] = [0, 0, 0, 0];
  const at = (t: number): number[] => {
    const u = (t - t0) / dt;
    let wa: number;
    let wb: number;
    if (linear) {
      wa = 1 - u;
      wb = sign * u;
    } else {
      wa = Math.sin((1 - u) * omega) / sin;
      wb = (sign * Math.sin(u * omega)) / sin;
    }
    for (let c = 0; c < 4; c++) p[c] = wa * values[A + c]! + wb * values[B + c]!;
    if (linear) normalise(p);
    return p;
  };
  let worst = 0;
  for (let k = a; k < b; k++) {
    // The source halfway between keys k and k + 1.
    let dot = 0;
    for (let c = 0; c < 4; c++) dot += values[4 * k + c]! * values[4 * k + 4 + c]!;
    const s = dot < 0 ? -1 : 1;
    for (let c = 0; c < 4; c++) q[c] = values[4 * k + c]! + s * values[4 * k + 4 + c]!;
    normalise(q);
    let d = distance2(at((times[k]! + times[k + 1]!) / 2), 0, q, 0, true);
    if (d > limit) return -1;
    worst = Math.max(worst, d);
    if (k + 1 < b) {
      d = distance2(at(times[k + 1]!), 0, values, 4 * k + 4, true);
      if (d > limit) return -1;
      worst = Math.max(worst, d);
    }
  }
  return worst;
}

function normalise(q: number[]): void {
  const len = Math.sqrt(q[0]! * q[0]! + q[1]! * q[1]! + q[2]! * q[2]! + q[3]! * q[3]!);
  if (len > 0) for (let c = 0; c < 4; c++) q[c]! /= len;
}
