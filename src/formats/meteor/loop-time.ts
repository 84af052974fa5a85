import type { AnimClip } from '../../anim/index.js';

/** A pose's loop (or hold) window in seconds of its clip: `[kt[LoopStart], kt[LoopEnd]]` (spec meteor.md §7.1). */
export interface LoopWindow {
  start: number;
  end: number;
}

/**
 * Maps a playback time to a clip time for "loop between LoopStart and LoopEnd" playback (spec
 * meteor.md §7.3, PoseStatus.cs `WrapperTime`): times past `loop.end` map to `loop.start + ((t −
 * loop.end) mod (loop.end − loop.start))`, so the LoopEnd and LoopStart frames are the same
 * instant and nothing is interpolated across the seam; a zero-length window holds `loop.start`.
 * Without a window, and before 0, the time is clamped to `[0, duration]`. Apply it before
 * `AnimSampler.sample`.
 * @param time seconds since the pose started
 * @param loop the clip's loop window, or `null` for a pose that does not loop
 * @param duration the clip's duration in seconds
 */
export function loopTime(time: number, loop: LoopWindow | null, duration: number): number {
  if (loop !== null && time > loop.end) {
    const length = loop.end - loop.start;
    return length > 0 ? loop.start + ((time - loop.end) % length) : loop.start;
  }
  return Math.min(Math.max(time, 0), duration);
}

/** `loopTime` with the window Meteor clips carry in `clip.metadata.loop` (see `openMeteorCharacter`). */
export function meteorLoopTime(clip: AnimClip, time: number): number {
  return loopTime(time, (clip.metadata.loop as LoopWindow | null | undefined) ?? null, clip.duration);
}
