import type { Bone, Skeleton as ThreeSkeleton } from 'three';
import { type AnimCore, type AnimSequencer, LocalToModelJob, UsageError } from 'animcore';
import { boneName } from './bone-name.js';
import { bonesByJoint, poseBones } from './pose-bones.js';

/** Options of `new SequencePlayer(core, options)`. */
export interface SequencePlayerOptions {
  /** The sequencer whose result poses the bones; its resource must have a skeleton. */
  sequencer: AnimSequencer;
  /** The three.js skeleton to drive; bones are matched to joints by `boneName` (e.g. `toThreeSkeleton`). */
  target: ThreeSkeleton;
}

/**
 * Drives one `THREE.Skeleton` from an `AnimSequencer` (layered playback): each `update(time)` is
 * the sequencer's one call into WebAssembly — every active job sampled, blended and composed into
 * model space (`AnimSequencer.update(time, { model })`) — then every bone matched by name gets its
 * `matrixWorld` as `SkeletonPlayer` sets it (the root's parent's world matrix · the joint's
 * model-space matrix; bones' `position`/`quaternion`/`scale` are not written). The sequencer stays
 * the caller's (enqueue, stop, events); `dispose()` frees the player's local-to-model job only.
 */
export class SequencePlayer {
  readonly sequencer: AnimSequencer;
  /** The model-space matrices of the last update (16 floats per skeleton joint). */
  readonly model: LocalToModelJob;
  private readonly bones: (Bone | undefined)[];

  /** @throws UsageError when the sequencer's resource has no skeleton */
  constructor(core: AnimCore, options: SequencePlayerOptions) {
    const skeleton = options.sequencer.resource.skeleton;
    if (!skeleton) throw new UsageError(`SequencePlayer needs a resource with a skeleton; this ${options.sequencer.resource.format} resource has none`);
    this.sequencer = options.sequencer;
    this.model = new LocalToModelJob(core, options.sequencer.layout.binding());
    this.bones = bonesByJoint(skeleton.joints.map((j) => boneName(j.name)), options.target.bones);
  }

  /**
   * Updates the sequencer to `time` (sequence seconds; see `AnimSequencer.update`) and poses the bones.
   * @throws UsageError for a non-finite time, or after `dispose()`
   */
  update(time: number): void {
    this.sequencer.update(time, { model: this.model });
    poseBones(this.bones, this.model.matrices);
  }

  /** Frees the local-to-model job (the sequencer stays the caller's to dispose). Safe to call twice. */
  dispose(): void {
    this.model.dispose();
  }
}
