import type { AnimClip, AnimResource } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { checkChoice, checkMaskArray, checkNumber, checkObject, describe } from './checks.js';
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
    const via = mapped !== name ? ` (mapped from ${JSON.stringify(name)})` : '';
    throw new UsageError(`${path}: no clip ${JSON.stringify(mapped)}${via}; clips: ${clips.map((c) => c.name).join(', ')}`);
  }
  return clip;
}

/**
 * Validates a job (an `AnimJobInit`, or a job object of a sequence file) and resolves it against
 * the resource: spec sequencer.md §1 defaults and ranges, the clip's duration × loops (or the
 * explicit duration), and `AnimJob::FixFadeTimes` (fades scaled down to fit a finite job).
 * @param path how errors name the job, e.g. `jobs[2]`
 * @throws UsageError naming `<path>.<field>` and why
 */
export function resolveJob(init: unknown, ctx: JobContext, path: string): JobSettings {
  const o = checkObject(init, JOB_KEYS, path);
  if (o.clip === undefined) throw new UsageError(`${path}.clip: required`);
  const clip = resolveClip(ctx, o.clip, `${path}.clip`);
  const at = checkNumber(o.at, `${path}.at`, { min: 0 }, ctx.now);
  if (at < ctx.now) throw new UsageError(`${path}.at: ${at} is before the sequencer's current time ${ctx.now}`);
  const mode = checkChoice(o.mode, `${path}.mode`, BLEND_MODES, 'normal');
  if (o.reference !== undefined && mode !== 'additive') throw new UsageError(`${path}.reference: only additive jobs have a reference pose`);
  const loops = checkNumber(o.loops, `${path}.loops`, { min: 0 }, 1);
  const explicit = o.duration !== undefined;
  const given = checkNumber(o.duration, `${path}.duration`, { min: 0 }, 0);
  if (!explicit && clip.duration === 0) {
    throw new UsageError(`${path}.duration: clip "${clip.name}" lasts 0 s, so the job needs an explicit duration (0 = infinite)`);
  }
  const infinite = explicit ? given === 0 : loops === 0;
  const duration = infinite ? 0 : explicit ? given : clip.duration * loops;
  let fadeIn = checkNumber(o.fadeIn, `${path}.fadeIn`, { min: 0 }, 0);
  let fadeOut = checkNumber(o.fadeOut, `${path}.fadeOut`, { min: 0 }, 0);
  if (!infinite && fadeIn + fadeOut > duration) {
    const scale = duration / (fadeIn + fadeOut);
    fadeIn *= scale;
    fadeOut *= scale;
  }
  let mask: Float32Array | null = null;
  let maskName: string | null = null;
  if (typeof o.mask === 'string') {
    mask = ctx.masks.get(o.mask) ?? null;
    if (!mask) throw new UsageError(`${path}.mask: no mask ${JSON.stringify(o.mask)}; masks: ${[...ctx.masks.keys()].join(', ') || 'none'}`);
    maskName = o.mask;
  } else if (o.mask instanceof Float32Array) {
    mask = checkMaskArray(o.mask, `${path}.mask`, ctx.curveCount).slice();
  } else if (o.mask !== undefined) {
    throw new UsageError(`${path}.mask: expected a mask name or a Float32Array, got ${describe(o.mask)}`);
  }
  return {
    clip,
    requested: o.clip as string | number,
    track: checkNumber(o.track, `${path}.track`, { min: 0, integer: true }, 0),
    at,
    start: checkNumber(o.start, `${path}.start`, { min: 0 }, 0),
    weight: checkNumber(o.weight, `${path}.weight`, { min: 0 }, 1),
    timeFactor: checkNumber(o.timeFactor, `${path}.timeFactor`, {}, 1),
    timeOffset: checkNumber(o.timeOffset, `${path}.timeOffset`, {}, 0),
    enqueue: checkChoice(o.enqueue, `${path}.enqueue`, ENQUEUE_MODES, 'intercept'),
    mode,
    reference: checkNumber(o.reference, `${path}.reference`, {}, 0),
    mask,
    maskName,
    looping: loops !== 1 || explicit,
    infinite,
    duration,
    fadeIn,
    fadeOut,
  };
}
