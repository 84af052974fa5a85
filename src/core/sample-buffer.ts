import type { CurveType, SampleArrays } from '../anim/index.js';
import { UsageError } from '../errors.js';
import type { AnimCore } from './anim-core.js';

/**
 * Samples of one clip layout in wasm memory (Nebula3 `AnimSampleBuffer`, spec nebula.md §3.6):
 * `samples` is a `Float32Array` of `4 × curveCount` floats (curve i at `4i`: x y z w; quaternions
 * x y z w), `counts` a `Uint8Array` of `curveCount` sample counts. Both are views re-derived on
 * every access, so they stay valid when memory grows; do not keep them across sampler calls that
 * load resources. A buffer is one playback instance: it also keeps the keyed sampler's cursor.
 * Create with `core.createSampleBuffer(clip)`; `dispose()` frees the memory.
 */
export class AnimSampleBuffer implements SampleArrays {
  readonly curveCount: number;
  readonly curveTypes: readonly CurveType[];
  /** @internal byte offsets in wasm memory */
  samplesPtr: number;
  /** @internal */
  countsPtr: number;
  /**
   * @internal per-instance cursors for forward playback, four u32 slots per curve: the keyed
   * sampler uses a curve's first slot (its last key index), the Unity sampler one slot per lane.
   */
  cursorsPtr: number;
  /** @internal u32 lists of curve indices for the mixer: non-rotation curves, then rotation curves */
  linearPtr: number;
  /** @internal */
  readonly linearCount: number;
  /** @internal */
  rotationPtr: number;
  /** @internal */
  readonly rotationCount: number;
  private readonly core: AnimCore;

  constructor(core: AnimCore, curveTypes: readonly CurveType[]) {
    this.core = core;
    this.curveTypes = [...curveTypes];
    const n = curveTypes.length;
    this.curveCount = n;
    const linear: number[] = [];
    const rotation: number[] = [];
    curveTypes.forEach((t, i) => (t === 'rotation' ? rotation : linear).push(i));
    this.linearCount = linear.length;
    this.rotationCount = rotation.length;
    const k = core.kernel;
    this.samplesPtr = k.alloc(16 * n);
    this.countsPtr = k.alloc(n);
    this.cursorsPtr = k.alloc(16 * n);
    this.linearPtr = k.alloc(4 * linear.length);
    this.rotationPtr = k.alloc(4 * rotation.length);
    const u32 = core.views.u32;
    u32.set(linear, this.linearPtr >>> 2);
    u32.set(rotation, this.rotationPtr >>> 2);
  }

  /** @internal throws when used after `dispose()` */
  checkLive(): void {
    if (this.samplesPtr === 0) throw new UsageError('this AnimSampleBuffer was disposed');
  }

  /** `4 × curveCount` floats, a view into wasm memory. */
  get samples(): Float32Array {
    this.checkLive();
    return this.core.views.f32.subarray(this.samplesPtr >>> 2, (this.samplesPtr >>> 2) + 4 * this.curveCount);
  }

  /** `curveCount` sample counts, a view into wasm memory. */
  get counts(): Uint8Array {
    this.checkLive();
    return this.core.views.u8.subarray(this.countsPtr, this.countsPtr + this.curveCount);
  }

  /** Curve i's sample as `[x, y, z, w]` (a copy). */
  sampleOf(i: number): [number, number, number, number] {
    const s = this.samples;
    return [s[4 * i]!, s[4 * i + 1]!, s[4 * i + 2]!, s[4 * i + 3]!];
  }

  /** Frees the wasm memory; the buffer is unusable afterwards. Safe to call twice. */
  dispose(): void {
    if (this.samplesPtr === 0) return;
    const k = this.core.kernel;
    for (const p of [this.samplesPtr, this.countsPtr, this.cursorsPtr, this.linearPtr, this.rotationPtr]) k.free(p);
    this.samplesPtr = this.countsPtr = this.cursorsPtr = this.linearPtr = this.rotationPtr = 0;
  }
}
