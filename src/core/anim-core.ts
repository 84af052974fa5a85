import type { AnimClip, AnimResource } from '../anim/index.js';
import { AnimcoreError, UsageError } from '../errors.js';
import type { KernelExports } from './kernel-exports.js';
import { compileModule, packagedWasmUrl, resolveBuild, type WasmBuild, type WasmSource } from './load-module.js';
import { MemoryViews } from './memory-views.js';
import { AnimMixer } from './mixer.js';
import { AnimSampleBuffer } from './sample-buffer.js';
import { AnimSampler } from './sampler.js';
import { SampleManyJob, type SampleManyOptions } from './sample-many.js';
import { clipKind, type LoadedClip } from './clip-kind.js';
import { writeKeyedClip } from './keyed-clip-block.js';
import { writeUniformClip } from './uniform-clip-block.js';
import { writeUnityClip } from './unity-clip-block.js';

/** Options of `AnimCore.create`. */
export interface AnimCoreOptions {
  /** Which build to load when `wasm` is not given: `auto` (default), `simd` or `scalar`. */
  build?: WasmBuild;
  /**
   * The module itself: bytes, a compiled `WebAssembly.Module`, or a URL / path. Default: the
   * packaged `wasm/animcore-<build>.wasm` next to this module (read from disk in Node, streamed
   * with `WebAssembly.compileStreaming` in browsers).
   */
  wasm?: WasmSource;
}

/**
 * One instance of the WebAssembly core: one `WebAssembly.Memory` holding every loaded resource's
 * keys and every sample buffer. Create with `await AnimCore.create()`; `load(resource)` copies a
 * resource's keys in once (`resource.dispose()` frees them); `sampler` and `mixer` run the kernels.
 */
export class AnimCore {
  /** Whether this instance runs the SIMD build. */
  readonly simd: boolean;
  readonly memory: WebAssembly.Memory;
  readonly sampler: AnimSampler;
  readonly mixer: AnimMixer;
  /** @internal */
  readonly kernel: KernelExports;
  /** @internal */
  readonly views: MemoryViews;
  private readonly clips = new WeakMap<AnimClip, LoadedClip>();

  private constructor(instance: WebAssembly.Instance) {
    this.kernel = instance.exports as unknown as KernelExports;
    this.memory = this.kernel.memory;
    this.simd = this.kernel.SIMD.value === 1;
    this.views = new MemoryViews(this.memory);
    this.sampler = new AnimSampler(this);
    this.mixer = new AnimMixer(this);
  }

  /**
   * Compiles and instantiates the core. Throws `UsageError` for a `wasm` source of the wrong kind
   * and rejects with the host's error when the module cannot be compiled (e.g. the SIMD build on a
   * host without SIMD).
   */
  static async create(options: AnimCoreOptions = {}): Promise<AnimCore> {
    const source = options.wasm ?? packagedWasmUrl(await resolveBuild(options.build ?? 'auto'));
    const module = await compileModule(source);
    const instance = await WebAssembly.instantiate(module, {
      env: {
        abort(_message: number, _file: number, line: number, column: number): never {
          throw new AnimcoreError(`animcore wasm aborted at ${line}:${column}`);
        },
      },
    });
    return new AnimCore(instance);
  }

  /**
   * Copies the keys of every clip of `resource` into wasm memory (once; loading again is a no-op)
   * and registers their release with `resource.dispose()`.
   * @throws UsageError for clips whose key encoding this core cannot sample
   */
  load(resource: AnimResource): void {
    const added: AnimClip[] = [];
    try {
      for (const clip of resource.clips) {
        if (this.clips.has(clip)) continue;
        this.clips.set(clip, this.write(clip));
        added.push(clip);
      }
    } catch (e) {
      this.release(added);
      throw e;
    }
    if (added.length > 0) resource.onDispose(() => this.release(added));
  }

  /** Copies one clip into wasm memory in the layout of its kind's kernel. */
  private write(clip: AnimClip): LoadedClip {
    const kind = clipKind(clip);
    switch (kind) {
      case 'uniform':
        return { kind, ptr: writeUniformClip(this.kernel, this.views, clip) };
      case 'keyed':
        return { kind, ptr: writeKeyedClip(this.kernel, this.views, clip) };
      case 'unity':
        return { kind, ptr: writeUnityClip(this.kernel, this.views, clip) };
    }
  }

  private release(clips: AnimClip[]): void {
    for (const clip of clips) {
      const loaded = this.clips.get(clip);
      if (loaded !== undefined) this.kernel.free(loaded.ptr);
      this.clips.delete(clip);
    }
  }

  /** Whether `clip` is loaded in this core. */
  isLoaded(clip: AnimClip): boolean {
    return this.clips.has(clip);
  }

  /** @internal the clip's kind and block, or a UsageError when it is not loaded (or was disposed) */
  loadedClip(clip: AnimClip): LoadedClip {
    const loaded = this.clips.get(clip);
    if (loaded === undefined) throw new UsageError(`clip "${clip.name}" is not loaded in this core (load its resource first)`);
    return loaded;
  }

  /**
   * A batch job that samples `options.clip` for many instances per call (`new SampleManyJob(this,
   * options)`; see there for shapes and errors).
   */
  createSampleMany(options: SampleManyOptions): SampleManyJob {
    return new SampleManyJob(this, options);
  }

  /** A sample buffer shaped for `clip` (its curve count and types). */
  createSampleBuffer(clip: AnimClip): AnimSampleBuffer {
    return new AnimSampleBuffer(
      this,
      clip.curves.map((c) => c.curveType),
    );
  }
}
