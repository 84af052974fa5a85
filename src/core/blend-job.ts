import {
  BLEND_CURVE_COUNT, BLEND_FLAGS, BLEND_HEADER_SIZE, BLEND_LAYER_COUNT, BLEND_LAYERS, BLEND_LINEAR, BLEND_LINEAR_COUNT,
  BLEND_OUT, BLEND_OUT_COUNTS, BLEND_REST, BLEND_ROTATION, BLEND_ROTATION_COUNT, FLAG_SLERP, BLEND_THRESHOLD,
  BLEND_WEIGHTED, BLEND_MATRICES, BLEND_ORDER, BLEND_TOTALS, BLEND_MODEL_JOB, LAYER_ADDITIVE, LAYER_CLIP, LAYER_COUNTS, LAYER_CURSORS,
  LAYER_FLAGS, LAYER_KIND, LAYER_MASK, LAYER_MODE, LAYER_NORMAL, LAYER_REFERENCE, LAYER_REFERENCE_COUNTS, LAYER_REFERENCE_INVERSE, LAYER_SAMPLES, LAYER_SLOT_RANGES,
  LAYER_SIZE, LAYER_TIME, LAYER_TIME_FACTOR, LAYER_WEIGHT,
} from '../../assembly/layout.js';
import { checkWeight } from '../anim/blend-options.js';
import type { AnimClip, BlendMode, BlendOptions, CurveType, SampleOptions } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { rotationsLast } from './clip-layout.js';
import type { LocalToModelJob } from './local-to-model.js';
import type { KernelRuntime, RuntimeOwner } from './runtime.js';
import type { AnimSampleBuffer } from './sample-buffer.js';

/** A per-curve mask copied into wasm memory once (weights in [0, 1]); `dispose()` frees it. */
export class BlendMask {
  readonly curveCount: number;
  /** @internal byte offset of the f32 weights */
  ptr: number;
  private readonly runtime: KernelRuntime;

  /** @throws UsageError for a weight outside [0, 1] */
  constructor(core: RuntimeOwner, weights: Float32Array) {
    const bad = weights.findIndex((w) => !(w >= 0 && w <= 1));
    if (bad >= 0) throw new UsageError(`mask weight ${weights[bad]} at curve ${bad} is outside [0, 1]`);
    this.runtime = core.runtime;
    this.curveCount = weights.length;
    this.ptr = this.runtime.kernel.alloc(4 * Math.max(1, weights.length));
    this.runtime.f32.set(weights, this.ptr >>> 2);
  }

  /** Frees the wasm copy. Safe to call twice. */
  dispose(): void {
    if (this.ptr !== 0) this.runtime.free(this.ptr);
    this.ptr = 0;
  }
}

/** One layer of a `BlendJob` run. */
export interface BlendJobLayer {
  /**
   * Samples in the job's pose layout. With `clip`, the buffer the clip is sampled into first (its
   * cursors included), in the same call.
   */
  readonly samples: AnimSampleBuffer;
  /**
   * A clip (loaded in the core, of the job's curve count and types) that the call samples at
   * `time` into `samples` before blending, exactly as `AnimSampler.sample(clip, time, samples,
   * sampling)` would; absent, `samples` already holds the layer. A layer that cannot contribute
   * (weight 0 under rule `weighted`, or an additive layer of weight 0) is not sampled: `samples`
   * keeps what it held.
   */
  readonly clip?: AnimClip;
  /** `clip`'s time, seconds (finite). */
  readonly time?: number;
  /** How `clip` is sampled (rotation, sample type, time factor), as `AnimSampler.sample`. */
  readonly sampling?: SampleOptions;
  /** Blend weight in [0, `MAX_WEIGHT`] (the largest float32). */
  readonly weight: number;
  readonly mask?: BlendMask | null;
  /** Default `normal`. */
  readonly mode?: BlendMode;
  /** `additive`: the same clip sampled at its reference time. */
  readonly reference?: AnimSampleBuffer;
  /**
   * @internal `additive`: `samples` (as `clip` samples them) are deltas against `reference`
   * already (`additiveDeltaClip`), which then gives only its counts: the kernel adds them as they are.
   */
  readonly deltas?: boolean;
}

/** What `BlendJob.run` does besides blending. */
export interface BlendJobRunOptions extends BlendOptions {
  /**
   * Also composes the result's model-space matrices into this job's `matrices` in the same call
   * (as `model.run(out)`); its binding must be of the job's curve count.
   */
  model?: LocalToModelJob;
}

/**
 * The blend job (after ozz-animation's `BlendingJob`): blends up to `maxLayers` sample buffers of
 * one pose layout into an output buffer in one call into WebAssembly, by spec sequencer.md §3–§4
 * (rules `priority` and `weighted` with threshold τ, nlerp or slerp, per-curve masks, additive
 * layers against their reference pose). The pose layout's rest values fill undefined curves.
 * Layers that name a clip are sampled within the same call, and a local-to-model job can compose
 * the result, so a frame of layered playback is one call. Twin: `referenceBlend`. `dispose()`
 * frees the memory.
 */
export class BlendJob {
  readonly curveCount: number;
  readonly curveTypes: readonly CurveType[];
  readonly maxLayers: number;
  private ptr: number;
  private readonly runtime: KernelRuntime;
  /** The layers' tables of inverted reference rotations, 32 bytes per curve and layer. */
  private readonly inverses: number;
  /** A block of LAYER_SLOT_RANGES tables, one per layer (`sampleReadSlotsOnly`), or 0. */
  private ranges = 0;
  /** Clips whose curves were checked against the layout. */
  private readonly fitting = new WeakSet<AnimClip>();

  /**
   * @param curveTypes the pose layout's curve types
   * @param rest `4 × curveCount` rest values
   * @throws UsageError when `rest` is too short or `maxLayers` is not a positive integer
   */
  constructor(core: RuntimeOwner, curveTypes: readonly CurveType[], rest: ArrayLike<number>, maxLayers: number) {
    const n = curveTypes.length;
    if (rest.length < 4 * n) throw new UsageError(`rest needs ${4 * n} floats, has ${rest.length}`);
    if (!Number.isInteger(maxLayers) || maxLayers < 1) throw new UsageError(`maxLayers must be a positive integer, got ${maxLayers}`);
    this.runtime = core.runtime;
    this.curveCount = n;
    this.curveTypes = [...curveTypes];
    this.maxLayers = maxLayers;
    const { order, linearCount } = rotationsLast(curveTypes);
    // Per layer record, 32 bytes per curve for the inverse of an additive layer's reference rotations.
    const block = this.runtime.allocBlock(BLEND_HEADER_SIZE, [4 * n, 16 * n, LAYER_SIZE * maxLayers, 8 * n, 32 * n * maxLayers, 4 * n]);
    const p = (this.ptr = block.ptr);
    // One curve list, non-rotations first: the rotation list is its tail.
    const [linear, restAt, layerTable, totals, inverses, classOrder] = block.arrays as [number, number, number, number, number, number];
    const { u32, f32 } = this.runtime;
    u32[(p + BLEND_LINEAR) >>> 2] = linear;
    u32[(p + BLEND_ROTATION) >>> 2] = linear + 4 * linearCount;
    u32[(p + BLEND_REST) >>> 2] = restAt;
    u32[(p + BLEND_LAYERS) >>> 2] = layerTable;
    u32[(p + BLEND_TOTALS) >>> 2] = totals;
    u32[(p + BLEND_ORDER) >>> 2] = classOrder;
    u32[(p + BLEND_CURVE_COUNT) >>> 2] = n;
    u32[(p + BLEND_LINEAR_COUNT) >>> 2] = linearCount;
    u32[(p + BLEND_ROTATION_COUNT) >>> 2] = n - linearCount;
    u32.set(order, linear >>> 2);
    this.inverses = inverses;
    f32.set(Float32Array.from({ length: 4 * n }, (_, i) => rest[i]!), restAt >>> 2);
  }

  /**
   * Samples the layers that name a clip, blends `layers` (list order matters: priority, and the
   * order of additive layers) into `out` and, with `options.model`, composes its matrices: one
   * call into WebAssembly.
   * @throws UsageError when a buffer, clip or mask does not have the job's curve count, a clip is
   *   not loaded or its time not finite, there are more than `maxLayers` layers, a weight is
   *   negative or beyond float32, an additive layer has no reference, τ is negative or not finite,
   *   `model` does not fit or was disposed, `out` is a layer's samples or reference, or the job was disposed
   */
  run(layers: readonly BlendJobLayer[], out: AnimSampleBuffer, options: BlendJobRunOptions = {}): void {
    out.checkLive();
    if (out.curveCount !== this.curveCount) throw new UsageError(`out has ${out.curveCount} curves, the job ${this.curveCount}`);
    const model = options.model;
    if (model && (model.ptr === 0 || model.binding.curveCount !== this.curveCount)) {
      throw new UsageError(`options.model is disposed or bound to ${model.binding.curveCount} curves, the job has ${this.curveCount}`);
    }
    this.prepare(layers, options);
    // The kernel reads the layers while it writes `out` (and zeroes its counts first).
    const shared = layers.findIndex((l) => l.samples === out || l.reference === out);
    if (shared >= 0) throw new UsageError(`layer ${shared}: out is one of the layer's buffers; blend into a buffer of its own`);
    const u32 = this.runtime.u32;
    const p = this.ptr;
    u32[(p + BLEND_OUT) >>> 2] = out.samplesPtr;
    u32[(p + BLEND_OUT_COUNTS) >>> 2] = out.countsPtr;
    u32[(p + BLEND_MODEL_JOB) >>> 2] = model?.ptr ?? 0;
    u32[(p + BLEND_MATRICES) >>> 2] = model?.matricesPtr ?? 0;
    this.runtime.kernel.blend(p);
  }

  /**
   * @internal writes the layer table, flags and τ without running (a `SampleManyJob` with layers
   * runs the block per instance, setting weights and the output itself); checks as `run`.
   * @returns the block's address
   */
  prepare(layers: readonly BlendJobLayer[], options: BlendOptions = {}): number {
    if (this.ptr === 0) throw new UsageError('this BlendJob was disposed');
    const n = this.curveCount;
    if (layers.length > this.maxLayers) throw new UsageError(`${layers.length} layers, the job holds at most ${this.maxLayers}`);
    const tau = options.threshold ?? 1;
    checkWeight('threshold', tau, 0); // stored as float32, as the weights it bounds
    const { u32, f32 } = this.runtime;
    const p = this.ptr;
    const table = u32[(p + BLEND_LAYERS) >>> 2]!;
    layers.forEach((layer, j) => {
      const buffers = layer.mode === 'additive' ? [layer.samples, layer.reference] : [layer.samples];
      for (const b of buffers) {
        if (!b) throw new UsageError(`layer ${j}: an additive layer needs its reference samples`);
        b.checkLive();
        if (b.curveCount !== n) throw new UsageError(`layer ${j}: buffer has ${b.curveCount} curves, the job ${n}`);
      }
      checkWeight(`layer ${j}: weight`, layer.weight, 0);
      const mask = layer.mask ?? null;
      if (mask && (mask.ptr === 0 || mask.curveCount !== n)) throw new UsageError(`layer ${j}: the mask is disposed or not of ${n} curves`);
      this.prepareSampling(j, layer, table + j * LAYER_SIZE);
      const r = (table + j * LAYER_SIZE) >>> 2;
      u32[r + LAYER_SAMPLES / 4] = layer.samples.samplesPtr;
      u32[r + LAYER_COUNTS / 4] = layer.samples.countsPtr;
      f32[r + LAYER_WEIGHT / 4] = layer.weight;
      u32[r + LAYER_MASK / 4] = mask ? mask.ptr : 0;
      u32[r + LAYER_MODE / 4] = layer.mode === 'additive' ? LAYER_ADDITIVE : LAYER_NORMAL;
      u32[r + LAYER_REFERENCE / 4] = layer.reference?.samplesPtr ?? 0;
      u32[r + LAYER_REFERENCE_COUNTS / 4] = layer.reference?.countsPtr ?? 0;
      // The layer's table of inverted reference rotations; none for samples that are deltas already.
      u32[r + LAYER_REFERENCE_INVERSE / 4] = layer.deltas ? 0 : this.inverses + 32 * n * j;
      u32[r + LAYER_SLOT_RANGES / 4] = this.ranges === 0 ? 0 : this.ranges + rangeTableBytes(n) * j;
    });
    u32[(p + BLEND_LAYER_COUNT) >>> 2] = layers.length;
    u32[(p + BLEND_FLAGS) >>> 2] = (options.rotation === 'slerp' ? FLAG_SLERP : 0) | (options.rule === 'weighted' ? BLEND_WEIGHTED : 0);
    f32[(p + BLEND_THRESHOLD) >>> 2] = tau;
    return p;
  }

  /** Writes the record's clip fields: the layer's clip to sample, or none. */
  private prepareSampling(j: number, layer: BlendJobLayer, record: number): void {
    const { u32, f32, f64 } = this.runtime;
    const clip = layer.clip;
    if (!clip) {
      u32[(record + LAYER_CLIP) >>> 2] = 0;
      return;
    }
    const { loaded, flags, timeFactor } = this.runtime.plan(clip, layer.sampling);
    if (!this.fitting.has(clip)) {
      if (clip.curves.length !== this.curveCount || clip.curves.some((c, i) => c.curveType !== this.curveTypes[i])) {
        throw new UsageError(`layer ${j}: clip "${clip.name}" differs from the job's pose layout in curve count or types`);
      }
      this.fitting.add(clip);
    }
    const time = layer.time ?? Number.NaN;
    if (!Number.isFinite(time)) throw new UsageError(`layer ${j}: time must be a finite number of seconds, got ${layer.time}`);
    u32[(record + LAYER_CLIP) >>> 2] = loaded.ptr;
    u32[(record + LAYER_KIND) >>> 2] = loaded.kind;
    u32[(record + LAYER_CURSORS) >>> 2] = layer.samples.cursorsPtr;
    u32[(record + LAYER_FLAGS) >>> 2] = flags;
    f32[(record + LAYER_TIME_FACTOR) >>> 2] = timeFactor;
    f64[(record + LAYER_TIME) >>> 3] = time;
  }

  /**
   * @internal From now on a layer's uniform clip is sampled only where the blend reads it (the
   * kernel lists the slots of the curves its plan reads: a mask of 0 leaves the others out), so
   * `samples` does not hold the whole clip: for a caller whose layer buffers are its own scratch
   * (a layered `SampleManyJob`).
   */
  sampleReadSlotsOnly(): void {
    if (this.ranges !== 0) return;
    this.ranges = this.runtime.allocBlock(0, [rangeTableBytes(this.curveCount) * this.maxLayers]).ptr;
  }

  /** Frees the job's memory. Safe to call twice. */
  dispose(): void {
    if (this.ranges !== 0) this.runtime.free(this.ranges);
    this.ranges = 0;
    if (this.ptr === 0) return;
    this.runtime.free(this.ptr);
    this.ptr = 0;
  }
}

/** Bytes of a LAYER_SLOT_RANGES table for n curves: a count and at most n [from, to) pairs of u32. */
function rangeTableBytes(n: number): number {
  return 16 * Math.ceil((4 + 8 * n) / 16);
}
