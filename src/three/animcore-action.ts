import { AdditiveAnimationBlendMode, type AnimationActionLoopStyles, type AnimationBlendMode, LoopOnce, LoopPingPong, LoopRepeat, NormalAnimationBlendMode } from 'three';
import type { AnimClip } from 'animcore';

/** What an action reports to its mixer for one frame: its clip time and effective weight. */
export interface ActionFrame {
  clipTime: number;
  weight: number;
}

/** The mixer side an action needs (`AnimcoreMixer` implements it; exported for its type only). */
export interface ActionHost {
  /** Mixer time, seconds. */
  readonly time: number;
  /** Adds the action to the active ones (three.js's order: appended). */
  activate(action: AnimcoreAction): void;
  /** Removes it (the last active action takes its place). */
  deactivate(action: AnimcoreAction): void;
  /** Whether it is active. */
  isActive(action: AnimcoreAction): boolean;
  /** Sends an action's event from the mixer. */
  dispatch(event: { type: 'loop'; action: AnimcoreAction; loopDelta: number } | { type: 'finished'; action: AnimcoreAction; direction: number }): void;
}

/**
 * A ramp between two mixer times: three.js keeps each fade and warp as a two-key linear
 * interpolant over `Float32Array`s, so times, values and the result are float32 here too (the
 * effective weights then agree exactly).
 */
interface Ramp {
  t0: number;
  t1: number;
  v0: number;
  v1: number;
}

const f32 = Math.fround;

function ramp(t0: number, t1: number, v0: number, v1: number): Ramp {
  return { t0: f32(t0), t1: f32(t1), v0: f32(v0), v1: f32(v1) };
}

function rampAt(r: Ramp, t: number): number {
  if (t < r.t0) return r.v0;
  if (t >= r.t1) return r.v1;
  const w1 = (t - r.t0) / (r.t1 - r.t0);
  return f32(r.v0 * (1 - w1) + r.v1 * w1);
}

/**
 * One clip's playback in an `AnimcoreMixer`: the common part of three.js's `AnimationAction`
 * (r187), with its state machine — scheduling, fades, warps, loop modes, clamping and the
 * `loop` / `finished` events — reproduced so that a scripted scene plays alike. Weights and time
 * scales are three.js's (`weight`, `timeScale`, effective values after fades and warps). An
 * action with `blendMode = AdditiveAnimationBlendMode` plays its clip as
 * `AnimationUtils.makeClipAdditive(clip)` makes it: the delta against the clip at time 0.
 */
export class AnimcoreAction {
  readonly clip: AnimClip;
  blendMode: AnimationBlendMode = NormalAnimationBlendMode;
  loop: AnimationActionLoopStyles = LoopRepeat;
  repetitions = Infinity;
  /** Seconds into the clip (before ping-pong reflection). */
  time = 0;
  timeScale = 1;
  weight = 1;
  enabled = true;
  paused = false;
  clampWhenFinished = false;
  private loopCount = -1;
  private startTime: number | null = null;
  private effectiveWeight = 1;
  private effectiveTimeScale = 1;
  private fade: Ramp | null = null;
  private warpRamp: Ramp | null = null;
  private restoreTimeScale: number | null = null;
  private readonly host: ActionHost;

  /** @internal created by `AnimcoreMixer.clipAction` */
  constructor(host: ActionHost, clip: AnimClip) {
    this.host = host;
    this.clip = clip;
  }

  /** Starts (or resumes) the action in its mixer. */
  play(): this {
    this.host.activate(this);
    return this;
  }

  /** Takes the action out of its mixer and `reset`s it. */
  stop(): this {
    this.host.deactivate(this);
    return this.reset();
  }

  /** Back to the start: enabled, not paused, time 0, loops forgotten, no scheduled start, fade or warp. */
  reset(): this {
    this.paused = false;
    this.enabled = true;
    this.time = 0;
    this.loopCount = -1;
    this.startTime = null;
    return this.stopFading().stopWarping();
  }

  /** Enabled, not paused, a non-zero time scale, started and in the mixer. */
  isRunning(): boolean {
    return this.enabled && !this.paused && this.timeScale !== 0 && this.startTime === null && this.host.isActive(this);
  }

  /** Whether the action is in its mixer (played and not stopped). */
  isScheduled(): boolean {
    return this.host.isActive(this);
  }

  /** Starts at mixer time `time` (seconds). */
  startAt(time: number): this {
    this.startTime = time;
    return this;
  }

  /** `LoopOnce`, `LoopRepeat` or `LoopPingPong`, and how many times (`Infinity` for ever). */
  setLoop(mode: AnimationActionLoopStyles, repetitions: number): this {
    this.loop = mode;
    this.repetitions = repetitions;
    return this;
  }

  /** Sets `weight` (≥ 0; above 1 extrapolates) and stops a fade. */
  setEffectiveWeight(weight: number): this {
    this.weight = weight;
    this.effectiveWeight = this.enabled ? weight : 0;
    return this.stopFading();
  }

  /** The weight of the last update: `weight` × the fade, 0 when disabled. */
  getEffectiveWeight(): number {
    return this.effectiveWeight;
  }

  /** Ramps the weight factor from 0 to 1 over `duration` seconds of mixer time. */
  fadeIn(duration: number): this {
    return this.scheduleFading(duration, 0, 1);
  }

  /** Ramps the weight factor from 1 to 0 over `duration` seconds; the action is disabled at the end. */
  fadeOut(duration: number): this {
    return this.scheduleFading(duration, 1, 0);
  }

  /** Fades `fadeOutAction` out and this action in over `duration` s; `warp` also ramps their time scales to meet. */
  crossFadeFrom(fadeOutAction: AnimcoreAction, duration: number, warp = false): this {
    fadeOutAction.fadeOut(duration);
    this.fadeIn(duration);
    if (warp) {
      const inDuration = this.clip.duration;
      const outDuration = fadeOutAction.clip.duration;
      fadeOutAction.restoreTimeScale = fadeOutAction.timeScale;
      this.restoreTimeScale = this.timeScale;
      fadeOutAction.warp(1, outDuration / inDuration, duration);
      this.warp(inDuration / outDuration, 1, duration);
    }
    return this;
  }

  /** `fadeInAction.crossFadeFrom(this, duration, warp)`. */
  crossFadeTo(fadeInAction: AnimcoreAction, duration: number, warp = false): this {
    fadeInAction.crossFadeFrom(this, duration, warp);
    return this;
  }

  /** Drops a scheduled fade. */
  stopFading(): this {
    this.fade = null;
    return this;
  }

  /** Sets `timeScale` (any finite number; negative plays backwards) and stops a warp. */
  setEffectiveTimeScale(timeScale: number): this {
    this.timeScale = timeScale;
    this.effectiveTimeScale = this.paused ? 0 : timeScale;
    return this.stopWarping();
  }

  /** The time scale of the last update: `timeScale` × the warp, 0 when paused. */
  getEffectiveTimeScale(): number {
    return this.effectiveTimeScale;
  }

  /** Plays the clip once in `duration` seconds. */
  setDuration(duration: number): this {
    this.timeScale = this.clip.duration / duration;
    return this.stopWarping();
  }

  /** Takes `action`'s time and time scale. */
  syncWith(action: AnimcoreAction): this {
    this.time = action.time;
    this.timeScale = action.timeScale;
    return this.stopWarping();
  }

  /** Slows to a halt over `duration` seconds. */
  halt(duration: number): this {
    return this.warp(this.effectiveTimeScale, 0, duration);
  }

  /** Ramps the time scale from `startTimeScale` to `endTimeScale` over `duration` seconds. */
  warp(startTimeScale: number, endTimeScale: number, duration: number): this {
    const now = this.host.time;
    this.warpRamp = ramp(now, now + duration, startTimeScale / this.timeScale, endTimeScale / this.timeScale);
    return this;
  }

  /** Drops a scheduled warp. */
  stopWarping(): this {
    this.warpRamp = null;
    this.restoreTimeScale = null;
    return this;
  }

  /** The clip the action plays. */
  getClip(): AnimClip {
    return this.clip;
  }

  /** Whether `blendMode` is `AdditiveAnimationBlendMode`. */
  get additive(): boolean {
    return this.blendMode === AdditiveAnimationBlendMode;
  }

  private scheduleFading(duration: number, from: number, to: number): this {
    const now = this.host.time;
    this.fade = ramp(now, now + duration, from, to);
    return this;
  }

  /**
   * @internal one mixer step: advances the action to mixer time `time` (`deltaTime` seconds later,
   * `direction` its sign) and returns the clip time and effective weight to blend.
   */
  advance(time: number, deltaTime: number, direction: number): ActionFrame {
    if (!this.enabled) return { clipTime: this.time, weight: this.updateWeight(time) };
    let dt = deltaTime;
    if (this.startTime !== null) {
      const running = (time - this.startTime) * direction;
      if (running < 0 || direction === 0) dt = 0;
      else {
        this.startTime = null;
        dt = direction * running;
      }
    }
    dt *= this.updateTimeScale(time);
    const clipTime = this.updateTime(dt);
    return { clipTime, weight: this.updateWeight(time) };
  }

  private updateWeight(time: number): number {
    let weight = 0;
    if (this.enabled) {
      weight = this.weight;
      const fade = this.fade;
      if (fade !== null) {
        const value = rampAt(fade, time);
        weight *= value;
        if (time > fade.t1) {
          this.stopFading();
          if (value === 0) this.enabled = false; // faded out
        }
      }
    }
    this.effectiveWeight = weight;
    return weight;
  }

  private updateTimeScale(time: number): number {
    let timeScale = 0;
    if (!this.paused) {
      timeScale = this.timeScale;
      const warp = this.warpRamp;
      if (warp !== null) {
        timeScale *= rampAt(warp, time);
        if (time > warp.t1) {
          if (timeScale === 0) this.paused = true; // halted
          else {
            if (this.restoreTimeScale !== null) timeScale = this.restoreTimeScale;
            this.timeScale = timeScale;
          }
          this.stopWarping();
        }
      }
    }
    this.effectiveTimeScale = timeScale;
    return timeScale;
  }

  /** Advances `time` by dt under the loop mode; returns the clip time to sample (reflected on ping-pong's way back). */
  private updateTime(dt: number): number {
    const duration = this.clip.duration;
    const pingPong = this.loop === LoopPingPong;
    let time = this.time + dt;
    let loopCount = this.loopCount;
    if (dt === 0) return loopCount !== -1 && pingPong && (loopCount & 1) === 1 ? duration - time : time;
    if (this.loop === LoopOnce) {
      if (loopCount === -1) this.loopCount = 0;
      if (time >= 0 && time < duration) {
        this.time = time;
        return time;
      }
      time = time >= duration ? duration : 0;
      this.finish(time, dt < 0 ? -1 : 1);
      return time;
    }
    // LoopRepeat and LoopPingPong. Started backwards, the first pass through 0 counts as a repetition.
    if (loopCount === -1 && dt >= 0) loopCount = 0;
    if (time >= duration || time < 0) {
      const loopDelta = Math.floor(time / duration);
      time -= duration * loopDelta;
      loopCount += Math.abs(loopDelta);
      if (this.repetitions - loopCount <= 0) {
        time = dt > 0 ? duration : 0;
        this.finish(time, dt > 0 ? 1 : -1);
      } else {
        this.loopCount = loopCount;
        this.time = time;
        this.host.dispatch({ type: 'loop', action: this, loopDelta });
      }
    } else {
      this.loopCount = loopCount;
      this.time = time;
    }
    return pingPong && (loopCount & 1) === 1 ? duration - time : time;
  }

  private finish(time: number, direction: number): void {
    if (this.clampWhenFinished) this.paused = true;
    else this.enabled = false;
    this.time = time;
    this.host.dispatch({ type: 'finished', action: this, direction });
  }
}
