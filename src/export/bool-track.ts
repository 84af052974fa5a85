import type { CurveTrack } from './curve-track.js';

/**
 * A Bool curve's track as step transitions: the first key, then each key whose value (x > 0.5)
 * differs from the one before. Times in seconds; values 0 or 1, each held until the next time.
 */
export function boolTrack(track: CurveTrack): { times: number[]; values: number[] } {
  const times: number[] = [];
  const values: number[] = [];
  track.times.forEach((t, k) => {
    const v = track.values[4 * k]! > 0.5 ? 1 : 0;
    if (values.length === 0 || values[values.length - 1] !== v) {
      times.push(t);
      values.push(v);
    }
  });
  return { times, values };
}
