import type { PosPose, PosSegment } from './read-pos.js';

/**
 * The playback speed of stored frame `frame` (spec meteor.md §7.1): the speed of the first
 * segment in file order (`Blend` or `Action`) whose inclusive `[start, end]` contains it; 1 when
 * none does, and a speed of 0 also means 1.
 */
export function frameSpeed(segments: readonly PosSegment[], frame: number): number {
  const s = segments.find((g) => g.start <= frame && frame <= g.end);
  return s === undefined || s.speed === 0 ? 1 : s.speed;
}

/**
 * A pose's time table (spec meteor.md §7.1, PoseStatus.cs `Pose.Bake`): seconds at which each of
 * the frames `start … end` plays. `kt[0] = 0` and `kt[i − start] = kt[i − start − 1] + 1 / (fps ·
 * speed(i))`: a segment's speed scales the step *into* each of its frames. The clip duration is
 * the last entry.
 * @returns `end − start + 1` times in seconds (float64)
 */
export function poseTimeTable(pose: Pick<PosPose, 'segments'> & { start: number; end: number }, fps: number): Float64Array {
  const kt = new Float64Array(pose.end - pose.start + 1);
  for (let i = 1; i < kt.length; i++) kt[i] = kt[i - 1]! + 1 / (fps * frameSpeed(pose.segments, pose.start + i));
  return kt;
}
