import { AnimClip, type AnimCurve, type AnimEvent, AnimResource, alignRotationKeys, staticKeys } from '../anim/index.js';
import { type AnimCore, resampledKeyCount } from '../core/index.js';
import { MAX_OUTPUT_KEYS } from '../core/resample.js';
import { UsageError } from '../errors.js';
import { checkNumber } from './checks.js';
import { MAX_EVENTS } from './events.js';
import { type LoadSequenceOptions, loadSequence, type SequenceFile } from './sequence-file.js';

/** Options of `bakeSequence`. */
export interface BakeSequenceOptions extends LoadSequenceOptions {
  /** Keys per second, a finite number > 0. */
  fps: number;
  /**
   * Seconds baked, > 0 … finite. Default: the end of the sequence's last job
   * (`AnimSequencer.end()`); required when a job plays forever.
   */
  length?: number;
}

/** The name of the baked clip. */
export const SEQUENCE_CLIP = 'sequence';

/**
 * Bakes a sequence file (its text, or parsed) played on `resource` into one clip named `sequence`:
 * the sequencer's result (spec sequencer.md §3–§4, pose layout §0) at key k = k / fps seconds,
 * from 0 to the sequence's length (keys as `resample` places them: up to the first key at or after
 * the length, whose pose is the sequence's last, the limit from before its jobs end). Curves no
 * job defines at any key are inactive and hold their rest value; curves that never change are
 * static; rotations are sign-aligned key to key. The clip's events are the jobs' events (§6) at
 * their sequence times. Returns a resource of that clip with everything else of `resource`
 * (skeleton, meshes, skins, axes, format), ready for the exporters.
 * @throws UsageError naming the JSON path for a bad sequence (`jobs[2].fadeIn`), for a bad `fps`
 *   or `length`, for a sequence with an infinite job and no `length`, for more keys than
 *   `resample` would make (`MAX_OUTPUT_KEYS`) or more events than `MAX_EVENTS`, or for a pose
 *   beyond float32 (keys extrapolated by huge weights: a clip holds finite keys only)
 */
export function bakeSequence(core: AnimCore, resource: AnimResource, sequence: string | SequenceFile, options: BakeSequenceOptions): AnimResource {
  const { fps } = options;
  const sequencer = loadSequence(core, resource, sequence, options.rotation === undefined ? {} : { rotation: options.rotation });
  try {
    const length = options.length === undefined ? sequencer.end() : checkNumber(options.length, 'length', { min: 0 }, 0);
    if (length === Infinity) {
      throw new UsageError('a job plays forever (loops 0 or duration 0) and nothing stops it: give the length to bake (--length SECONDS)');
    }
    const keyCount = resampledKeyCount(new AnimClip({ name: SEQUENCE_CLIP, curves: [], duration: length }), fps);
    const n = sequencer.layout.curveCount;
    if (keyCount * n > MAX_OUTPUT_KEYS) {
      throw new UsageError(`baking ${length} s at ${fps} fps makes ${keyCount} keys per curve; over ${MAX_OUTPUT_KEYS} keys in all`);
    }
    const values = Array.from({ length: n }, () => new Float32Array(4 * keyCount));
    const defined = new Uint8Array(n);
    const events: AnimEvent[] = [];
    // The last key shows the pose from just before the length: at it, the jobs that end there are gone.
    const end = length > 0 ? length * (1 - Number.EPSILON) : 0;
    let previous = 0;
    for (let k = 0; k < keyCount; k++) {
      const t = Math.min(k / fps, end);
      const result = sequencer.update(t);
      const samples = result.samples;
      const counts = result.counts;
      for (let i = 0; i < n; i++) {
        values[i]!.set(samples.subarray(4 * i, 4 * i + 4), 4 * k);
        if (counts[i]! > 0) defined[i] = 1;
      }
      const overflow = samples.findIndex((v) => !Number.isFinite(v));
      if (overflow >= 0) {
        throw new UsageError(`the sequence's pose at ${t} s overflows float32 (curve ${overflow >> 2}: ${samples[overflow]}); a baked clip holds finite keys only`);
      }
      if (k > 0) {
        for (const e of sequencer.events(previous, t)) events.push({ name: e.name, category: e.category, time: e.sequenceTime });
        if (events.length > MAX_EVENTS) throw new UsageError(`baking ${length} s makes over ${MAX_EVENTS} events (a job's time factor repeats its clip's events that often); at most ${MAX_EVENTS} are kept`);
      }
      previous = t;
    }
    const rest = sequencer.layout.rest;
    const curves = sequencer.layout.curves.map((c, i): AnimCurve => {
      const target = { joint: c.joint, property: c.property };
      let v: Float32Array = values[i]!;
      if (c.curveType === 'rotation') v = alignRotationKeys(v, keyCount).subarray(0, 4 * keyCount);
      const constant = v.every((x, j) => x === v[j % 4]);
      if (!defined[i] || constant) {
        const s = defined[i] ? v : rest.subarray(4 * i, 4 * i + 4);
        return { curveType: c.curveType, target, active: defined[i] === 1, keys: staticKeys(s[0]!, s[1]!, s[2]!, s[3]!) };
      }
      return { curveType: c.curveType, target, active: true, keys: { encoding: 'uniform', values: v } };
    });
    const clip = new AnimClip({
      name: SEQUENCE_CLIP,
      curves,
      keyCount,
      keyDuration: 1 / fps,
      duration: (keyCount - 1) / fps,
      rotation: sequencer.rotation,
      events: events.sort((a, b) => a.time - b.time),
      metadata: { sequenceLength: length },
    });
    return new AnimResource({
      format: resource.format,
      clips: [clip],
      skeleton: resource.skeleton,
      meshes: [...resource.meshes],
      skins: [...resource.skins],
      info: resource.info,
      axes: resource.axes,
    });
  } finally {
    sequencer.dispose();
  }
}
