import type { AnimClip, CurveType } from '../anim/index.js';

/**
 * Indices `i` for which `include(i)` holds, non-rotations first, then rotations, each in index
 * order: the order the kernels loop in (one loop per kind, no per-curve branch), for a clip's slots
 * (assembly/layout.ts CLIP_SLOT_*) and the mixer's curve list alike.
 */
export function rotationsLast(types: readonly CurveType[], include: (i: number) => boolean = () => true): { order: number[]; linearCount: number } {
  const linear: number[] = [];
  const rotation: number[] = [];
  types.forEach((t, i) => {
    if (include(i)) (t === 'rotation' ? rotation : linear).push(i);
  });
  return { order: [...linear, ...rotation], linearCount: linear.length };
}

/**
 * How a clip's curves split for a clip-header block (assembly/layout.ts, CLIP_*): active animated
 * curves are slots (`rotationsLast`); static and inactive curves are constants; Velocity curves are
 * listed for time-factor scaling.
 */
export interface ClipLayout {
  /** Curve indices of the slots: `linearCount` non-rotation curves, then the rotations. */
  slots: number[];
  linearCount: number;
  /** Curve indices of static and inactive curves. */
  constant: number[];
  velocity: number[];
}

/** Whether curve `i` of `clip` is sampled by its encoding's kernel (not static, and active). */
export function isSlot(clip: AnimClip, i: number): boolean {
  const c = clip.curves[i]!;
  return c.keys.encoding !== 'static' && c.active;
}

/** The layout of a whole clip: every slot, constant and Velocity curve. */
export function clipLayout(clip: AnimClip): ClipLayout {
  const types = clip.curves.map((c) => c.curveType);
  const { order, linearCount } = rotationsLast(types, (i) => isSlot(clip, i));
  return {
    slots: order,
    linearCount,
    constant: clip.curves.flatMap((_, i) => (isSlot(clip, i) ? [] : [i])),
    velocity: clip.curves.flatMap((c, i) => (c.curveType === 'velocity' ? [i] : [])),
  };
}
