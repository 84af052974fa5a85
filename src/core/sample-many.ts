import { type AnimClip, AnimResource, bindJoints, type SampleOptions, type BlendMode, type BlendOptions, type JointBinding, restValue, type RotationMode, type Skeleton } from '../anim/index.js';
import { checkWeights } from '../anim/blend-options.js';
import { UsageError } from '../errors.js';
import {
  CURSOR_BYTES_PER_CURVE,
  FLAG_SLERP,
  OUTPUT_MODEL,
  OUTPUT_SAMPLES,
  OUTPUT_SKINNING,
  CLIP_HEADER_SIZE,
  CLIP_KEYS,
  CLIP_QUANT_SLICES,
  KIND_QUANTIZED,
  SM_CLIP_A,
  SM_CLIP_B,
  SM_COUNTS,
  SM_COUNTS_B,
  SM_CURSORS,
  SM_CURSORS_B,
  SM_CURVE_COUNT,
  SM_HEADER_SIZE,
  SM_INVERSE_BIND,
  SM_INVERSE_BIND_SPLAT,
  SM_SKINNING_SCRATCH,
  SM_JOB,
  SM_JOINT_COUNT,
  SM_KIND_A,
  SM_KIND_B,
  SM_MATRICES,
  SM_MIX_CURVES,
  SM_MIX_LINEAR_COUNT,
  SM_MODEL,
  SM_SAMPLES,
  SM_SAMPLES_B,
  SM_TIMES,
  SM_TIMES_B,
  SM_WEIGHTS,
  SM_BLEND,
  SM_LAYER_COUNT,
  SM_CLIPS,
  SM_CLIP_BLOCK,
  SM_CLIP_FLAGS,
  SM_CLIP_HEADER,
  SM_CLIP_KIND,
  SM_CLIP_SIZE,
} from '../../assembly/layout.js';
import { additiveDeltaClip } from './additive-deltas.js';
import { BlendJob, BlendMask } from './blend-job.js';
import { AnimSampleBuffer } from './sample-buffer.js';
import { AnimSampler } from './sampler.js';
import { rotationsLast } from './clip-layout.js';
import { LocalToModelJob } from './local-to-model.js';
import { align16 } from './kernel-memory.js';
import type { KernelRuntime, RuntimeOwner, SamplingPlan } from './runtime.js';
import { restInverseBindMatrices } from './sample-many-inverse-bind.js';

const OUTPUT_KINDS = { samples: OUTPUT_SAMPLES, model: OUTPUT_MODEL, skinning: OUTPUT_SKINNING } as const;

/** What `SampleManyJob.run` writes besides the samples. */
export type SampleManyOutput = 'samples' | 'model' | 'skinning';

/** One layer of a layered `SampleManyJob` (spec sequencer.md §3–§5): its clip, mask and mode. */
export interface SampleManyLayer {
  /** Loaded in the core; the curve count and types of `SampleManyOptions.clip`. */
  clip: AnimClip;
  /** Per-curve weights in [0, 1]. */
  mask?: Float32Array | null;
  /** Default `normal`. */
  mode?: BlendMode;
  /** `additive`: the clip time of the reference pose. Default 0. */
  reference?: number;
}

/** Options of `AnimCore.createSampleMany`. */
export interface SampleManyOptions {
  /** The clip every instance plays (loaded in the core), unless `clips` gives an instance its own. */
  clip: AnimClip;
  /**
   * A crowd on distinct clips: instance i plays `clips[i]` instead of `clip` (at most `instances`
   * clips; instances beyond them play `clip`), each sampled with its own `rotation` unless the
   * options give one. Every clip is loaded in the core and has `clip`'s curve count and types (a
   * crowd of one rig); any key encoding. `setClip` changes an instance's clip later. Not with
   * `layers`. Per instance the same as `sampler.sample(clips[i], times[i], …)`, in one call.
   */
  clips?: readonly AnimClip[];
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
  /**
   * Up to 8 layers blended per instance instead of `clip` (and `mixWith`): each at its own time
   * and weight per instance (`run(times, weights)` with `layers.length` values per instance), by
   * the blend kernel's rules (`blend`). `clip` then only gives the curve layout the layers share.
   */
  layers?: readonly SampleManyLayer[];
  /** The rule, rotation blend and τ of `layers` (`BlendJob`). Default priority, nlerp, τ = 1. */
  blend?: BlendOptions;
  /**
   * `layers`: `4 × curveCount` rest values for curves no layer defines. Default: the skeleton's
   * rest pose for the curves bound to it, else each curve's rest value in `clip`.
   */
  rest?: ArrayLike<number>;
}

/** The most layers a `SampleManyJob` blends. */
export const SAMPLE_MANY_MAX_LAYERS = 8;

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
 * not keep them across calls that load resources. With `output: 'skinning'` of a keyed clip whose
 * curves share one set of key times (glTF's usual animation) under slerp, the SIMD build skins
 * straight from the keys and writes `samples` and `counts` only when they are read after `run`
 * (the getters sample them then), so read them through the getters, not through a view kept
 * across `run`. `dispose()` frees the memory. Twin:
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
  private readonly mixFlags: number;
  private readonly timeFactor: number;
  private readonly runtime: KernelRuntime;
  /** Layers per instance (0: `clip`, mixed with `mixWith`). */
  readonly layerCount: number;
  /** Wasm objects of the layers, freed with the job. */
  private readonly owned: { dispose(): void }[] = [];
  /** How each instance's own clip is sampled (`SampleOptions` of the job). */
  private readonly sampling: SampleOptions;
  /** Per instance its own clip (`clips`, `setClip`), null while every instance plays `clip`. */
  private instanceClips: (AnimClip | null)[] | null = null;
  /** The SM_CLIP_* records of `instanceClips` (a block of their own), 0 without. */
  private clipTable = 0;
  /** The block of quantized clips' table copies (`writeClipRecords`), 0 without. */
  private tableBlock = 0;
  /** The address of each quantized clip's table copy, by its block. */
  private readonly tables = new Map<number, number>();
  /** Layer clips and the blocks the blend records name. */
  private readonly layerBlocks: { clip: AnimClip; ptr: number }[] = [];
  /** `runtime.releases` when the clips' blocks were last checked. */
  private checkedReleases: number;
  /**
   * Instances of the last `run` whose samples and counts the kernel did not write (0: all
   * written): skinning from a keyed clip's keys takes no sample buffer (assembly/sample-many.ts),
   * so `samples` and `counts` sample them when first read.
   */
  private unsampled = 0;

  /**
   * @throws UsageError when a clip is not loaded, the clips' layouts differ, `instances` is not a
   *   positive integer, `skeleton` is missing for matrices, `inverseBindMatrices` is too short,
   *   `timeFactor` is not finite, `rotation: 'raw'` is asked of a clip that is not Unity-curve, or
   *   `clips` is longer than `instances`, given with `layers`, or holds a clip as `setClip` refuses
   */
  constructor(core: RuntimeOwner, options: SampleManyOptions) {
    const { clip, mixWith, instances, output = 'samples' } = options;
    const runtime = core.runtime;
    this.runtime = runtime;
    this.checkedReleases = runtime.releases;
    this.sampling = { rotation: options.rotation, sampleType: options.sampleType, timeFactor: options.timeFactor };
    const a = runtime.plan(clip, options);
    const b = mixWith === undefined ? null : runtime.plan(mixWith, options);
    if (!Number.isInteger(instances) || instances < 1) throw new UsageError(`instances must be a positive integer, got ${instances}`);
    const types = clip.curves.map((c) => c.curveType);
    if (mixWith !== undefined && (mixWith.curves.length !== types.length || mixWith.curves.some((c, i) => c.curveType !== types[i]))) {
      throw new UsageError(`clips "${clip.name}" and "${mixWith.name}" differ in curve count or types; they cannot be mixed`);
    }
    if (output !== 'samples' && options.skeleton === undefined) throw new UsageError(`output '${output}' needs a skeleton`);
    this.clip = clip;
    this.mixWith = mixWith ?? null;
    this.instances = instances;
    this.curveCount = types.length;
    this.output = output;
    this.binding = output === 'samples' ? null : bindJoints(clip.curves, options.skeleton!);
    this.jointCount = this.binding?.skeleton.size ?? 0;
    this.flags = a.flags;
    this.mixFlags = options.mixRotation === 'slerp' ? FLAG_SLERP : 0;
    this.timeFactor = a.timeFactor;

    const inverseBind = output !== 'skinning' ? null : (options.inverseBindMatrices ?? restInverseBindMatrices(core, this.binding!));
    if (inverseBind !== null && inverseBind.length < 16 * this.jointCount) {
      throw new UsageError(`inverseBindMatrices needs ${16 * this.jointCount} floats, has ${inverseBind.length}`);
    }
    const mix = rotationsLast(types);
    this.ltm = this.binding === null ? null : new LocalToModelJob(core, this.binding);
    const layers = options.layers ?? [];
    if (layers.length > SAMPLE_MANY_MAX_LAYERS) throw new UsageError(`${layers.length} layers; a SampleManyJob blends at most ${SAMPLE_MANY_MAX_LAYERS}`);
    if (layers.length > 0 && mixWith !== undefined) throw new UsageError('give mixWith or layers, not both');
    layers.forEach((layer, l) => {
      if (layer.clip.curves.length !== types.length || layer.clip.curves.some((c, i) => c.curveType !== types[i])) {
        throw new UsageError(`layer ${l}: clip "${layer.clip.name}" differs from "${clip.name}" in curve count or types`);
      }
      this.layerBlocks.push({ clip: layer.clip, ptr: runtime.plan(layer.clip, options).loaded.ptr });
    });
    this.layerCount = layers.length;
    const n = instances;
    const c = types.length;
    const j = this.jointCount;
    const lanes = Math.max(1, layers.length);
    const cursorBytes = CURSOR_BYTES_PER_CURVE * c;
    // Arrays in the order of their fields.
    const fields = [
      [SM_SAMPLES, n * c * 16],
      [SM_COUNTS, n * c],
      [SM_CURSORS, n * lanes * cursorBytes],
      [SM_SAMPLES_B, c * 16],
      [SM_COUNTS_B, c],
      [SM_CURSORS_B, n * cursorBytes],
      [SM_TIMES, n * 8 * lanes],
      [SM_TIMES_B, n * 8],
      [SM_WEIGHTS, n * 4 * lanes],
      [SM_MIX_CURVES, c * 4],
      [SM_INVERSE_BIND, j * 64],
      [SM_MATRICES, n * j * 64],
      [SM_MODEL, j * 64],
      [SM_INVERSE_BIND_SPLAT, this.output === 'skinning' ? j * SM_SKINNING_SCRATCH : 0],
    ] as const;
    const block = runtime.allocBlock(SM_HEADER_SIZE, fields.map(([, size]) => size));
    this.ptr = block.ptr;
    const u32 = runtime.u32;
    const at = (field: number) => (this.ptr + field) >>> 2;
    fields.forEach(([field], i) => (u32[at(field)] = block.arrays[i]!));
    u32[at(SM_CLIP_A)] = a.loaded.ptr;
    u32[at(SM_KIND_A)] = a.loaded.kind;
    u32[at(SM_CLIP_B)] = b?.loaded.ptr ?? 0;
    u32[at(SM_KIND_B)] = b?.loaded.kind ?? 0;
    u32[at(SM_CURVE_COUNT)] = c;
    u32[at(SM_JOINT_COUNT)] = j;
    u32[at(SM_MIX_LINEAR_COUNT)] = mix.linearCount;
    u32[at(SM_JOB)] = this.ltm?.ptr ?? 0;
    u32.set(mix.order, this.arrayAt(SM_MIX_CURVES) >>> 2);
    if (inverseBind !== null) runtime.f32.set(Array.from(inverseBind).slice(0, 16 * j), this.arrayAt(SM_INVERSE_BIND) >>> 2);
    if (layers.length > 0) this.setUpLayers(core, options, layers);
    if (options.clips !== undefined) {
      if (layers.length > 0) throw this.disposedWith(new UsageError('give clips or layers, not both'));
      if (options.clips.length > instances) throw this.disposedWith(new UsageError(`${options.clips.length} clips for a job of ${instances} instances`));
      try {
        options.clips.forEach((c, i) => this.setClip(i, c));
      } catch (e) {
        throw this.disposedWith(e);
      }
      // Once more with every instance's clip known: the table copies follow the crowd's order.
      this.writeClipRecords();
    }
  }

  /** Frees what the constructor allocated and returns `error`, for the constructor to throw. */
  private disposedWith(error: unknown): unknown {
    this.dispose();
    return error;
  }

  /**
   * Instance `instance` plays `clip` from the next `run` on (null: `options.clip` again); its
   * keyed/Unity cursors start afresh. A crowd on distinct clips in one call (ozz-animation's one
   * sampling job per animation, or three.js's one mixer per character, in one crossing).
   * @throws UsageError when `instance` is not an integer in [0, instances), `clip` is not loaded,
   *   differs from `options.clip` in curve count or types, or cannot be sampled with the job's
   *   `rotation` (`'raw'` only for Unity-curve clips), or after `dispose()`
   */
  setClip(instance: number, clip: AnimClip | null): void {
    if (this.ptr === 0) throw new UsageError('this SampleManyJob was disposed');
    if (this.layerCount > 0) throw new UsageError('a layered SampleManyJob plays its layers; give clips or layers, not both');
    if (!Number.isInteger(instance) || instance < 0 || instance >= this.instances) {
      throw new UsageError(`instance must be an integer in [0, ${this.instances}), got ${instance}`);
    }
    const playing = clip ?? this.clip;
    if (playing.curves.length !== this.curveCount || playing.curves.some((c, i) => c.curveType !== this.clip.curves[i]!.curveType)) {
      throw new UsageError(`clip "${playing.name}" differs from "${this.clip.name}" in curve count or types; a SampleManyJob's clips share one curve layout`);
    }
    const plan = this.runtime.plan(playing, this.sampling);
    this.checkClips();
    if (this.instanceClips === null) {
      this.instanceClips = new Array<AnimClip | null>(this.instances).fill(null);
      this.clipTable = this.runtime.allocBlock(this.instances * SM_CLIP_SIZE, []).ptr;
      this.runtime.u32[(this.ptr + SM_CLIPS) >>> 2] = this.clipTable;
      this.writeClipRecords();
    }
    this.sampleUnsampled();
    this.instanceClips[instance] = clip;
    this.writeClipRecord(instance, plan);
    // Cursors are forward-playback hints into one clip's keys.
    const cursorBytes = CURSOR_BYTES_PER_CURVE * this.curveCount;
    const cursors = this.arrayAt(SM_CURSORS) + instance * cursorBytes;
    this.runtime.u8.fill(0, cursors, cursors + cursorBytes);
  }

  /** The clip instance `instance` plays (`setClip`, `clips`, else `options.clip`). */
  clipOf(instance: number): AnimClip {
    return this.instanceClips?.[instance] ?? this.clip;
  }

  /**
   * Instance `instance`'s SM_CLIP_* record: with the clip's header copied into it where it has one,
   * and a quantized header pointing to the copy of its clip's tables where `tables` holds one.
   */
  private writeClipRecord(instance: number, plan: SamplingPlan): void {
    const record = this.clipTable + instance * SM_CLIP_SIZE;
    const { ptr, kind, clipHeader } = plan.loaded;
    const u32 = this.runtime.u32;
    const header = record + SM_CLIP_HEADER;
    if (clipHeader) this.runtime.u8.copyWithin(header, ptr, ptr + CLIP_HEADER_SIZE);
    const tables = kind === KIND_QUANTIZED ? this.tables.get(ptr) : undefined;
    if (tables !== undefined) {
      // The slices stay where they are: their offset from the copy, wrapping as the kernel's 32-bit sum does.
      const keys = u32[(ptr + CLIP_KEYS) >>> 2]!;
      u32[(header + CLIP_QUANT_SLICES) >>> 2] = (keys + u32[(ptr + CLIP_QUANT_SLICES) >>> 2]! - tables) >>> 0;
      u32[(header + CLIP_KEYS) >>> 2] = tables;
    }
    const at = record >>> 2;
    u32[at + (SM_CLIP_BLOCK >>> 2)] = clipHeader ? header : ptr;
    u32[at + (SM_CLIP_KIND >>> 2)] = kind;
    u32[at + (SM_CLIP_FLAGS >>> 2)] = plan.flags;
  }

  /**
   * Every instance's record from its clip's current block (one plan per distinct clip), after
   * copying the tables of each distinct quantized clip (its key data before the slices: group
   * counts and ranges) into one block of the job, in the order of the instances: a crowd's
   * instances then read their ranges from neighbouring lines instead of a page of each clip's
   * own (issue 16, crowd-cold). A clip given later by `setClip` reads its own tables until
   * the records are written again (a disposal), so that `setClip` costs no copy of the crowd's.
   */
  private writeClipRecords(): void {
    const runtime = this.runtime;
    const plans = new Map<AnimClip, SamplingPlan>();
    const planOf = (clip: AnimClip) => {
      let plan = plans.get(clip);
      if (plan === undefined) plans.set(clip, (plan = runtime.plan(clip, this.sampling)));
      return plan;
    };
    this.freeTables();
    const quantized: number[] = [];
    let bytes = 0;
    for (let i = 0; i < this.instances; i++) {
      const { ptr, kind } = planOf(this.clipOf(i)).loaded;
      if (kind !== KIND_QUANTIZED || this.tables.has(ptr)) continue;
      this.tables.set(ptr, bytes);
      quantized.push(ptr);
      bytes += align16(runtime.u32[(ptr + CLIP_QUANT_SLICES) >>> 2]!);
    }
    if (bytes > 0) {
      this.tableBlock = runtime.allocBlock(0, [bytes]).ptr;
      const { u8, u32 } = runtime;
      for (const ptr of quantized) {
        const at = this.tableBlock + this.tables.get(ptr)!;
        const keys = u32[(ptr + CLIP_KEYS) >>> 2]!;
        u8.copyWithin(at, keys, keys + u32[(ptr + CLIP_QUANT_SLICES) >>> 2]!);
        this.tables.set(ptr, at);
      }
    }
    for (let i = 0; i < this.instances; i++) this.writeClipRecord(i, planOf(this.clipOf(i)));
  }

  /** Frees the block of table copies. */
  private freeTables(): void {
    if (this.tableBlock !== 0) this.runtime.free(this.tableBlock);
    this.tableBlock = 0;
    this.tables.clear();
  }

  /**
   * After a resource was disposed (`runtime.releases` changed): the job's clips must still be
   * loaded — the kernel would read freed memory otherwise —, and their blocks are written again
   * (a clip loaded again lives elsewhere). Between releases it costs one comparison per call.
   * @throws UsageError naming a clip that is no longer loaded
   */
  private checkClips(): void {
    const runtime = this.runtime;
    if (runtime.releases === this.checkedReleases) return;
    const u32 = runtime.u32;
    const at = (field: number) => (this.ptr + field) >>> 2;
    const a = runtime.plan(this.clip, this.sampling).loaded;
    u32[at(SM_CLIP_A)] = a.ptr;
    u32[at(SM_KIND_A)] = a.kind;
    if (this.mixWith !== null) {
      const b = runtime.plan(this.mixWith, this.sampling).loaded;
      u32[at(SM_CLIP_B)] = b.ptr;
      u32[at(SM_KIND_B)] = b.kind;
    }
    for (const { clip, ptr } of this.layerBlocks) {
      if (!runtime.isLoaded(clip) || runtime.loaded(clip).ptr !== ptr) {
        throw new UsageError(`layer clip "${clip.name}" was disposed (or loaded again) since this SampleManyJob was created; create the job again`);
      }
    }
    if (this.instanceClips !== null) this.writeClipRecords();
    this.checkedReleases = runtime.releases;
  }

  /**
   * The blend block whose layer records name each layer's clip and scratch buffers; the kernel
   * sets each record's time, weight and cursors per instance.
   */
  private setUpLayers(core: RuntimeOwner, options: SampleManyOptions, layers: readonly SampleManyLayer[]): void {
    const types = options.clip.curves.map((c) => c.curveType);
    const rest = options.rest ?? this.defaultRest(options);
    const blendJob = new BlendJob(core, types, rest, layers.length);
    this.owned.push(blendJob);
    // The layers' buffers are the job's scratch: a masked layer samples only what the blend reads.
    blendJob.sampleReadSlotsOnly();
    const sampler = new AnimSampler(core);
    const buffer = (): AnimSampleBuffer => {
      const b = new AnimSampleBuffer(core, types);
      this.owned.push(b);
      return b;
    };
    const blendLayers = layers.map((layer) => {
      const mask = layer.mask ? new BlendMask(core, layer.mask) : null;
      if (mask) this.owned.push(mask);
      let reference: AnimSampleBuffer | undefined;
      let deltas: AnimClip | null = null;
      if (layer.mode === 'additive') {
        // The reference pose is sampled as the layer is.
        reference = buffer();
        sampler.sample(layer.clip, layer.reference ?? 0, reference, options);
        deltas = this.loadDeltas(layer.clip, reference);
      }
      const sampled = { clip: deltas ?? layer.clip, time: 0, sampling: options, deltas: deltas !== null };
      return { samples: buffer(), ...sampled, weight: 0, mask, mode: layer.mode ?? 'normal', ...(reference ? { reference } : {}) };
    });
    const u32 = this.runtime.u32;
    u32[(this.ptr + SM_BLEND) >>> 2] = blendJob.prepare(blendLayers, options.blend);
    u32[(this.ptr + SM_LAYER_COUNT) >>> 2] = layers.length;
  }

  /**
   * An additive layer's clip as deltas against its reference pose (`additiveDeltaClip`, as three.js
   * `makeClipAdditive` does), loaded for this job, so that the kernel adds the samples as they are
   * instead of multiplying each by the reference's inverse; null (deltas per sample) unless the
   * clip is loaded as plain uniform or keyed keys (compressed keys would be sampled differently).
   */
  private loadDeltas(clip: AnimClip, reference: AnimSampleBuffer): AnimClip | null {
    const loaded = this.runtime.loaded(clip).name;
    if (loaded !== 'uniform' && loaded !== 'keyed') return null;
    const deltas = additiveDeltaClip(clip, reference.samples, reference.counts);
    if (deltas === null) return null;
    const resource = new AnimResource({ format: 'additive-deltas', clips: [deltas] });
    this.owned.push(resource);
    this.runtime.load(resource);
    return deltas;
  }

  /** Rest values for layers: the skeleton's rest pose where bound, else each curve's own rest value in `clip`. */
  private defaultRest(options: SampleManyOptions): Float32Array {
    const rest = new Float32Array(4 * this.curveCount);
    options.clip.curves.forEach((curve, i) => rest.set(restValue(curve.keys), 4 * i));
    const binding = options.skeleton ? bindJoints(options.clip.curves, options.skeleton) : null;
    binding?.skeleton.joints.forEach((joint, jIndex) => {
      const [t, r, sc] = [0, 1, 2].map((p) => binding.curves[3 * jIndex + p]!);
      if (t! >= 0) rest.set([...joint.rest.translation, 0], 4 * t!);
      if (r! >= 0) rest.set(joint.rest.rotation, 4 * r!);
      if (sc! >= 0) rest.set([...joint.rest.scale, 0], 4 * sc!);
    });
    return rest;
  }

  /** Address of the array a batch field points to. */
  private arrayAt(field: number): number {
    if (this.ptr === 0) throw new UsageError('this SampleManyJob was disposed');
    return this.runtime.u32[(this.ptr + field) >>> 2]!;
  }

  /**
   * Samples instances 0 … `times.length − 1` (at most `instances`) in one call into wasm.
   * With `layers`: `times` and `weights` hold `layers.length` values per instance (instance i's
   * layer l at `i · layers.length + l`): each layer's clip time and blend weight (finite, ≥ 0).
   * @param times seconds per instance for `clip` (finite)
   * @param weights `mixWith`'s share per instance (required with `mixWith`; usually in [0, 1])
   * @param timesB seconds per instance for `mixWith`; default `times`
   * @throws UsageError when arrays are longer than `instances`, shorter than `times`, hold
   *   non-finite numbers or weights beyond float32 (negative ones with `layers`), when `weights`
   *   is missing with `mixWith`, or after `dispose()`
   */
  run(times: ArrayLike<number>, weights?: ArrayLike<number>, timesB?: ArrayLike<number>): void {
    if (this.layerCount > 0) {
      this.runLayers(times, weights);
      return;
    }
    const n = times.length;
    if (n > this.instances) throw new UsageError(`${n} times for a job of ${this.instances} instances`);
    checkFinite('times', times, n);
    this.checkClips();
    const f64 = this.runtime.f64;
    f64.set(times, this.arrayAt(SM_TIMES) >>> 3);
    if (this.mixWith !== null) {
      if (weights === undefined) throw new UsageError('mixing needs a weight per instance');
      const b = timesB ?? times;
      checkWeights('weights', weights, n);
      checkFinite('timesB', b, n);
      const f32 = this.runtime.f32;
      const wAt = this.arrayAt(SM_WEIGHTS) >>> 2;
      const bAt = this.arrayAt(SM_TIMES_B) >>> 3;
      for (let i = 0; i < n; i++) {
        f32[wAt + i] = weights[i]!;
        f64[bAt + i] = b[i]!;
      }
    }
    this.unsampled = this.runtime.kernel.sampleMany(this.ptr, n, this.flags, this.mixFlags, this.timeFactor, OUTPUT_KINDS[this.output]) !== 0 ? n : 0;
  }

  /** The samples and counts of the last `run` where the kernel left them out (`unsampled`). */
  private sampleUnsampled(): void {
    const n = this.unsampled;
    if (n === 0) return;
    this.unsampled = 0;
    this.checkClips();
    this.runtime.kernel.sampleMany(this.ptr, n, this.flags, this.mixFlags, this.timeFactor, OUTPUT_SAMPLES);
  }

  private runLayers(times: ArrayLike<number>, weights: ArrayLike<number> | undefined): void {
    const lanes = this.layerCount;
    const n = times.length / lanes;
    if (!Number.isInteger(n)) throw new UsageError(`times holds ${times.length} numbers, not a multiple of the ${lanes} layers`);
    if (n > this.instances) throw new UsageError(`${n} instances' times for a job of ${this.instances} instances`);
    if (weights === undefined) throw new UsageError('layers need a weight per instance and layer');
    checkFinite('times', times, n * lanes);
    checkWeights('weights', weights, n * lanes, 0);
    this.checkClips();
    this.runtime.f64.set(times, this.arrayAt(SM_TIMES) >>> 3);
    const w = weights.length === n * lanes ? weights : Array.prototype.slice.call(weights, 0, n * lanes);
    this.runtime.f32.set(w as ArrayLike<number>, this.arrayAt(SM_WEIGHTS) >>> 2);
    this.runtime.kernel.sampleMany(this.ptr, n, this.flags, this.mixFlags, this.timeFactor, OUTPUT_KINDS[this.output]);
  }

  /** `4 × curveCount × instances` floats: instance i's curve c at `4 (i · curveCount + c)`. */
  get samples(): Float32Array {
    this.sampleUnsampled();
    const at = this.arrayAt(SM_SAMPLES) >>> 2;
    return this.runtime.f32.subarray(at, at + 4 * this.curveCount * this.instances);
  }

  /** `curveCount × instances` sample counts. */
  get counts(): Uint8Array {
    this.sampleUnsampled();
    const at = this.arrayAt(SM_COUNTS);
    return this.runtime.u8.subarray(at, at + this.curveCount * this.instances);
  }

  /**
   * `16 × jointCount × instances` floats, column-major 4×4 per joint, instance-major: model-space
   * (`output: 'model'`) or skinning matrices (`'skinning'`). Empty for `'samples'`.
   */
  get matrices(): Float32Array {
    const at = this.arrayAt(SM_MATRICES) >>> 2;
    return this.runtime.f32.subarray(at, at + 16 * this.jointCount * this.instances);
  }

  /** The inverse bind matrices in use (`16 × jointCount` floats; empty unless `'skinning'`). */
  get inverseBindMatrices(): Float32Array {
    const at = this.arrayAt(SM_INVERSE_BIND) >>> 2;
    return this.runtime.f32.subarray(at, this.output === 'skinning' ? at + 16 * this.jointCount : at);
  }

  /** Frees the job's wasm memory. Safe to call twice. */
  dispose(): void {
    this.unsampled = 0;
    if (this.ptr === 0) return;
    this.runtime.free(this.ptr);
    if (this.clipTable !== 0) this.runtime.free(this.clipTable);
    this.clipTable = 0;
    this.freeTables();
    this.ltm?.dispose();
    for (const o of this.owned.splice(0)) o.dispose();
    this.ptr = 0;
  }
}

/** @throws UsageError unless `values` holds at least `n` finite numbers */
function checkFinite(name: string, values: ArrayLike<number>, n: number): void {
  if (values.length < n) throw new UsageError(`${name} holds ${values.length} numbers, need ${n}`);
  for (let i = 0; i < n; i++) if (!Number.isFinite(values[i])) throw new UsageError(`${name}[${i}] is not finite: ${values[i]}`);
}
