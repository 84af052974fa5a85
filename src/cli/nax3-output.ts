import { AnimClip, AnimResource } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { exportClip } from '../export/export-clip.js';
import { nax3FromResource, writeNax3 } from '../formats/nebula/index.js';

/** What `--to nax3` can store: whole-millisecond key durations in a u16 (spec nebula.md §2.2). */
export const NAX3_RATES = 'nax3 stores key durations in whole milliseconds (1 to 65535 ms), so rates of 1000/n keys/s such as 25, 40, 50, 100 or 125 convert exactly';

/**
 * The rate a `.nax3` is written at for `fps`: the nearest whole-millisecond key duration
 * (`ticks`, at least 1) and its rate `1000 / ticks` (30 keys/s → 33 ms → 30.303 keys/s).
 * @throws UsageError when the key duration does not fit the u16 tick field, naming working rates
 */
export function nax3Rate(fps: number): { ticks: number; fps: number } {
  const ticks = Math.max(1, Math.round(1000 / fps));
  if (ticks > 0xffff) throw new UsageError(`--fps ${fps} gives ${ticks} ms keys; ${NAX3_RATES}`);
  return { ticks, fps: 1000 / ticks };
}

/** A nax3 export: the file's bytes, the clips written, and what was changed to fit the format. */
export interface Nax3Output {
  bytes: Uint8Array;
  clips: AnimClip[];
  /** One line per change: the rate, the largest event move. */
  notes: string[];
}

/**
 * Writes every clip of `resource` as one `.nax3` (issue 14: real clips convert instead of being
 * refused): each clip is resampled at `nax3Rate(fps)` (`exportClip`); a cycling clip, whose keys
 * resample spreads over its exact duration, gets the nearest whole-millisecond key spacing (its
 * duration and events stretch with it); each event moves to the nearest key, as nax3 stores
 * events as key indices. `notes` report the rate when it differs from `fps`, the largest duration
 * change and the largest event move (clip and event named).
 * @throws UsageError from `nax3Rate`, and `nax3FromResource`'s for what nax3 cannot hold (Bool and
 *   Float curves, long names, counts) with the working rates added
 */
export function toNax3(core: AnimCore, resource: AnimResource, fps: number): Nax3Output {
  const rate = nax3Rate(fps);
  let moved = { by: 0, clip: '', event: '' };
  let stretched = { by: 0, clip: '' };
  const clips = resource.clips.map((source) => {
    const clip = exportClip(core, source, rate.fps);
    // A cycling clip's keys span its duration exactly (resample), so their spacing is whole
    // milliseconds only when the duration is: store them at the nearest whole millisecond, and the
    // clip (and its events) stretch by that much.
    const ticks = Math.max(1, Math.round(clip.keyDuration * 1000));
    const keyDuration = ticks / 1000;
    const scale = clip.keyDuration > 0 ? keyDuration / clip.keyDuration : 1;
    const duration = clip.keyDuration > 0 ? clip.duration * scale : clip.duration;
    if (Math.abs(duration - clip.duration) > stretched.by) stretched = { by: Math.abs(duration - clip.duration), clip: clip.name };
    const events = clip.events.map((e) => {
      const time = (Math.max(0, Math.round((e.time * scale) / keyDuration)) * ticks) / 1000;
      if (Math.abs(time - e.time) > moved.by) moved = { by: Math.abs(time - e.time), clip: clip.name, event: e.name };
      return { ...e, time };
    });
    return new AnimClip({ ...clip, curves: [...clip.curves], ...(clip.keyDuration > 0 && { keyDuration, duration }), events, metadata: { ...clip.metadata } });
  });
  let bytes: Uint8Array;
  try {
    bytes = writeNax3(nax3FromResource(new AnimResource({ format: 'nax3', clips })));
  } catch (e) {
    if (e instanceof UsageError) throw new UsageError(`${e.message}; ${NAX3_RATES}`);
    throw e;
  }
  const notes: string[] = [];
  if (Math.abs(rate.fps - fps) > 1e-9) notes.push(`nax3: ${fps} keys/s written as ${+rate.fps.toFixed(3)} keys/s (${rate.ticks} ms keys, the nearest whole millisecond)`);
  if (stretched.by > 1e-9) notes.push(`nax3: cycling clips stretched to whole-millisecond keys, durations changed by up to ${+(stretched.by * 1000).toFixed(3)} ms (clip "${stretched.clip}")`);
  if (moved.by > 1e-9) notes.push(`nax3: events moved to the nearest key, by up to ${+(moved.by * 1000).toFixed(3)} ms (clip "${moved.clip}", event "${moved.event}")`);
  return { bytes, clips, notes };
}
