import { type AnimResource, axesText } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { curveTrack } from './curve-track.js';
import { type ExportAxisOptions, convertResource } from './axis-conversion.js';
import { type ClipExportOptions, exportClips } from './export-clip.js';
import type { ClipReduction } from './reduce-clip.js';
import type { ExportCounts } from './export-counts.js';

/** `animcore resample --to json`: one file's clips as key lists (documented in the README). */
export interface AnimJson {
  format: string;
  /** The space of the values: `up` as exported (`y`: Y-up right-handed; `z`; `source`), the source's axes, and the length `scale`. */
  axes: { up: string; source: string; scale: number };
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

/** Options of `animJson`: the space (`convertResource`) and the bake and reduction (`exportClips`), as for glTF. */
export interface JsonExportOptions extends ExportAxisOptions, ClipExportOptions {}

/**
 * A resource as `AnimJson`: every clip baked and reduced as a glTF export does (`exportClips`:
 * resampled to `fps` when given, Unity-curve clips always; keyframe reduction unless the
 * tolerance is 0), in the output space (`convertResource`: Y-up, right-handed by default, `up`
 * and `scale`, recorded in `axes`), with every curve's keys as `curveTrack` gives them — the keys
 * a glTF export writes: own or uniform key times, a cycling clip's key 0 repeated at its end,
 * rotations normalised and sign-continuous, constant curves as one key at 0.
 * @throws UsageError for an `fps` that is not a finite number > 0, a bad tolerance, and as `convertResource`
 */
export function animJson(core: AnimCore, input: AnimResource, options: JsonExportOptions = {}): { json: AnimJson; counts: ExportCounts; reductions: ClipReduction[] } {
  const resource = convertResource(input, options);
  const counts: ExportCounts = { clips: resource.clips.length, keysIn: 0, keysOut: 0 };
  const { clips: written, reductions } = exportClips(core, resource.clips, options);
  const clips = written.map((clip, c) => {
    counts.keysIn += resource.clips[c]!.storedKeyCount;
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
  const axes = { up: options.up ?? 'y', source: axesText(input.axes), scale: options.scale ?? 1 };
  return { json: { format: resource.format, axes, skeleton, clips }, counts, reductions };
}
