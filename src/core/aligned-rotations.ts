import type { RuntimeOwner } from './runtime.js';

/**
 * Rotation keys sign-aligned and normalised by the kernel (`alignRotations`,
 * assembly/align-rotations.ts) for a glTF writer, bit for bit as src/export/curve-track.ts
 * `AlignedRotations.write` makes them in JS, where their float64 divisions and square roots were
 * a tenth of a glTF → glTF bake (issue 15, gltf-resample). Each track goes through one scratch
 * block (copied in, aligned, copied out: a track's keys stay in the cache); `dispose` frees it.
 */
export class KernelAlignedRotations {
  private block = 0;
  /** Floats the block holds: the keys in, then the keys out. */
  private floats = 0;

  constructor(private readonly core: RuntimeOwner) {}

  /** Keys 0 … count − 1 of the `keyCount` float4 `keys` (key keyCount is key 0 again: count ≤ keyCount + 1) aligned and normalised into `out` from `at`. */
  writeAligned(keys: Float32Array, keyCount: number, count: number, out: Float32Array, at: number): void {
    const runtime = this.core.runtime;
    if (4 * (keyCount + count) > this.floats) {
      if (this.block !== 0) runtime.free(this.block);
      this.block = 0;
      this.floats = 4 * (keyCount + count);
      this.block = runtime.allocBlock(0, [4 * this.floats]).ptr;
    }
    const to = this.block + 16 * keyCount;
    runtime.f32.set(keys.subarray(0, 4 * keyCount), this.block >>> 2);
    runtime.kernel.alignRotations(this.block, keyCount, count, to);
    out.set(runtime.f32.subarray(to >>> 2, (to >>> 2) + 4 * count), at);
  }

  /** Frees the scratch block. */
  dispose(): void {
    if (this.block !== 0) this.core.runtime.free(this.block);
    this.block = 0;
    this.floats = 0;
  }
}
