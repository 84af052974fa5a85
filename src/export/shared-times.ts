import { sameTimes } from '../anim/same-times.js';
import type { CurveTrack } from './curve-track.js';

/**
 * The tracks on one set of key times — the union of theirs — for a glTF sampler that animates
 * several values at once (morph target `weights`, glTF 2.0 §3.11: one input accessor for all
 * targets). Each track is evaluated at the times it lacks as a LINEAR (or, with `step`, STEP)
 * sampler evaluates it, holding its first and last keys beyond its ends, so the shared track plays
 * exactly as the separate ones would: a collapsed (one-key) weight beside animated ones, as in
 * Nebula2 blend-shape files, becomes that value at every time. Returns the tracks unchanged when
 * their times already agree.
 */
export function onSharedTimes(tracks: readonly CurveTrack[], step: boolean): CurveTrack[] {
  const first = tracks[0]!.times;
  if (tracks.every((t) => t.times.length === first.length && t.times.every((x, k) => x === first[k]))) return [...tracks];
  const times = Float32Array.from(new Set(tracks.flatMap((t) => Array.from(t.times)))).sort();
  return tracks.map((track) => {
    const values = new Float32Array(4 * times.length);
    let j = 0; // the last key of `track` at or before times[k]
    times.forEach((t, k) => {
      while (j + 1 < track.times.length && track.times[j + 1]! <= t) j++;
      const t0 = track.times[j]!;
      const next = j + 1 < track.times.length && t > t0 ? j + 1 : j;
      const w = next === j || step ? 0 : (t - t0) / (track.times[next]! - t0);
      const at = t < t0 ? 0 : w; // before the first key: its value
      for (let c = 0; c < 4; c++) {
        const a = track.values[4 * j + c]!;
        values[4 * k + c] = a + (track.values[4 * next + c]! - a) * at;
      }
    });
    return { times, values };
  });
}

/** One written input per distinct key-time array (the tracks of a uniform clip share one), whatever a writer makes of it (an accessor, an accessor index). */
export class SharedTimes<T> {
  private readonly byKey = new Map<string, { times: Float32Array; value: T }[]>();
  /**
   * The value of each array seen, by identity: the tracks of a clip share one times array, and the
   * clips of a bake equal ones, which the content test compared key by key for every track (a
   * few percent of a glTF → glTF bake; issue 15, gltf-resample).
   */
  private readonly byArray = new Map<Float32Array, T>();

  /** The value made for times equal to `times`, made by `make` the first time. */
  get(times: Float32Array, make: () => T): T {
    const known = this.find(times);
    if (known !== undefined) return known;
    const value = make();
    this.add(times, value);
    return value;
  }

  /** The value added for times equal to `times`, or undefined. */
  find(times: Float32Array): T | undefined {
    if (this.byArray.has(times)) return this.byArray.get(times);
    const list = this.byKey.get(timesKey(times));
    if (list === undefined) return undefined;
    for (const e of list) {
      if (sameTimes(e.times, times)) {
        this.byArray.set(times, e.value);
        return e.value;
      }
    }
    return undefined;
  }

  /** Adds the value for `times` (which `find` does not know yet). */
  add(times: Float32Array, value: T): void {
    this.byArray.set(times, value);
    const key = timesKey(times);
    const list = this.byKey.get(key);
    if (list) list.push({ times, value });
    else this.byKey.set(key, [{ times, value }]);
  }
}

/** A short key that equal time arrays share (few unequal ones do): their length, second and last time. */
function timesKey(times: Float32Array): string {
  return `${times.length}:${times[1]}:${times[times.length - 1]}`;
}
