import { MAX_WEIGHT } from '../anim/blend-options.js';
import type { AnimClip, AnimResource, BlendLayer, BlendOptions, BlendRule, CurveType } from '../anim/index.js';
import { type AnimCore, AnimSampleBuffer, BlendJob, type BlendJobLayer, BlendMask, type LocalToModelJob } from '../core/index.js';
import { UsageError } from '../errors.js';
import { checkChoice, checkMaskArray, checkNumber, member } from './checks.js';
import { jobEvents, type SequencerEvent } from './events.js';
import { type AnimJobInit, type EnqueueMode, ScheduledJob } from './job.js';
import { type JointMaskOptions, PoseLayout } from './pose-layout.js';
import { type JobContext, resolveClip, resolveJob } from './resolve-job.js';
import { JobSchedule } from './schedule.js';

/** Options of `new AnimSequencer(core, resource, options)`. */
export interface AnimSequencerOptions {
  /** Blend rule of the normal jobs (spec sequencer.md §3). Default `priority` (Nebula3). */
  rule?: BlendRule;
  /**
   * Rotation interpolation of each clip's keys and of the blend, always along the shortest arc.
   * Default: the format's (`PoseLayout.rotation`: `slerp` for glTF, whose clips declare it;
   * else `nlerp`).
   */
  rotation?: 'nlerp' | 'slerp';
  /** `weighted` only: τ ≥ 0, the total weight the rest pose fills up to (0: no fill). Default 1. */
  threshold?: number;
  /** Abstract animation names → the resource's clip names or indices (`{ walk: 'Unit_Footman_walk01' }`). */
  names?: Readonly<Record<string, string | number>>;
  /** Named per-curve masks (`Float32Array` of the pose layout's curve count, values in [0, 1]), for `AnimJobInit.mask`. */
  masks?: Readonly<Record<string, Float32Array>>;
}

/** A job as `AnimSequencer.jobs()` reports it. Times are sequence seconds. */
export interface AnimJobInfo {
  readonly clip: string;
  readonly track: number;
  readonly at: number;
  readonly enqueue: EnqueueMode;
  readonly mode: 'normal' | 'additive';
  /**
   * `enqueued`: waiting for its `at`; `pending`: inserted, not started; `active`; `stopping`: in
   * its fade-out; `expired`.
   */
  readonly state: 'enqueued' | 'pending' | 'active' | 'stopping' | 'expired';
  /** absStart (NaN while enqueued). */
  readonly start: number;
  /** absEnd; `Infinity` for an infinite job (NaN while enqueued). */
  readonly end: number;
  readonly fadeIn: number;
  readonly fadeOut: number;
  /** The blend weight at the current time (fades applied; 0 when not active). */
  readonly weight: number;
}

interface JobBuffers {
  clip: AnimClip;
  samples: AnimSampleBuffer;
  /** Additive jobs: the clip at its reference time. */
  reference: AnimSampleBuffer | null;
  mask: BlendMask | null;
}

/**
 * Layered playback of one resource (Nebula3 `Animation::AnimSequencer`, spec sequencer.md): jobs
 * play clips on tracks with fades, are enqueued by the rules of §2, and `update(t)` samples every
 * active job into the pose layout (§0) and blends them (§3–§4) into `result`, an
 * `AnimSampleBuffer` of the layout's curves. Events as §6.
 *
 * Time moves forward for scheduling: `enqueue` takes an `at` no earlier than the current time (the
 * latest `update`), and jobs are inserted when `update` reaches their `at`. `update` may also be
 * called with an earlier time (a scrub); it evaluates the jobs still held, but does not undo
 * insertions, and jobs dropped as expired are gone (as `RemoveExpiredAnimJobs` drops them).
 * `dispose()` frees the wasm memory.
 */
export class AnimSequencer {
  readonly resource: AnimResource;
  readonly layout: PoseLayout;
  /** The blended pose of the last `update` (rest values with count 0 before the first). */
  readonly result: AnimSampleBuffer;
  readonly rule: BlendRule;
  readonly rotation: 'nlerp' | 'slerp';
  readonly threshold: number;
  private readonly core: AnimCore;
  private readonly context: JobContext & { now: number };
  private schedule = new JobSchedule();
  /** Enqueued jobs not yet inserted, by (at, id). */
  private enqueued: ScheduledJob[] = [];
  private readonly buffers = new Map<ScheduledJob, JobBuffers>();
  /** Frees the re-laid clips (glTF), with the sequencer. */
  private readonly releaseClips: () => void;
  private nextId = 0;
  private lastTime = 0;
  /** The jobs blended by the last `update`, in layer order. */
  private blended: ScheduledJob[] = [];
  private blendJob: BlendJob;
  /** One wasm copy per mask array (named masks are shared by their jobs). */
  private readonly wasmMasks = new Map<Float32Array, { mask: BlendMask; users: number }>();

  /**
   * @throws UsageError for options out of range, `names` naming no clip, or a mask of the wrong
   *   length or with weights outside [0, 1]
   */
  constructor(core: AnimCore, resource: AnimResource, options: AnimSequencerOptions = {}) {
    this.core = core;
    this.resource = resource;
    this.rule = checkChoice(options.rule, 'rule', ['priority', 'weighted'], 'priority');
    this.layout = new PoseLayout(resource);
    this.rotation = checkChoice(options.rotation, 'rotation', ['nlerp', 'slerp'], this.layout.rotation);
    this.threshold = checkNumber(options.threshold, 'threshold', { min: 0, max: MAX_WEIGHT }, 1);
    const names = new Map(Object.entries(options.names ?? {}));
    const masks = new Map(Object.entries(options.masks ?? {}).map(([k, m]) => [k, checkMaskArray(m, member('masks', k), this.layout.curveCount).slice()]));
    this.context = { resource, names, masks, curveCount: this.layout.curveCount, now: 0 };
    for (const name of names.keys()) resolveClip(this.context, name, member('names', name));
    this.releaseClips = this.layout.load(core, resource);
    this.result = new AnimSampleBuffer(core, this.layout.curveTypes);
    this.blendJob = new BlendJob(core, this.layout.curveTypes, this.layout.rest, 8);
    this.blend([]);
  }

  /** The current time: the latest time given to `update` (0 before the first). */
  get time(): number {
    return this.context.now;
  }

  /** A per-curve mask over the pose layout by joint names (`PoseLayout.mask`). */
  mask(joints: readonly string[], options: JointMaskOptions = {}): Float32Array {
    return this.layout.mask(joints, options);
  }

  /**
   * Enqueues a job at `job.at` (default: the current time); it is inserted by the rules of spec
   * §2 when `update` reaches that time.
   * @param path how errors name the job (a sequence file passes `jobs[i]`)
   * @throws UsageError naming the field for an invalid job, an `at` before the current time, or an
   *   `append` that would land behind an infinite job
   */
  enqueue(job: AnimJobInit, path = 'job'): void {
    const scheduled = new ScheduledJob(this.nextId, resolveJob(job, this.context, path));
    const queue = [...this.enqueued, scheduled].sort(byAtThenId);
    // A dry run of every waiting insertion: refusals surface here, not later in update().
    const dry = this.schedule.clone();
    for (const j of queue) {
      try {
        dry.insert(j.clone(), j === scheduled ? path : `job`);
      } catch (e) {
        if (j === scheduled || !(e instanceof UsageError)) throw e;
        throw new UsageError(`${path}: enqueued at ${scheduled.settings.at}, it blocks a job enqueued earlier for ${j.settings.at} (${e.message})`);
      }
    }
    this.nextId++;
    this.enqueued = queue;
  }

  /**
   * The time at which every job held or enqueued has ended: the latest absEnd once the enqueued
   * jobs are inserted (a dry run of §2, so intercepts shorten the jobs they stop); the current
   * time when no job is left; `Infinity` while an infinite job is never stopped.
   */
  end(): number {
    const dry = this.schedule.clone();
    let end = this.context.now;
    const ended = (t: number) => {
      for (const j of dry.jobs) if (j.isExpired(t) && j.absEnd > j.settings.at) end = Math.max(end, j.absEnd);
    };
    for (const j of this.enqueued) {
      ended(j.settings.at);
      dry.insert(j.clone(), 'job');
    }
    for (const j of dry.jobs) if (j.absEnd > j.settings.at) end = Math.max(end, j.absEnd);
    return end;
  }

  /**
   * Stops the jobs of `track` at the current time: with `fadeOut` (default) they fade out as
   * `intercept` stops them (a job not yet started is discarded); without, they are discarded.
   * Jobs enqueued for that track and not yet inserted are discarded (Nebula3 `StopTrack`).
   */
  stopTrack(track: number, options: { fadeOut?: boolean } = {}): void {
    checkNumber(track, 'track', { min: 0, integer: true }, 0);
    this.stop(track, options.fadeOut ?? true);
  }

  /** `stopTrack` for every track (Nebula3 `StopAllTracks`). */
  stopAll(options: { fadeOut?: boolean } = {}): void {
    this.stop(null, options.fadeOut ?? true);
  }

  private stop(track: number | null, fadeOut: boolean): void {
    this.enqueued = this.enqueued.filter((j) => track !== null && j.settings.track !== track);
    this.schedule.stop(track, this.context.now, fadeOut);
    this.syncBuffers();
  }

  /**
   * Inserts the jobs enqueued up to `time`, drops expired ones, samples every active job and
   * blends them into `result`, in one call into WebAssembly.
   * @param time sequence seconds, finite
   * @param options `model`: a local-to-model job of the pose layout (`new LocalToModelJob(core,
   *   seq.layout.binding())`) that the same call fills with the result's model-space matrices (as
   *   `model.run(result, { blended: true })` would)
   */
  update(time: number, options: { model?: LocalToModelJob } = {}): AnimSampleBuffer {
    if (!Number.isFinite(time)) throw new UsageError(`time must be a finite number of seconds, got ${time}`);
    while (this.enqueued.length > 0 && this.enqueued[0]!.settings.at <= time) {
      const job = this.enqueued.shift()!;
      this.schedule.insert(job, 'job');
    }
    this.schedule.prune(time);
    this.context.now = Math.max(this.context.now, time);
    this.lastTime = time;
    this.syncBuffers();
    const layers: BlendJobLayer[] = [];
    this.blended = [];
    for (const job of this.schedule.jobs) {
      if (!job.isActive(time)) continue;
      this.blended.push(job);
      const b = this.buffers.get(job)!;
      const s = job.settings;
      layers.push({
        samples: b.samples,
        clip: b.clip,
        time: job.clipTime(time),
        sampling: { rotation: this.rotation, timeFactor: s.timeFactor },
        weight: job.blendWeight(time),
        mask: b.mask,
        mode: s.mode,
        ...(b.reference ? { reference: b.reference } : {}),
      });
    }
    this.blend(layers, options.model);
    return this.result;
  }

  /**
   * One call into the blend kernel, which samples each layer's clip and blends them (the job
   * grows when more layers are active than it holds).
   */
  private blend(layers: BlendJobLayer[], model?: LocalToModelJob): void {
    if (layers.length > this.blendJob.maxLayers) {
      this.blendJob.dispose();
      this.blendJob = new BlendJob(this.core, this.layout.curveTypes, this.layout.rest, 2 * layers.length);
    }
    this.blendJob.run(layers, this.result, { rule: this.rule, rotation: this.rotation, threshold: this.threshold, ...(model ? { model } : {}) });
  }

  /**
   * The events of the jobs active at both t0 and t1 whose clip time lies in (t0, t1] (spec §6),
   * sorted by sequence time. `dominating`: only the job of the highest track among them (the last
   * such job in list order).
   * @throws UsageError for a time that is not finite, or a window that holds more than
   *   `MAX_EVENTS` (65,536) occurrences of one job's events (a time factor of 1e9)
   */
  events(t0: number, t1: number, options: { dominating?: boolean } = {}): SequencerEvent[] {
    for (const [t, name] of [[t0, 't0'], [t1, 't1']] as const) {
      if (!Number.isFinite(t)) throw new UsageError(`${name} must be a finite number of seconds, got ${t}`);
    }
    let jobs = this.schedule.jobs.filter((j) => j.isActive(t0) && j.isActive(t1));
    if (options.dominating && jobs.length > 0) jobs = [jobs[jobs.length - 1]!];
    return jobs.flatMap((j) => jobEvents(j, t0, t1)).sort((a, b) => a.sequenceTime - b.sequenceTime);
  }

  /**
   * @internal The last `update`'s blend as `referenceBlend` takes it (its float64 twin: the fuzz
   * oracle tells an overflow of float32 from a kernel's fault with it): the pose layout, each
   * layer's samples as the call sampled them (copies), weights, masks, modes and references. Call
   * it right after `update` (a stop frees the buffers of the jobs it discards).
   */
  blendInputs(): { curveTypes: readonly CurveType[]; rest: Float32Array; layers: BlendLayer[]; options: BlendOptions } {
    const copy = (b: AnimSampleBuffer) => ({ samples: b.samples.slice(), counts: b.counts.slice() });
    const layers = this.blended.map((job): BlendLayer => {
      const b = this.buffers.get(job)!;
      return {
        samples: copy(b.samples),
        weight: job.blendWeight(this.lastTime),
        mask: job.settings.mask,
        mode: job.settings.mode,
        ...(b.reference ? { reference: copy(b.reference) } : {}),
      };
    });
    return { curveTypes: this.layout.curveTypes, rest: this.layout.rest, layers, options: { rule: this.rule, rotation: this.rotation, threshold: this.threshold } };
  }

  /** Every job held, in list order (inserted ones by track), then the enqueued ones by `at`; states at the last `update` time. */
  jobs(): AnimJobInfo[] {
    const t = this.lastTime;
    const info = (j: ScheduledJob, enqueued: boolean): AnimJobInfo => {
      const s = j.settings;
      const state = enqueued
        ? 'enqueued'
        : j.isExpired(t)
          ? 'expired'
          : t < j.absStart
            ? 'pending'
            : j.isStoppingOrExpired(t)
              ? 'stopping'
              : 'active';
      return {
        clip: s.clip.name,
        track: s.track,
        at: s.at,
        enqueue: s.enqueue,
        mode: s.mode,
        state,
        start: enqueued ? Number.NaN : j.absStart,
        end: enqueued ? Number.NaN : j.absEnd,
        fadeIn: s.fadeIn,
        fadeOut: s.fadeOut,
        weight: !enqueued && j.isActive(t) ? j.blendWeight(t) : 0,
      };
    };
    return [...this.schedule.jobs.map((j) => info(j, false)), ...this.enqueued.map((j) => info(j, true))];
  }

  /** Frees the sample buffers and any re-laid clips. Safe to call twice. */
  dispose(): void {
    this.schedule = new JobSchedule();
    this.enqueued = [];
    this.syncBuffers();
    this.blended = [];
    this.result.dispose();
    this.blendJob.dispose();
    this.releaseClips();
  }

  /** Buffers for every inserted job, none for the others (additive references sampled once). */
  private syncBuffers(): void {
    const held = new Set(this.schedule.jobs);
    for (const [job, b] of this.buffers) {
      if (held.has(job)) continue;
      b.samples.dispose();
      b.reference?.dispose();
      if (job.settings.mask) this.releaseMask(job.settings.mask);
      this.buffers.delete(job);
    }
    for (const job of held) {
      if (this.buffers.has(job)) continue;
      const s = job.settings;
      const clip = this.layout.clip(s.clip);
      const samples = this.core.createSampleBuffer(clip);
      let reference: AnimSampleBuffer | null = null;
      if (s.mode === 'additive') {
        reference = this.core.createSampleBuffer(clip);
        this.core.sampler.sample(clip, s.reference, reference, { rotation: this.rotation, timeFactor: s.timeFactor });
      }
      this.buffers.set(job, { clip, samples, reference, mask: s.mask ? this.holdMask(s.mask) : null });
    }
  }

  private holdMask(weights: Float32Array): BlendMask {
    let held = this.wasmMasks.get(weights);
    if (!held) {
      held = { mask: new BlendMask(this.core, weights), users: 0 };
      this.wasmMasks.set(weights, held);
    }
    held.users++;
    return held.mask;
  }

  private releaseMask(weights: Float32Array): void {
    const held = this.wasmMasks.get(weights);
    if (held && --held.users === 0) {
      held.mask.dispose();
      this.wasmMasks.delete(weights);
    }
  }
}

function byAtThenId(a: ScheduledJob, b: ScheduledJob): number {
  return a.settings.at - b.settings.at || a.id - b.id;
}
