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
} from '../../assembly/layout.js';
import type { ReduceTrack, ReducedTrack } from '../anim/index.js';
import { sameTimes } from '../anim/same-times.js';
import { UsageError } from '../errors.js';
import type { RuntimeOwner } from './runtime.js';

function check(track: ReduceTrack, i: number, tracks: readonly ReduceTrack[]): void {
  const n = track.times.length;
  if (track.withPrevious) {
    const previous = tracks[i - 1]?.times;
    if (!previous || !sameTimes(previous, track.times)) {
      throw new UsageError(`reduceKeys: track ${i} goes with the previous track but ${previous ? 'their times differ' : 'is the first'}`);
    }
  }
  if (n < 1 || track.values.length !== 4 * n) throw new UsageError(`reduceKeys: track ${i} has ${n} times and ${track.values.length} floats; need ≥ 1 key and 4 floats per key`);
  if (!(track.tolerance >= 0) || !Number.isFinite(track.tolerance)) throw new UsageError(`reduceKeys: track ${i}: tolerance must be a finite number ≥ 0, got ${track.tolerance}`);
  for (let k = 0; k < n; k++) {
    if (!Number.isFinite(track.times[k]!) || (k > 0 && !(track.times[k]! > track.times[k - 1]!))) {
      throw new UsageError(`reduceKeys: track ${i}: time ${k} (${track.times[k]}) is not finite or does not increase`);
    }
  }
  const values = track.values;
  let bad = -1;
  for (let v = 0; v < values.length && bad < 0; v++) if (!Number.isFinite(values[v]!)) bad = v;
  if (bad >= 0) throw new UsageError(`reduceKeys: track ${i}: value ${bad >> 2} is not finite (${track.values[bad]})`);
}

/**
 * Keyframe reduction of `tracks` in one wasm call (`reduceKeys`, assembly/reduce-keys.ts; twin
 * `referenceReduceKeys`): per track, the fewest keys — greedily from the first, each next kept
 * key the furthest whose span passes — whose interpolation (lerp; slerp for rotations; the held
 * key for `step`) reproduces every source key, and for rotations every midpoint between source
 * keys, within the track's tolerance. First and last keys stay exact; a track within tolerance of
 * its first key keeps it alone; a rotation span (or a collapse to one key) never turns 180° or
 * more along the source (glTF-Transform issue #501). Tracks `withPrevious` share the kept keys of
 * the track before them (a group: every member's spans must pass). `tracks` are not modified.
 * @throws UsageError for a track with no keys, a values length other than 4 × keys, times that
 *   are not finite or do not increase, values that are not finite, a tolerance that is not a
 *   finite number ≥ 0, or a track
 *   `withPrevious` whose times differ from the previous track's
 */
export function reduceKeys(core: RuntimeOwner, tracks: readonly ReduceTrack[]): ReducedTrack[] {
  tracks.forEach(check);
  if (tracks.length === 0) return [];
  const runtime = core.runtime;
  const sizes = tracks.flatMap((t) => {
    const n = t.times.length;
    return [4 * n, 16 * n, 4 * n, t.rotation ? 8 * n : 0];
  });
  const { ptr, arrays } = runtime.allocBlock(REDUCE_RECORD_SIZE * tracks.length, sizes);
  try {
    // The views once per call (each `runtime.f32` asks the wasm memory for its buffer): nothing below grows the memory.
    const { f32, u32, f64 } = runtime;
    tracks.forEach((t, i) => {
      const rec = ptr + i * REDUCE_RECORD_SIZE;
      const times = arrays[4 * i]!;
      const values = arrays[4 * i + 1]!;
      f32.set(t.times, times >>> 2);
      f32.set(t.values, values >>> 2);
      u32[(rec + REDUCE_KEY_COUNT) >>> 2] = t.times.length;
      u32[(rec + REDUCE_FLAGS) >>> 2] = (t.rotation ? REDUCE_ROTATION : 0) | (t.step ? REDUCE_STEP : 0) | (t.withPrevious ? REDUCE_WITH_PREVIOUS : 0);
      u32[(rec + REDUCE_TIMES) >>> 2] = times;
      u32[(rec + REDUCE_VALUES) >>> 2] = values;
      u32[(rec + REDUCE_KEPT) >>> 2] = arrays[4 * i + 2]!;
      u32[(rec + REDUCE_PATH) >>> 2] = t.rotation ? arrays[4 * i + 3]! : 0;
      f64[(rec + REDUCE_TOLERANCE) >>> 3] = t.tolerance;
    });
    runtime.kernel.reduceKeys(ptr, tracks.length);
    return tracks.map((_, i) => {
      const rec = ptr + i * REDUCE_RECORD_SIZE;
      const count = u32[(rec + REDUCE_KEPT_COUNT) >>> 2]!;
      const kept = arrays[4 * i + 2]!;
      return { kept: u32.slice(kept >>> 2, (kept >>> 2) + count), error: f64[(rec + REDUCE_ERROR) >>> 3]! };
    });
  } finally {
    runtime.free(ptr);
  }
}
