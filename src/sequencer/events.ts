import { UsageError } from '../errors.js';
import { quote } from '../formats/text.js';
import type { ScheduledJob } from './job.js';

/** An `AnimEvent` of a playing job (Nebula3 `AnimEventInfo`). */
export interface SequencerEvent {
  readonly name: string;
  readonly category: string;
  /** The event's clip time, seconds. */
  readonly time: number;
  /** The sequence time at which the job's playback reaches it, seconds. */
  readonly sequenceTime: number;
  /** Name of the job's clip. */
  readonly clip: string;
  readonly track: number;
  /** The job's blend weight (fades applied) at the end of the window. */
  readonly weight: number;
}

/**
 * The most event occurrences one window lists, and one bake keeps (`bakeSequence`): a time factor
 * of 1e9 puts tens of millions of loops of a clip into one frame, which would take minutes and
 * gigabytes to list.
 */
export const MAX_EVENTS = 1 << 16;

/**
 * The events of `job` whose clip time lies in the window (t0, t1] mapped to clip time as the job
 * maps sequence time (spec sequencer.md §6): a looping job repeats its clip's events every clip
 * duration (an event at clip time 0 fires at every loop), a job of loops 1 repeats them only where
 * its clip cycles. Playing backwards, the window is [c(t1), c(t0)); a time factor of 0 fires
 * nothing. The job must be active at t0 and t1.
 * @throws UsageError when the window holds more than `MAX_EVENTS` occurrences (counted before any
 *   is listed)
 */
export function jobEvents(job: ScheduledJob, t0: number, t1: number): SequencerEvent[] {
  const { clip, timeFactor, looping, timeOffset, track } = job.settings;
  const d = clip.duration;
  if (timeFactor === 0 || d === 0 || clip.events.length === 0 || !(t1 > t0)) return [];
  const c0 = job.unwrappedClipTime(t0);
  const c1 = job.unwrappedClipTime(t1);
  const lo = Math.min(c0, c1);
  const hi = Math.max(c0, c1);
  // Occurrence k of an event is at clip time e + k·d: k = 0 only, or also where the clip repeats
  // (a looping job; a job of loops 1 on the side where the clip cycles).
  const ranges = clip.events.map((e) => {
    let kMin = Math.floor((lo - e.time) / d);
    let kMax = Math.ceil((hi - e.time) / d);
    if (!looping && clip.postInfinity !== 'cycle') kMax = Math.min(kMax, 0);
    if (!looping && clip.preInfinity !== 'cycle') kMin = Math.max(kMin, 0);
    return { e, kMin, kMax };
  });
  const total = ranges.reduce((n, r) => n + Math.max(0, r.kMax - r.kMin + 1), 0);
  if (total > MAX_EVENTS) {
    throw new UsageError(`events: the window (${t0}, ${t1}] s holds ${total} occurrences of the events of clip ${quote(clip.name)} (time factor ${timeFactor}); at most ${MAX_EVENTS} are listed`);
  }
  const inWindow = timeFactor > 0 ? (c: number) => c > c0 && c <= c1 : (c: number) => c >= c1 && c < c0;
  const weight = job.blendWeight(t1);
  const out: SequencerEvent[] = [];
  for (const { e, kMin, kMax } of ranges) {
    // Counted from kMin rather than k++ up to kMax: beyond 2^53 (an event at −1e20 s) k + 1 === k.
    for (let i = 0; i <= kMax - kMin; i++) {
      const c = e.time + (kMin + i) * d;
      if (!inWindow(c)) continue;
      out.push({
        name: e.name,
        category: e.category,
        time: e.time,
        sequenceTime: job.absStart + (c - timeOffset) / timeFactor,
        clip: clip.name,
        track,
        weight,
      });
    }
  }
  return out.sort((a, b) => a.sequenceTime - b.sequenceTime);
}
