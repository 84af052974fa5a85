import { DataTexture, FloatType, RGBAFormat } from 'three';
import type { AnimClip, AnimCore, RotationMode, SampleManyJob, Skeleton } from 'animcore';

/** Options of `new InstancedBoneTexture(core, options)`. */
export interface InstancedBoneTextureOptions {
  /** The clip every instance plays (its resource loaded in the core). */
  clip: AnimClip;
  /** A second clip of the same layout, mixed in with `update`'s per-instance weights. */
  mixWith?: AnimClip;
  /** The joint hierarchy the clip drives. */
  skeleton: Skeleton;
  /** Number of instances (≥ 1). */
  instances: number;
  /**
   * `16 × skeleton.size` floats, column-major, e.g. a `THREE.Skeleton`'s `boneInverses` flattened.
   * Default: the inverses of the rest pose (`restInverseBindMatrices`).
   */
  inverseBindMatrices?: ArrayLike<number>;
  /** Default `nlerp` (fast); `slerp` matches three.js's mixer. */
  rotation?: RotationMode;
  /** Widest texture row in pixels (default 4096, within every WebGL2 device's MAX_TEXTURE_SIZE). */
  maxWidth?: number;
}

/**
 * Skinning matrices of many instances in one float `DataTexture` (three.js #22667): each `update`
 * is one `SampleManyJob` call, and the texture's data is the job's output itself (a view over wasm
 * memory, no copy). Layout: one matrix = 4 RGBA texels (its columns); instance i's joint j starts
 * at texel x = 4 · (jointCount · (i mod instancesPerRow) + j), y = floor(i / instancesPerRow).
 * In GLSL: `texelFetch(boneTexture, ivec2(x + c, y), 0)` is column c. Unused slots of the last row
 * hold zeros. `dispose()` frees the job and the texture.
 */
export class InstancedBoneTexture {
  readonly job: SampleManyJob;
  readonly texture: DataTexture;
  readonly instances: number;
  readonly instancesPerRow: number;
  readonly jointCount: number;

  /** @throws UsageError as `SampleManyJob`, or when one instance's matrices exceed `maxWidth` */
  constructor(core: AnimCore, options: InstancedBoneTextureOptions) {
    const joints = options.skeleton.size;
    const maxWidth = options.maxWidth ?? 4096;
    this.jointCount = joints;
    this.instances = options.instances;
    this.instancesPerRow = Math.max(1, Math.min(options.instances, Math.floor(maxWidth / (4 * Math.max(1, joints)))));
    const rows = Math.ceil(options.instances / this.instancesPerRow);
    this.job = core.createSampleMany({
      clip: options.clip,
      mixWith: options.mixWith,
      instances: rows * this.instancesPerRow,
      output: 'skinning',
      skeleton: options.skeleton,
      inverseBindMatrices: options.inverseBindMatrices,
      rotation: options.rotation,
    });
    this.texture = new DataTexture(this.job.matrices, 4 * joints * this.instancesPerRow, rows, RGBAFormat, FloatType);
    this.texture.needsUpdate = true;
  }

  /**
   * Samples every instance: `times[i]` seconds (and `weights[i]`, the mixed clip's share) and
   * marks the texture for upload.
   * @throws UsageError as `SampleManyJob.run`
   */
  update(times: ArrayLike<number>, weights?: ArrayLike<number>): void {
    this.job.run(times, weights);
    this.texture.image.data = this.job.matrices; // re-derived: memory may have grown since
    this.texture.needsUpdate = true;
  }

  /** Frees the job's wasm memory and the texture's GPU copy. */
  dispose(): void {
    this.job.dispose();
    this.texture.dispose();
  }
}
