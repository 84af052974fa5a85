import type { CurveType, SampleArrays } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { CURSOR_BYTES_PER_CURVE } from '../../assembly/layout.js';
import { rotationsLast } from './clip-layout.js';
import type { KernelRuntime, RuntimeOwner } from './runtime.js';

/**
 * Samples of one clip layout in wasm memory (Nebula3 `AnimSampleBuffer`, spec nebula.md §3.6):
 * `samples` is a `Float32Array` of `4 × curveCount` floats (curve i at `4i`: x y z w; quaternions
 * x y z w), `counts` a `Uint8Array` of `curveCount` sample counts. Both are views re-derived on
 * every access, so they stay valid when memory grows; do not keep them across sampler calls that
 * load resources. A buffer is one playback instance: it also keeps the keyed and Unity samplers'
 * cursors. Create with `core.createSampleBuffer(clip)`; `dispose()` frees the memory.
 */
export class AnimSampleBuffer implements SampleArrays {
  readonly curveCount: number;
  readonly curveTypes: readonly CurveType[];
  /** @internal byte offsets in wasm memory (one block; 0 once disposed) */
  samplesPtr: number;
  /** @internal */
  countsPtr: number;
  /** @internal per-instance cursors for forward playback, CURSOR_BYTES_PER_CURVE per curve */
  cursorsPtr: number;
  /** @internal u32 curve indices for the mixer, non-rotations first (`rotationsLast`) */
  mixCurvesPtr: number;
  /** @internal */
  readonly mixLinearCount: number;
  private readonly runtime: KernelRuntime;

  constructor(core: RuntimeOwner, curveTypes: readonly CurveType[]) {
    this.runtime = core.runtime;
    this.curveTypes = [...curveTypes];
    const n = curveTypes.length;
    this.curveCount = n;
    const { order, linearCount } = rotationsLast(curveTypes);
    this.mixLinearCount = linearCount;
    const { ptr, arrays } = this.runtime.allocBlock(0, [16 * n, n, CURSOR_BYTES_PER_CURVE * n, 4 * n]);
    this.samplesPtr = ptr;
    [, this.countsPtr, this.cursorsPtr, this.mixCurvesPtr] = arrays as [number, number, number, number];
    this.runtime.u32.set(order, this.mixCurvesPtr >>> 2);
  }

  /** @internal throws when used after `dispose()` */
  checkLive(): void {
    if (this.samplesPtr === 0) throw new UsageError('this AnimSampleBuffer was disposed');
  }

  /** `4 × curveCount` floats, a view into wasm memory. */
  get samples(): Float32Array {
    this.checkLive();
    return this.runtime.f32.subarray(this.samplesPtr >>> 2, (this.samplesPtr >>> 2) + 4 * this.curveCount);
  }

  /** `curveCount` sample counts, a view into wasm memory. */
  get counts(): Uint8Array {
    this.checkLive();
    return this.runtime.u8.subarray(this.countsPtr, this.countsPtr + this.curveCount);
  }

  /** Curve i's sample as `[x, y, z, w]` (a copy). */
  sampleOf(i: number): [number, number, number, number] {
    const s = this.samples;
    return [s[4 * i]!, s[4 * i + 1]!, s[4 * i + 2]!, s[4 * i + 3]!];
  }

  /** Frees the wasm memory; the buffer is unusable afterwards. Safe to call twice. */
  dispose(): void {
    if (this.samplesPtr === 0) return;
    this.runtime.free(this.samplesPtr);
    this.samplesPtr = this.countsPtr = this.cursorsPtr = this.mixCurvesPtr = 0;
  }
}
