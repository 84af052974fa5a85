import { MAX_WEIGHT } from '../anim/blend-options.js';
import type { AnimClip, AnimResource } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { checkChoice, checkMaskArray, checkNumber, checkObject, describe, nameList } from './checks.js';
import { BLEND_MODES, ENQUEUE_MODES, JOB_KEYS, type JobSettings } from './job.js';

/** What a job is resolved against. */
export interface JobContext {
  readonly resource: AnimResource;
  /** Abstract animation names → clip names or indices (the seed's Animation subsystem). */
  readonly names: ReadonlyMap<string, string | number>;
  readonly masks: ReadonlyMap<string, Float32Array>;
  /** Curves of the pose layout (the length of a mask). */
  readonly curveCount: number;
  /** The default `at`, and its lower bound: the sequencer's current time. */
  readonly now: number;
}

/** The clip `name` stands for: the `names` mapping first, then the resource's name or index. */
export function resolveClip(ctx: Pick<JobContext, 'resource' | 'names'>, name: unknown, path: string): AnimClip {
  if (typeof name !== 'string' && !(typeof name === 'number' && Number.isInteger(name) && name >= 0)) {
    throw new UsageError(`${path}: expected a clip name or index, got ${describe(name)}`);
  }
  const mapped = typeof name === 'string' ? (ctx.names.get(name) ?? name) : name;
  const clips = ctx.resource.clips;
  const clip = typeof mapped === 'number' ? clips[mapped] : (clips.find((c) => c.name === mapped) ?? (/^\d+$/.test(mapped) ? clips[Number(mapped)] : undefined));
  if (!clip) {
    const via = mapped !== name ? ` (mapped from ${describe(name)})` : '';
    throw new UsageError(`${path}: no clip ${describe(mapped)}${via}; clips: ${nameList(clips.map((c) => c.name))}`);
  }
  return clip;
}

/** A job's fields checked without its resource: ranges and lists of spec §1, defaults applied. */
export interface JobFields {
  readonly init: Record<string, unknown>;
  readonly at: number;
  readonly track: number;
  readonly start: number;
  readonly loops: number;
  /** The given `duration`, or undefined. */
  readonly duration: number | undefined;
  readonly fadeIn: number;
  readonly fadeOut: number;
  readonly weight: number;
  readonly timeFactor: number;
  readonly timeOffset: number;
  readonly enqueue: JobSettings['enqueue'];
  readonly mode: JobSettings['mode'];
  readonly reference: number;
}

/**
 * Checks the fields of a job (an `AnimJobInit`, or a job object of a sequence file) that need no
 * resource: known keys, a `clip` given, numbers in their ranges, values from their lists, `at` no
 * earlier than `now`, `reference` only on additive jobs. A sequence file's jobs are checked so
 * before any input is opened (`parseSequence`).
 * @param path how errors name the job, e.g. `jobs[2]`
 * @throws UsageError naming `<path>.<field>` and why
 */
export function checkJobFields(init: unknown, path: string, now = 0): JobFields {
  const o = checkObject(init, JOB_KEYS, path);
  if (o.clip === undefined) throw new UsageError(`${path}.clip: required`);
  const at = checkNumber(o.at, `${path}.at`, { min: 0 }, now);
  if (at < now) throw new UsageError(`${path}.at: ${at} is before the sequencer's current time ${now}`);
  const mode = checkChoice(o.mode, `${path}.mode`, BLEND_MODES, 'normal');
  if (o.reference !== undefined && mode !== 'additive') throw new UsageError(`${path}.reference: only additive jobs have a reference pose`);
  return {
    init: o,
    at,
    track: checkNumber(o.track, `${path}.track`, { min: 0, integer: true }, 0),
    start: checkNumber(o.start, `${path}.start`, { min: 0 }, 0),
    loops: checkNumber(o.loops, `${path}.loops`, { min: 0 }, 1),
    duration: o.duration === undefined ? undefined : checkNumber(o.duration, `${path}.duration`, { min: 0 }, 0),
    fadeIn: checkNumber(o.fadeIn, `${path}.fadeIn`, { min: 0 }, 0),
    fadeOut: checkNumber(o.fadeOut, `${path}.fadeOut`, { min: 0 }, 0),
    weight: checkNumber(o.weight, `${path}.weight`, { min: 0, max: MAX_WEIGHT }, 1),
    timeFactor: checkNumber(o.timeFactor, `${path}.timeFactor`, {}, 1),
    timeOffset: checkNumber(o.timeOffset, `${path}.timeOffset`, {}, 0),
    enqueue: checkChoice(o.enqueue, `${path}.enqueue`, ENQUEUE_MODES, 'intercept'),
    mode,
    reference: checkNumber(o.reference, `${path}.reference`, {}, 0),
  };
}

/**
 * Validates a job (`checkJobFields`) and resolves it against the resource: its clip (through
 * `names`), its mask, the clip's duration × loops (or the explicit duration), and
 * `AnimJob::FixFadeTimes` (fades scaled down to fit a finite job).
 * @param path how errors name the job, e.g. `jobs[2]`
 * @throws UsageError naming `<path>.<field>` and why
 */
export function resolveJob(init: unknown, ctx: JobContext, path: string): JobSettings {
  const f = checkJobFields(init, path, ctx.now);
  const o = f.init;
  const clip = resolveClip(ctx, o.clip, `${path}.clip`);
  const explicit = f.duration !== undefined;
  if (!explicit && clip.duration === 0) {
    throw new UsageError(`${path}.duration: clip "${clip.name}" lasts 0 s, so the job needs an explicit duration (0 = infinite)`);
  }
  const infinite = explicit ? f.duration === 0 : f.loops === 0;
  const duration = infinite ? 0 : (f.duration ?? clip.duration * f.loops);
  let { fadeIn, fadeOut } = f;
  if (!infinite && fadeIn + fadeOut > duration) {
    const scale = duration / (fadeIn + fadeOut);
    fadeIn *= scale;
    fadeOut *= scale;
  }
  let mask: Float32Array | null = null;
  let maskName: string | null = null;
  if (typeof o.mask === 'string') {
    mask = ctx.masks.get(o.mask) ?? null;
    if (!mask) throw new UsageError(`${path}.mask: no mask ${describe(o.mask)}; masks: ${nameList([...ctx.masks.keys()])}`);
    maskName = o.mask;
  } else if (o.mask instanceof Float32Array) {
    mask = checkMaskArray(o.mask, `${path}.mask`, ctx.curveCount).slice();
  } else if (o.mask !== undefined) {
    throw new UsageError(`${path}.mask: expected a mask name or a Float32Array, got ${describe(o.mask)}`);
  }
  return {
    clip,
    requested: o.clip as string | number,
    track: f.track,
    at: f.at,
    start: f.start,
    weight: f.weight,
    timeFactor: f.timeFactor,
    timeOffset: f.timeOffset,
    enqueue: f.enqueue,
    mode: f.mode,
    reference: f.reference,
    mask,
    maskName,
    looping: f.loops !== 1 || explicit,
    infinite,
    duration,
    fadeIn,
    fadeOut,
  };
}
