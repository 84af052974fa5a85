import type { AnimResource } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { curveTrack } from './curve-track.js';
import { exportClip } from './export-clip.js';
import type { ExportCounts } from './export-counts.js';

/** `animcore resample --to json`: one file's clips as key lists (documented in the README). */
export interface AnimJson {
  format: string;
  /** Joints with their rest pose; `parent` is the parent's index, null for a root. */
  skeleton: {
    joints: {
      name: string;
      parent: number | null;
      rest: { translation: number[]; rotation: number[]; scale: number[] };
    }[];
  } | null;
  clips: {
    name: string;
    /** Seconds. */
    duration: number;
    preInfinity: string;
    postInfinity: string;
    events: { name: string; category: string; time: number }[];
    curves: {
      type: string;
      target: { joint: string | null; property: string };
      active: boolean;
      /** Seconds, strictly increasing. */
      times: number[];
      /** 4 numbers per key (x y z w; quaternions x y z w). */
      values: number[];
    }[];
  }[];
}

/**
 * A resource as `AnimJson`: every clip (resampled to `fps` when given; Unity-curve clips always,
 * see `exportClip`) with every curve's keys as `curveTrack` gives them — the keys a glTF export
 * writes: own or uniform key times, a cycling clip's key 0 repeated at its end, rotations
 * normalised and sign-continuous, constant curves as one key at 0.
 * @throws UsageError for an `fps` that is not a finite number > 0
 */
export function animJson(core: AnimCore, resource: AnimResource, fps?: number): { json: AnimJson; counts: ExportCounts } {
  const counts: ExportCounts = { clips: resource.clips.length, keysIn: 0, keysOut: 0 };
  const clips = resource.clips.map((source) => {
    counts.keysIn += source.storedKeyCount;
    const clip = exportClip(core, source, fps);
    return {
      name: clip.name,
      duration: clip.duration,
      preInfinity: clip.preInfinity,
      postInfinity: clip.postInfinity,
      events: clip.events.map((e) => ({ name: e.name, category: e.category, time: e.time })),
      curves: clip.curves.map((c) => {
        const track = curveTrack(clip, c);
        counts.keysOut += track.times.length;
        return { type: c.curveType, target: { ...c.target }, active: c.active, times: Array.from(track.times), values: Array.from(track.values) };
      }),
    };
  });
  const skeleton = resource.skeleton && {
    joints: resource.skeleton.joints.map((j) => ({
      name: j.name,
      parent: j.parent < 0 ? null : j.parent,
      rest: { translation: [...j.rest.translation], rotation: [...j.rest.rotation], scale: [...j.rest.scale] },
    })),
  };
  return { json: { format: resource.format, skeleton, clips }, counts };
}
