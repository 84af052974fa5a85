import { alignRotationKeys, type AnimClip, type AnimCurve } from '../anim/index.js';
import { UsageError } from '../errors.js';
import type { KernelExports } from './kernel-exports.js';
import type { MemoryViews } from './memory-views.js';

/**
 * Copies a clip whose curves are all `static` or `uniform` into one wasm block laid out for
 * `uniformClipSample` (assembly/uniform-clip.ts): active uniform curves become slots of key-major
 * slices (linear types first, rotations last, rotations sign-aligned, plus the cycling slice);
 * static and inactive curves become a constant list; counts and Velocity curves get tables.
 * Returns the block pointer. The clip is not modified.
 */
export function writeUniformClip(kernel: KernelExports, views: MemoryViews, clip: AnimClip): number {
  const curves = clip.curves;
  const linear: number[] = [];
  const rotation: number[] = [];
  const constant: number[] = [];
  const velocity: number[] = [];
  curves.forEach((c, i) => {
    if (c.keys.encoding === 'uniform' && c.active) (c.curveType === 'rotation' ? rotation : linear).push(i);
    else if (c.keys.encoding === 'uniform' || c.keys.encoding === 'static') constant.push(i);
    else throw new UsageError(`clip "${clip.name}" curve ${i}: ${(c.keys as { encoding: string }).encoding} keys are not uniform`);
    if (c.curveType === 'velocity') velocity.push(i);
  });
  const slots = [...linear, ...rotation];
  const hasKeys = clip.keyCount > 0 && slots.length > 0;
  const n = hasKeys ? clip.keyCount : 1;
  const S = slots.length;
  const p = kernel.uniformClipCreate(
    curves.length,
    n,
    S,
    linear.length,
    constant.length,
    velocity.length,
    clip.preInfinity === 'cycle' ? 1 : 0,
    clip.postInfinity === 'cycle' ? 1 : 0,
    hasKeys ? clip.keyDuration : 1,
    hasKeys ? clip.duration : 0,
  );
  // Views are taken after the allocation, which may have grown memory.
  const f32 = views.f32;
  const u32 = views.u32;
  const u8 = views.u8;
  const keys = kernel.uniformClipKeys(p) >>> 2;
  slots.forEach((curveIndex, j) => {
    const curve = curves[curveIndex] as AnimCurve & { keys: { encoding: 'uniform' } };
    const src = curve.curveType === 'rotation' ? alignRotationKeys(curve.keys.values, n) : curve.keys.values;
    for (let k = 0; k <= n; k++) {
      const from = curve.curveType === 'rotation' ? 4 * k : 4 * (k % n);
      f32.set(src.subarray(from, from + 4), keys + 4 * (k * S + j));
    }
  });
  u32.set(
    slots.map((i) => 16 * i),
    kernel.uniformClipSlotOut(p) >>> 2,
  );
  u32.set(
    constant.map((i) => 16 * i),
    kernel.uniformClipStaticOut(p) >>> 2,
  );
  const values = kernel.uniformClipStaticValues(p) >>> 2;
  constant.forEach((curveIndex, s) => {
    const k = curves[curveIndex]!.keys;
    f32.set(k.encoding === 'static' ? k.value : (k as { values: Float32Array }).values.subarray(0, 4), values + 4 * s);
  });
  u8.set(
    curves.map((c) => (c.active ? 1 : 0)),
    kernel.uniformClipCounts(p),
  );
  u32.set(
    velocity.map((i) => 16 * i),
    kernel.uniformClipVelocityOut(p) >>> 2,
  );
  return p;
}
