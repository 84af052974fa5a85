import { type AnimClip, type AnimResource, dropKeys, type SampleOptions } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { FLAG_RAW, FLAG_SLERP, FLAG_STEP } from '../../assembly/layout.js';
import { type CompressionOptions, type LoadedClip, writeClip } from './encodings/index.js';
import type { KernelExports } from './kernel-exports.js';
import { KernelMemory } from './kernel-memory.js';

/** Options of `AnimCore.load`. */
export interface LoadOptions {
  /**
   * Store the uniform translation, rotation and scale curves quantized (`quantized` encoding:
   * up to 6 bytes per translation or scale key, none for components that never change, and 8 per
   * rotation key, instead of 16) within these error bounds (see `CompressionOptions`); curves
   * that cannot keep a bound, and every other curve, stay as they are. Default: no compression.
   */
  compression?: CompressionOptions;
  /**
   * Keep the clips' JS key arrays once their keys are in wasm memory (default true). `false` drops
   * them (`dropKeys`) so that they can be garbage-collected: the core still samples the clips,
   * their rest values and key counts stay readable, but reading the keys — exporting, resampling
   * or building three.js clips from the resource, loading it into another core or again after
   * `dispose()` — throws a `UsageError`; open the file again for those.
   */
  retainKeys?: boolean;
}

/** A clip's block and the kernel flags for one way of sampling it. */
export interface SamplingPlan {
  loaded: LoadedClip;
  /** FLAG_* of assembly/layout.ts. */
  flags: number;
  timeFactor: number;
}

/**
 * The wasm runtime behind an `AnimCore`: kernel exports and memory views (`KernelMemory`), the
 * clips loaded into memory, and the guards every sampling wrapper shares. The sampler, mixer,
 * sample-many, local-to-model and resample wrappers take it (through `RuntimeOwner`); `AnimCore`
 * is the façade that creates them. Loaded clips are kept in a `WeakMap` keyed by the `AnimClip`
 * (the API samples clips, not handles; see ARCHITECTURE.md).
 */
export class KernelRuntime extends KernelMemory {
  /** Whether the module is the SIMD build. */
  readonly simd: boolean;
  private readonly clips = new WeakMap<AnimClip, LoadedClip>();
  private releaseCount = 0;

  constructor(kernel: KernelExports) {
    super(kernel);
    this.simd = kernel.SIMD.value === 1;
  }

  /**
   * Copies the keys of every clip of `resource` into wasm memory (once; loading again is a no-op,
   * whatever the options) and registers their release with `resource.dispose()`; `options` as
   * `LoadOptions`.
   * @throws UsageError for clips whose key encodings cannot be sampled together, bad compression
   *   bounds, or clips whose keys were dropped
   */
  load(resource: AnimResource, options: LoadOptions = {}): void {
    const added: AnimClip[] = [];
    try {
      for (const clip of resource.clips) {
        if (this.clips.has(clip)) continue;
        this.clips.set(clip, writeClip(this, clip, options.compression));
        added.push(clip);
      }
    } catch (e) {
      this.release(added);
      throw e;
    }
    if (added.length > 0) resource.onDispose(() => this.release(added));
    if (options.retainKeys === false) for (const clip of resource.clips) dropKeys(clip);
  }

  /** The encoding and wasm bytes (every block) of a loaded clip. @throws UsageError when it is not loaded */
  loadedSize(clip: AnimClip): { encoding: string; bytes: number } {
    const loaded = this.loaded(clip);
    return { encoding: loaded.name, bytes: loaded.blocks.reduce((sum, b) => sum + this.blockBytes(b), 0) };
  }

  /**
   * How many times clips were released (`resource.dispose()`): a job that keeps clip blocks checks
   * them again when it changed, instead of looking every clip up at every call.
   */
  get releases(): number {
    return this.releaseCount;
  }

  private release(clips: readonly AnimClip[]): void {
    this.releaseCount++;
    for (const clip of clips) {
      for (const block of this.clips.get(clip)?.blocks ?? []) this.free(block);
      this.clips.delete(clip);
    }
  }

  isLoaded(clip: AnimClip): boolean {
    return this.clips.has(clip);
  }

  /** @throws UsageError when `clip` is not loaded (or its resource was disposed) */
  loaded(clip: AnimClip): LoadedClip {
    const loaded = this.clips.get(clip);
    if (loaded === undefined) throw new UsageError(`clip "${clip.name}" is not loaded in this core (load its resource first)`);
    return loaded;
  }

  /**
   * The block of `clip` and the kernel flags for `options` (`sampleType`, `rotation` — by default
   * the clip's own `rotation` —, `timeFactor`): the guards the sampler, sample-many and resample share.
   * @throws UsageError when the clip is not loaded, `timeFactor` is not finite, or `rotation: 'raw'`
   *   is asked of a clip that is not Unity-curve (clips of static curves only sample raw as stored)
   */
  plan(clip: AnimClip, options: SampleOptions = {}): SamplingPlan {
    const loaded = this.loaded(clip);
    const timeFactor = options.timeFactor ?? 1;
    if (!Number.isFinite(timeFactor)) throw new UsageError(`timeFactor must be finite, got ${timeFactor}`);
    if (options.rotation === 'raw' && !loaded.raw) {
      throw new UsageError(`rotation 'raw' is only offered for Unity-curve clips (MRTK); clip "${clip.name}" is ${loaded.name}`);
    }
    const rotation = options.rotation ?? clip.rotation;
    const flags = (options.sampleType === 'step' ? FLAG_STEP : 0) | (rotation === 'slerp' ? FLAG_SLERP : 0) | (rotation === 'raw' ? FLAG_RAW : 0);
    return { loaded, flags, timeFactor };
  }
}

/** What the wrappers are built from: an `AnimCore` (or anything holding its runtime). */
export interface RuntimeOwner {
  /** @internal */
  readonly runtime: KernelRuntime;
}
