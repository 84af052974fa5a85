import type { AnimClip, BlendMode } from '../anim/index.js';

/** How a job joins its track (spec sequencer.md §2, Nebula3 `AnimJobEnqueueMode`). */
export type EnqueueMode = 'intercept' | 'append' | 'ignoreIfSameClipActive';

export const ENQUEUE_MODES: readonly EnqueueMode[] = ['intercept', 'append', 'ignoreIfSameClipActive'];
export const BLEND_MODES: readonly BlendMode[] = ['normal', 'additive'];

/**
 * A job to enqueue: one clip of the sequencer's resource played on a track (spec sequencer.md §1;
 * Nebula3 `AnimJob` / `PlayClipJob`). Times are seconds. The same fields, with the same names, are
 * a job of a sequence file.
 */
export interface AnimJobInit {
  /** Clip name (looked up in the sequencer's `names` first), or index. */
  clip: string | number;
  /** Integer ≥ 0; a higher track has higher priority (mixed later, dominates). Default 0. */
  track?: number;
  /** Sequence time at which the job is enqueued (≥ the sequencer's current time). Default: the current time. */
  at?: number;
  /** Delay after the base time (Nebula3 `startTime`), ≥ 0. Default 0. */
  start?: number;
  /** Play count ≥ 0 (any real number); duration = clip duration × loops; 0 = infinite. Default 1. */
  loops?: number;
  /** Seconds ≥ 0, overrides `loops`; 0 = infinite. Required for a clip of zero duration. */
  duration?: number;
  /** Seconds ≥ 0. Default 0. */
  fadeIn?: number;
  /** Seconds ≥ 0. Default 0. */
  fadeOut?: number;
  /** Blend weight in [0, 3.4028234663852886e38] (the largest float32; not clamped: above 1 extrapolates). Default 1. */
  weight?: number;
  /** Playback speed, any finite number (0 freezes, negative plays backwards). Default 1. */
  timeFactor?: number;
  /** Seconds added to the clip time, any finite number. Default 0. */
  timeOffset?: number;
  /** Default `intercept`. */
  enqueue?: EnqueueMode;
  /** Default `normal`. */
  mode?: BlendMode;
  /** `additive` only: the clip time of the reference pose the delta is taken against. Default 0. */
  reference?: number;
  /** A per-curve mask (`Float32Array` of the pose layout's curve count, values in [0, 1]) or the name of one of the sequencer's masks. */
  mask?: string | Float32Array;
}

/** The keys of `AnimJobInit`, for refusing unknown ones. */
export const JOB_KEYS: readonly (keyof AnimJobInit)[] = [
  'clip', 'track', 'at', 'start', 'loops', 'duration', 'fadeIn', 'fadeOut', 'weight', 'timeFactor', 'timeOffset', 'enqueue', 'mode', 'reference', 'mask',
];

/** What a resolved job holds (validated; fades fixed). */
export interface JobSettings {
  /** The clip as named in the resource. */
  readonly clip: AnimClip;
  /** `AnimJobInit.clip` as given (before name mapping). */
  readonly requested: string | number;
  readonly track: number;
  readonly at: number;
  readonly start: number;
  readonly weight: number;
  readonly timeFactor: number;
  readonly timeOffset: number;
  readonly enqueue: EnqueueMode;
  readonly mode: BlendMode;
  readonly reference: number;
  readonly mask: Float32Array | null;
  /** The mask's name when it was given by name. */
  readonly maskName: string | null;
  /** Loops ≠ 1 or an explicit duration: the job wraps clip time itself (spec §1). */
  readonly looping: boolean;
  readonly infinite: boolean;
  /** Seconds (meaningless while `infinite`). */
  readonly duration: number;
  readonly fadeIn: number;
  readonly fadeOut: number;
}

/**
 * A job on the sequencer's timeline (Nebula3 `AnimJob` state): its base time is set when it is
 * inserted, its duration shortened when it is stopped. All rules are spec sequencer.md §1–§2.
 */
export class ScheduledJob {
  readonly id: number;
  readonly settings: JobSettings;
  base = Number.NaN;
  infinite: boolean;
  duration: number;

  constructor(id: number, settings: JobSettings) {
    this.id = id;
    this.settings = settings;
    this.infinite = settings.infinite;
    this.duration = settings.duration;
  }

  /** An independent copy (for dry runs of the schedule). */
  clone(): ScheduledJob {
    const copy = new ScheduledJob(this.id, this.settings);
    copy.base = this.base;
    copy.infinite = this.infinite;
    copy.duration = this.duration;
    return copy;
  }

  get absStart(): number {
    return this.base + this.settings.start;
  }

  /** `Infinity` for an infinite job. */
  get absEnd(): number {
    return this.infinite ? Infinity : this.absStart + this.duration;
  }

  /** Exists (at ≤ t) and absStart ≤ t < absEnd. */
  isActive(t: number): boolean {
    return this.settings.at <= t && this.absStart <= t && t < this.absEnd;
  }

  isExpired(t: number): boolean {
    return t >= this.absEnd;
  }

  /** In or after its fade-out phase (`AnimJob::IsStoppingOrExpired`). */
  isStoppingOrExpired(t: number): boolean {
    return !this.infinite && t >= this.absEnd - this.settings.fadeOut;
  }

  /** `AnimJob::Stop`: fade out from t on, unless already stopping. */
  stop(t: number): void {
    if (this.isStoppingOrExpired(t)) return;
    this.duration = t - this.base + this.settings.fadeOut - this.settings.start;
    this.infinite = false;
  }

  /** `AnimJob::ComputeBlendWeight` at sequence time t (the job active at t). */
  blendWeight(t: number): number {
    const { weight, fadeIn, fadeOut } = this.settings;
    const r = t - this.absStart;
    const fadeOutStart = this.duration - fadeOut;
    // The fade factors round: at r = duration, (r − (duration − fadeOut)) / fadeOut may exceed 1 by
    // an ulp (0.405 + 2.5 s with a fadeOut of 0.184), so they are clamped to stay ≥ 0.
    if (!this.infinite && fadeOut > 0 && r > fadeOutStart) return weight * Math.max(0, 1 - (r - fadeOutStart) / fadeOut);
    if (fadeIn > 0 && r < fadeIn) return Math.max(0, (weight * r) / fadeIn);
    return weight;
  }

  /** Clip time before any wrapping: r × timeFactor + timeOffset. */
  unwrappedClipTime(t: number): number {
    const c = (t - this.absStart) * this.settings.timeFactor + this.settings.timeOffset;
    // A product beyond float64 (a time factor of 1e300) is the largest time, not ±Infinity, which wraps to NaN.
    return Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, c));
  }

  /** Clip time at sequence time t: a looping job wraps it into [0, clip duration) floor-based (spec §1). */
  clipTime(t: number): number {
    const c = this.unwrappedClipTime(t);
    if (!this.settings.looping) return c;
    const d = this.settings.clip.duration;
    if (d === 0) return 0;
    const wrapped = c - Math.floor(c / d) * d;
    // Rounding can land exactly on d (or a hair below 0); both mean the loop's start.
    return wrapped >= d || wrapped < 0 ? 0 : wrapped;
  }
}
