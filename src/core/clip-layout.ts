import { type AnimClip, restValue } from '../anim/index.js';
import { ClipField, type KernelExports, type SharedClipArgs } from './kernel-exports.js';
import type { MemoryViews } from './memory-views.js';

/**
 * How a clip's curves split for the kernels (assembly/clip-header.ts): active animated curves are
 * slots (non-rotation first, rotations last, so each loop runs without per-curve branches);
 * static and inactive curves are constants; Velocity curves are listed for time-factor scaling.
 */
export interface ClipLayout {
  /** Curve indices of the slots: `linearCount` non-rotation curves, then the rotations. */
  slots: number[];
  linearCount: number;
  /** Curve indices of static and inactive curves. */
  constant: number[];
  velocity: number[];
}

export function clipLayout(clip: AnimClip): ClipLayout {
  const linear: number[] = [];
  const rotation: number[] = [];
  const constant: number[] = [];
  const velocity: number[] = [];
  clip.curves.forEach((c, i) => {
    if (c.keys.encoding !== 'static' && c.active) (c.curveType === 'rotation' ? rotation : linear).push(i);
    else constant.push(i);
    if (c.curveType === 'velocity') velocity.push(i);
  });
  return { slots: [...linear, ...rotation], linearCount: linear.length, constant, velocity };
}

/** The leading `*ClipCreate` arguments for a clip with this layout. */
export function sharedClipArgs(clip: AnimClip, layout: ClipLayout, duration: number): SharedClipArgs {
  return [
    clip.curves.length,
    layout.slots.length,
    layout.linearCount,
    layout.constant.length,
    layout.velocity.length,
    clip.preInfinity === 'cycle' ? 1 : 0,
    clip.postInfinity === 'cycle' ? 1 : 0,
    duration,
  ];
}

/**
 * Fills the shared tables of block `p`: slot and constant output offsets, constant values (a
 * static curve's value; an inactive curve's first key), sample counts (1 active, 0 inactive) and
 * Velocity output offsets.
 */
export function writeSharedTables(kernel: KernelExports, views: MemoryViews, p: number, clip: AnimClip, layout: ClipLayout): void {
  const { f32, u32, u8 } = views;
  u32.set(
    layout.slots.map((i) => 16 * i),
    kernel.clipArray(p, ClipField.SlotOut) >>> 2,
  );
  u32.set(
    layout.constant.map((i) => 16 * i),
    kernel.clipArray(p, ClipField.StaticOut) >>> 2,
  );
  const values = kernel.clipArray(p, ClipField.StaticValues) >>> 2;
  layout.constant.forEach((curveIndex, s) => {
    f32.set(restValue(clip.curves[curveIndex]!.keys), values + 4 * s);
  });
  u8.set(
    clip.curves.map((c) => (c.active ? 1 : 0)),
    kernel.clipArray(p, ClipField.Counts),
  );
  u32.set(
    layout.velocity.map((i) => 16 * i),
    kernel.clipArray(p, ClipField.VelocityOut) >>> 2,
  );
}
