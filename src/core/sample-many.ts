import { type AnimClip, bindJoints, type JointBinding, type RotationMode, type Skeleton } from '../anim/index.js';
import { UsageError } from '../errors.js';
import type { AnimCore } from './anim-core.js';
import { clipSampleFlags, MIX_SLERP, SAMPLE_MANY_KIND, SAMPLE_MANY_OUTPUT, SampleManyField, unitySampleFlags } from './kernel-exports.js';
import { LocalToModelJob } from './local-to-model.js';
import { restInverseBindMatrices } from './sample-many-inverse-bind.js';

/** What `SampleManyJob.run` writes besides the samples. */
export type SampleManyOutput = 'samples' | 'model' | 'skinning';

/** Options of `AnimCore.createSampleMany`. */
export interface SampleManyOptions {
  /** The clip every instance plays (loaded in the core). */
  clip: AnimClip;
  /**
   * A second clip mixed in per instance with `weights[i]` as its share (Nebula3 mixing, spec
   * nebula.md §3.5). Same curve count and curve types as `clip`; loaded in the core.
   */
  mixWith?: AnimClip;
  /** Capacity: the most instances one `run` samples (≥ 1). */
  instances: number;
  /**
   * `samples` (default): float4 samples and counts only. `model`: also model-space matrices per
   * joint. `skinning`: also skinning matrices, model · inverse bind. The last two need `skeleton`.
   */
  output?: SampleManyOutput;
  /** The skeleton the clip drives (bound by joint names, `bindJoints`). */
  skeleton?: Skeleton;
  /**
   * For `skinning`: `16 × skeleton.size` floats, column-major, per joint. Default: the inverses of
   * the rest pose's model-space matrices (`restInverseBindMatrices`).
   */
  inverseBindMatrices?: ArrayLike<number>;
  /** Rotation interpolation of the clip samplers (as `AnimSampler.sample`). Default `nlerp`. */
  rotation?: RotationMode;
  /** `linear` (default) or `step`, as `AnimSampler.sample`. */
  sampleType?: 'linear' | 'step';
  /** Velocity scale, as `AnimSampler.sample`. Default 1. */
  timeFactor?: number;
  /** Rotation blend of the mix: `nlerp` (default) or `slerp`. */
  mixRotation?: 'nlerp' | 'slerp';
}

/**
 * Batched playback (after ozz-animation's jobs): samples one clip — or a two-clip mix with a
 * weight per instance — for up to `instances` instances at their own times, and optionally
 * composes model-space or skinning matrices, in one call into WebAssembly per frame. Semantics
 * per instance are exactly `AnimSampler.sample` (+ `AnimMixer.mix`, + `LocalToModelJob.run`, +
 * a multiplication by the inverse bind matrix); each instance keeps its own keyed/Unity cursors.
 *
 * Outputs are views over wasm memory, contiguous per instance, ready for a GPU upload:
 * `samples` `4 × curveCount` floats per instance, `counts` `curveCount` per instance, `matrices`
 * `16 × jointCount` floats per instance (column-major). Views are re-derived on every access; do
 * not keep them across calls that load resources. `dispose()` frees the memory. Twin:
 * `referenceSampleMany`.
 */
export class SampleManyJob {
  readonly clip: AnimClip;
  readonly mixWith: AnimClip | null;
  readonly instances: number;
  readonly curveCount: number;
  /** Joints of the skeleton (0 for `output: 'samples'`). */
  readonly jointCount: number;
  readonly output: SampleManyOutput;
  /** The clip-to-skeleton binding, or null for `output: 'samples'`. */
  readonly binding: JointBinding | null;
  private ptr: number;
  private readonly ltm: LocalToModelJob | null;
  private readonly flags: number;
  private readonly unityFlags: number;
  private readonly mixFlags: number;
  private readonly timeFactor: number;
  private readonly core: AnimCore;

  /**
   * @throws UsageError when a clip is not loaded, the clips' layouts differ, `instances` is not a
   *   positive integer, `skeleton` is missing for matrices, `inverseBindMatrices` is too short,
   *   `timeFactor` is not finite, or `rotation: 'raw'` is asked of a clip that is not Unity-curve
   */
  constructor(core: AnimCore, options: SampleManyOptions) {
    const { clip, mixWith, instances, output = 'samples' } = options;
    this.core = core;
    const loadedA = core.loadedClip(clip);
    const loadedB = mixWith === undefined ? null : core.loadedClip(mixWith);
    if (!Number.isInteger(instances) || instances < 1) throw new UsageError(`instances must be a positive integer, got ${instances}`);
    const types = clip.curves.map((c) => c.curveType);
    if (mixWith !== undefined && (mixWith.curves.length !== types.length || mixWith.curves.some((c, i) => c.curveType !== types[i]))) {
      throw new UsageError(`clips "${clip.name}" and "${mixWith.name}" differ in curve count or types; they cannot be mixed`);
    }
    const timeFactor = options.timeFactor ?? 1;
    if (!Number.isFinite(timeFactor)) throw new UsageError(`timeFactor must be finite, got ${timeFactor}`);
    const raw = options.rotation === 'raw';
    if (raw && [loadedA, loadedB].some((l) => l !== null && l.kind !== 'unity')) {
      throw new UsageError(`rotation 'raw' is only offered for Unity-curve clips (MRTK)`);
    }
    if (output !== 'samples' && options.skeleton === undefined) throw new UsageError(`output '${output}' needs a skeleton`);
    this.clip = clip;
    this.mixWith = mixWith ?? null;
    this.instances = instances;
    this.curveCount = types.length;
    this.output = output;
    this.binding = output === 'samples' ? null : bindJoints(clip.curves, options.skeleton!);
    this.jointCount = this.binding?.skeleton.size ?? 0;
    this.flags = clipSampleFlags(options);
    this.unityFlags = unitySampleFlags(options.rotation);
    this.mixFlags = options.mixRotation === 'slerp' ? MIX_SLERP : 0;
    this.timeFactor = timeFactor;

    const inverseBind =
      output !== 'skinning' ? null : (options.inverseBindMatrices ?? restInverseBindMatrices(core, this.binding!));
    if (inverseBind !== null && inverseBind.length < 16 * this.jointCount) {
      throw new UsageError(`inverseBindMatrices needs ${16 * this.jointCount} floats, has ${inverseBind.length}`);
    }
    const linear: number[] = [];
    const rotation: number[] = [];
    types.forEach((t, i) => (t === 'rotation' ? rotation : linear).push(i));
    const k = core.kernel;
    this.ltm = this.binding === null ? null : new LocalToModelJob(core, this.binding);
    this.ptr = k.sampleManyCreate(instances, types.length, this.jointCount, linear.length, rotation.length);
    const u32 = core.views.u32;
    const field = (f: number) => k.sampleManyField(this.ptr, f) >>> 2;
    const array = (f: number) => u32[field(f)]!;
    u32[field(SampleManyField.ClipA)] = loadedA.ptr;
    u32[field(SampleManyField.KindA)] = SAMPLE_MANY_KIND[loadedA.kind];
    u32[field(SampleManyField.ClipB)] = loadedB?.ptr ?? 0;
    u32[field(SampleManyField.KindB)] = loadedB === null ? 0 : SAMPLE_MANY_KIND[loadedB.kind];
    u32[field(SampleManyField.Job)] = this.ltm?.ptr ?? 0;
    u32.set(linear, array(SampleManyField.Linear) >>> 2);
    u32.set(rotation, array(SampleManyField.Rotation) >>> 2);
    if (inverseBind !== null) core.views.f32.set(Array.from(inverseBind).slice(0, 16 * this.jointCount), array(SampleManyField.InverseBind) >>> 2);
  }

  private arrayAt(field: number): number {
    if (this.ptr === 0) throw new UsageError('this SampleManyJob was disposed');
    return this.core.views.u32[this.core.kernel.sampleManyField(this.ptr, field) >>> 2]!;
  }

  /**
   * Samples instances 0 … `times.length − 1` (at most `instances`) in one call into wasm.
   * @param times seconds per instance for `clip` (finite)
   * @param weights `mixWith`'s share per instance (required with `mixWith`; usually in [0, 1])
   * @param timesB seconds per instance for `mixWith`; default `times`
   * @throws UsageError when arrays are longer than `instances`, shorter than `times`, hold
   *   non-finite numbers, when `weights` is missing with `mixWith`, or after `dispose()`
   */
  run(times: ArrayLike<number>, weights?: ArrayLike<number>, timesB?: ArrayLike<number>): void {
    const n = times.length;
    if (n > this.instances) throw new UsageError(`${n} times for a job of ${this.instances} instances`);
    checkFinite('times', times, n);
    const f64 = this.core.views.f64;
    f64.set(times, this.arrayAt(SampleManyField.Times) >>> 3);
    if (this.mixWith !== null) {
      if (weights === undefined) throw new UsageError('mixing needs a weight per instance');
      const b = timesB ?? times;
      checkFinite('weights', weights, n);
      checkFinite('timesB', b, n);
      const wAt = this.arrayAt(SampleManyField.Weights) >>> 2;
      const bAt = this.arrayAt(SampleManyField.TimesB) >>> 3;
      for (let i = 0; i < n; i++) {
        this.core.views.f32[wAt + i] = weights[i]!;
        f64[bAt + i] = b[i]!;
      }
    }
    this.core.kernel.sampleMany(this.ptr, n, this.flags, this.unityFlags, this.mixFlags, this.timeFactor, SAMPLE_MANY_OUTPUT[this.output]);
  }

  /** @internal byte offset of `samples` in wasm memory */
  get samplesPtr(): number {
    return this.arrayAt(SampleManyField.Samples);
  }

  /** `4 × curveCount × instances` floats: instance i's curve c at `4 (i · curveCount + c)`. */
  get samples(): Float32Array {
    const at = this.arrayAt(SampleManyField.Samples) >>> 2;
    return this.core.views.f32.subarray(at, at + 4 * this.curveCount * this.instances);
  }

  /** `curveCount × instances` sample counts. */
  get counts(): Uint8Array {
    const at = this.arrayAt(SampleManyField.Counts);
    return this.core.views.u8.subarray(at, at + this.curveCount * this.instances);
  }

  /**
   * `16 × jointCount × instances` floats, column-major 4×4 per joint, instance-major: model-space
   * (`output: 'model'`) or skinning matrices (`'skinning'`). Empty for `'samples'`.
   */
  get matrices(): Float32Array {
    const at = this.arrayAt(SampleManyField.Matrices) >>> 2;
    return this.core.views.f32.subarray(at, at + 16 * this.jointCount * this.instances);
  }

  /** The inverse bind matrices in use (`16 × jointCount` floats; empty unless `'skinning'`). */
  get inverseBindMatrices(): Float32Array {
    const at = this.arrayAt(SampleManyField.InverseBind) >>> 2;
    return this.core.views.f32.subarray(at, this.output === 'skinning' ? at + 16 * this.jointCount : at);
  }

  /** Frees the job's wasm memory. Safe to call twice. */
  dispose(): void {
    if (this.ptr === 0) return;
    this.core.kernel.free(this.ptr);
    this.ltm?.dispose();
    this.ptr = 0;
  }
}

/** @throws UsageError unless `values` holds at least `n` finite numbers */
function checkFinite(name: string, values: ArrayLike<number>, n: number): void {
  if (values.length < n) throw new UsageError(`${name} holds ${values.length} numbers, need ${n}`);
  for (let i = 0; i < n; i++) if (!Number.isFinite(values[i])) throw new UsageError(`${name}[${i}] is not finite: ${values[i]}`);
}
