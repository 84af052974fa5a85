import { alignRotationKeys, type AnimClip, type UniformKeys } from '../anim/index.js';
import { clipLayout, sharedClipArgs, writeSharedTables } from './clip-layout.js';
import { ClipField, type KernelExports } from './kernel-exports.js';
import type { MemoryViews } from './memory-views.js';

/**
 * Copies a clip of `static` and `uniform` curves into one wasm block for `uniformClipSample`
 * (assembly/uniform-clip.ts): key-major slices of the slots, rotations sign-aligned, plus the
 * cycling slice (key 0 again). Returns the block pointer; the clip is not modified.
 */
export function writeUniformClip(kernel: KernelExports, views: MemoryViews, clip: AnimClip): number {
  const layout = clipLayout(clip);
  const S = layout.slots.length;
  const hasKeys = clip.keyCount > 0 && S > 0;
  const n = hasKeys ? clip.keyCount : 1;
  const p = kernel.uniformClipCreate(...sharedClipArgs(clip, layout, hasKeys ? clip.duration : 0), n, hasKeys ? clip.keyDuration : 1);
  // Views are read after the allocation, which may have grown memory.
  writeSharedTables(kernel, views, p, clip, layout);
  const f32 = views.f32;
  const keys = kernel.clipArray(p, ClipField.Extra) >>> 2;
  layout.slots.forEach((curveIndex, j) => {
    const curve = clip.curves[curveIndex]!;
    const values = (curve.keys as UniformKeys).values;
    const rotation = curve.curveType === 'rotation';
    const src = rotation ? alignRotationKeys(values, n) : values;
    for (let k = 0; k <= n; k++) {
      const from = rotation ? 4 * k : 4 * (k % n);
      const to = keys + 4 * (k * S + j);
      f32[to] = src[from]!;
      f32[to + 1] = src[from + 1]!;
      f32[to + 2] = src[from + 2]!;
      f32[to + 3] = src[from + 3]!;
    }
  });
  return p;
}
