import type { Bone, Skeleton as ThreeSkeleton } from 'three';
import type { AnimClip, AnimCore, RotationMode, SampleManyJob, Skeleton } from 'animcore';
import { boneName } from './bone-name.js';
import { bonesByJoint, poseBones } from './pose-bones.js';

/** Options of `new SkeletonPlayer(core, options)`. */
export interface SkeletonPlayerOptions {
  /** The clip to play (its resource loaded in the core). */
  clip: AnimClip;
  /** A second clip of the same layout, mixed in with `update`'s weight. */
  mixWith?: AnimClip;
  /** The joint hierarchy the clip drives. */
  skeleton: Skeleton;
  /** The three.js skeleton to drive; bones are matched to joints by `boneName` (e.g. `toThreeSkeleton`). */
  target: ThreeSkeleton;
  /** Default `slerp`, which is what three.js's mixer does; `nlerp` is faster. */
  rotation?: RotationMode;
}

/**
 * Drives one `THREE.Skeleton` from the core: each `update(time)` is one `SampleManyJob` call
 * (sample, optional mix, local-to-model in wasm), then every bone matched by name gets its
 * `matrixWorld` = the root's parent's world matrix · the joint's model-space matrix. Bones are set
 * to `matrixAutoUpdate = matrixWorldAutoUpdate = false` and flagged `matrixWorldNeedsUpdate`, so
 * objects attached to bones follow on the next `updateMatrixWorld`, and three.js's own
 * `skeleton.update()` (run by the renderer for a `SkinnedMesh`) turns them into skinning matrices.
 * Bones' `position`/`quaternion`/`scale` are not written. Joints without a bone are skipped.
 * `dispose()` frees the job.
 */
export class SkeletonPlayer {
  readonly job: SampleManyJob;
  /** Per joint, its bone in `target`, or undefined. */
  private readonly bones: (Bone | undefined)[];
  private readonly times = new Float64Array(1);
  private readonly weights = new Float32Array(1);

  /** @throws UsageError as `SampleManyJob` */
  constructor(core: AnimCore, options: SkeletonPlayerOptions) {
    this.job = core.createSampleMany({
      clip: options.clip,
      mixWith: options.mixWith,
      instances: 1,
      output: 'model',
      skeleton: options.skeleton,
      rotation: options.rotation ?? 'slerp',
      mixRotation: options.rotation === 'nlerp' ? 'nlerp' : 'slerp',
    });
    this.bones = bonesByJoint(options.skeleton.joints.map((j) => boneName(j.name)), options.target.bones);
  }

  /**
   * Poses the bones at `time` seconds (`weight`: the mixed clip's share, with `mixWith`).
   * @throws UsageError for a non-finite time or weight, or after `dispose()`
   */
  update(time: number, weight = 0): void {
    this.times[0] = time;
    this.weights[0] = weight;
    this.job.run(this.times, this.weights);
    poseBones(this.bones, this.job.matrices);
  }

  /** Frees the job's wasm memory; the bones keep their last pose. */
  dispose(): void {
    this.job.dispose();
  }
}
