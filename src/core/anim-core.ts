import type { AnimClip, AnimResource } from '../anim/index.js';
import { AnimcoreError } from '../errors.js';
import type { KernelExports } from './kernel-exports.js';
import { compileModule, packagedWasmUrl, resolveBuild, type WasmBuild, type WasmSource } from './load-module.js';
import { AnimMixer } from './mixer.js';
import { KernelRuntime, type LoadOptions } from './runtime.js';
import { AnimSampleBuffer } from './sample-buffer.js';
import { SampleManyJob, type SampleManyOptions } from './sample-many.js';
import { AnimSampler } from './sampler.js';

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
 * A façade over its `KernelRuntime`: the sampler, mixer and jobs are built on the runtime.
 */
export class AnimCore {
  /** Whether this instance runs the SIMD build. */
  readonly simd: boolean;
  readonly memory: WebAssembly.Memory;
  readonly sampler: AnimSampler;
  readonly mixer: AnimMixer;
  /** @internal */
  readonly runtime: KernelRuntime;

  private constructor(instance: WebAssembly.Instance) {
    this.runtime = new KernelRuntime(instance.exports as unknown as KernelExports);
    this.memory = this.runtime.kernel.memory;
    this.simd = this.runtime.simd;
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
   * Copies the keys of every clip of `resource` into wasm memory (once; loading again is a no-op,
   * whatever the options) and registers their release with `resource.dispose()`. Each curve's key
   * encoding decides its kernel; a clip may mix uniform and keyed curves. `options.compression`
   * stores uniform T/R/S curves quantized within error bounds; `options.retainKeys: false` drops
   * the JS key arrays afterwards (see `LoadOptions` for the trade-off).
   * @throws UsageError for clips whose key encodings cannot be sampled together (Unity curves
   *   beside others), compression bounds that are not finite numbers > 0, or clips whose keys were
   *   dropped by an earlier `retainKeys: false` load
   */
  load(resource: AnimResource, options: LoadOptions = {}): void {
    this.runtime.load(resource, options);
  }

  /**
   * How a loaded clip is stored: its encoding (`uniform`, `keyed`, `unity`, `quantized`, or
   * `mixed` for a clip of several) and the wasm bytes of its blocks.
   * @throws UsageError when the clip is not loaded in this core
   */
  loadedSize(clip: AnimClip): { encoding: string; bytes: number } {
    return this.runtime.loadedSize(clip);
  }

  /** Whether `clip` is loaded in this core. */
  isLoaded(clip: AnimClip): boolean {
    return this.runtime.isLoaded(clip);
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
