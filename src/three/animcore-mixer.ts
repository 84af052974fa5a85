import { type Bone, EventDispatcher, type Skeleton as ThreeSkeleton } from 'three';
import {
  type AnimClip,
  type AnimCore,
  type AnimResource,
  type AnimSampleBuffer,
  BlendJob,
  type BlendJobLayer,
  LocalToModelJob,
  PoseLayout,
  UsageError,
} from 'animcore';
import { AnimcoreAction, type ActionHost } from './animcore-action.js';
import { boneName } from './bone-name.js';
import { bonesByJoint, poseBones } from './pose-bones.js';

/** Options of `new AnimcoreMixer(core, options)`. */
export interface AnimcoreMixerOptions {
  /** The character: its clips (loaded into the core by the mixer) and its skeleton. */
  resource: AnimResource;
  /** The bones to drive, matched to the resource's joints by `boneName` (e.g. `toThreeSkeleton`). */
  target: ThreeSkeleton;
}

/** three.js samples quaternion tracks by slerp. */
const SLERP = { rotation: 'slerp' } as const;

interface ActionBuffers {
  samples: AnimSampleBuffer;
  /** The clip at time 0: what an additive action's delta is taken against. */
  reference: AnimSampleBuffer;
}

/** The events `AnimcoreMixer` dispatches, as three.js's mixer: a loop completed, an action finished (`direction` ±1). */
export interface AnimcoreMixerEventMap {
  loop: { action: AnimcoreAction; loopDelta: number };
  finished: { action: AnimcoreAction; direction: number };
}

/**
 * A drop-in for the common part of three.js's `AnimationMixer` over one skeleton:
 * `clipAction(clip)` gives an `AnimcoreAction` (play, stop, reset, fadeIn, fadeOut, crossFadeTo
 * with warp, setEffectiveWeight, setEffectiveTimeScale, setLoop, clampWhenFinished, blendMode),
 * `'loop'` and `'finished'` events are dispatched on the mixer, and `update(dt)` advances every
 * action as three.js does and, in one call into wasm, samples each playing clip, blends them with
 * the blend kernel under three.js's rule (spec sequencer.md §3 `weighted`: slerp, τ = 1, the rest
 * pose filling what the weights leave; additive actions as `AnimationUtils.makeClipAdditive`
 * makes them, against the clip at time 0) and composes the model-space pose; then it sets each
 * bone's `matrixWorld` from that pose (as `SkeletonPlayer` does; `position`/`quaternion`/`scale`
 * are not written). Actions blend in three.js's order (the order they were last started in).
 * `dispose()` frees the wasm memory.
 */
export class AnimcoreMixer extends EventDispatcher<AnimcoreMixerEventMap> implements ActionHost {
  /** Mixer time, seconds (scaled by `timeScale`). */
  time = 0;
  timeScale = 1;
  readonly resource: AnimResource;
  readonly layout: PoseLayout;
  private readonly core: AnimCore;
  private readonly actions = new Map<AnimClip, AnimcoreAction>();
  /** Active actions in three.js's order: appended when started, the last moved into a stopped one's place. */
  private active: AnimcoreAction[] = [];
  private readonly buffers = new Map<AnimcoreAction, ActionBuffers>();
  private blendJob: BlendJob;
  private readonly result: AnimSampleBuffer;
  private readonly localToModel: LocalToModelJob;
  private readonly bones: (Bone | undefined)[];
  private readonly releaseClips: () => void;

  /** @throws UsageError when the resource has no skeleton */
  constructor(core: AnimCore, options: AnimcoreMixerOptions) {
    super();
    const skeleton = options.resource.skeleton;
    if (!skeleton) throw new UsageError(`AnimcoreMixer needs a resource with a skeleton; this ${options.resource.format} resource has none`);
    this.core = core;
    this.resource = options.resource;
    this.layout = new PoseLayout(options.resource);
    this.releaseClips = this.layout.load(core, options.resource);
    this.blendJob = new BlendJob(core, this.layout.curveTypes, this.layout.rest, 4);
    this.result = core.createSampleBuffer(this.layout.clip(options.resource.clips[0]!));
    this.localToModel = new LocalToModelJob(core, this.layout.binding());
    this.bones = bonesByJoint(skeleton.joints.map((j) => boneName(j.name)), options.target.bones);
  }

  /** The action of `clip` (a clip of the resource, or its name / index); one per clip. */
  clipAction(clip: AnimClip | string | number): AnimcoreAction {
    const c = typeof clip === 'object' ? clip : this.resource.clip(clip);
    if (!this.resource.clips.includes(c)) throw new UsageError(`clip "${c.name}" is not a clip of the mixer's resource`);
    let action = this.actions.get(c);
    if (!action) {
      action = new AnimcoreAction(this, c);
      this.actions.set(c, action);
    }
    return action;
  }

  /** The action of `clip` if `clipAction` made one. */
  existingAction(clip: AnimClip | string | number): AnimcoreAction | null {
    const c = typeof clip === 'object' ? clip : this.resource.clip(clip);
    return this.actions.get(c) ?? null;
  }

  /** Stops every action. */
  stopAllAction(): this {
    for (const action of [...this.active]) action.stop();
    return this;
  }

  /** Advances the mixer by `deltaTime` seconds (× `timeScale`) and poses the bones. */
  update(deltaTime: number): this {
    if (!Number.isFinite(deltaTime)) throw new UsageError(`deltaTime must be a finite number of seconds, got ${deltaTime}`);
    const dt = deltaTime * this.timeScale;
    const time = (this.time += dt);
    const direction = Math.sign(dt);
    const layers: BlendJobLayer[] = [];
    for (const action of [...this.active]) {
      const { clipTime, weight } = action.advance(time, dt, direction);
      if (!(weight > 0)) continue;
      const b = this.buffersOf(action);
      const sampled = { samples: b.samples, clip: this.layout.clip(action.clip), time: clipTime, sampling: SLERP, weight };
      layers.push(action.additive ? { ...sampled, mode: 'additive', reference: b.reference } : sampled);
    }
    if (layers.length > this.blendJob.maxLayers) {
      this.blendJob.dispose();
      this.blendJob = new BlendJob(this.core, this.layout.curveTypes, this.layout.rest, 2 * layers.length);
    }
    // One call: every clip sampled, blended and composed into model space.
    this.blendJob.run(layers, this.result, { rule: 'weighted', rotation: 'slerp', threshold: 1, model: this.localToModel });
    poseBones(this.bones, this.localToModel.matrices);
    return this;
  }

  /** Sets the mixer time as three.js's `setTime` does: every action back to 0, then one update of `time`. */
  setTime(time: number): this {
    this.time = 0;
    for (const action of this.actions.values()) action.time = 0;
    return this.update(time);
  }

  /** Frees the wasm memory; the bones keep their last pose. */
  dispose(): void {
    for (const b of this.buffers.values()) {
      b.samples.dispose();
      b.reference.dispose();
    }
    this.buffers.clear();
    this.blendJob.dispose();
    this.result.dispose();
    this.localToModel.dispose();
    this.releaseClips();
  }

  /** @internal */
  activate(action: AnimcoreAction): void {
    if (!this.active.includes(action)) this.active.push(action);
  }

  /** @internal */
  deactivate(action: AnimcoreAction): void {
    const i = this.active.indexOf(action);
    if (i < 0) return;
    const last = this.active.pop()!;
    if (last !== action) this.active[i] = last;
  }

  /** @internal */
  isActive(action: AnimcoreAction): boolean {
    return this.active.includes(action);
  }

  /** @internal */
  dispatch(event: Parameters<ActionHost['dispatch']>[0]): void {
    if (event.type === 'loop') this.dispatchEvent({ type: 'loop', action: event.action, loopDelta: event.loopDelta });
    else this.dispatchEvent({ type: 'finished', action: event.action, direction: event.direction });
  }

  private buffersOf(action: AnimcoreAction): ActionBuffers {
    let b = this.buffers.get(action);
    if (!b) {
      const clip = this.layout.clip(action.clip);
      b = { samples: this.core.createSampleBuffer(clip), reference: this.core.createSampleBuffer(clip) };
      this.core.sampler.sample(clip, 0, b.reference, { rotation: 'slerp' });
      this.buffers.set(action, b);
    }
    return b;
  }
}
