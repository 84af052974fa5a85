import type { AnimClip, CurveType } from '../anim/index.js';

/**
 * Indices `i` for which `include[i]` holds (every index without `include`), non-rotations first,
 * then rotations, each in index order: the order the kernels loop in (one loop per kind, no
 * per-curve branch), for a clip's slots (assembly/layout.ts CLIP_SLOT_*) and the mixer's curve list
 * alike. A mask, not a callback: callbacks made per clip were compiled again by V8 for most clips
 * loaded (issue 15).
 */
export function rotationsLast(types: readonly CurveType[], include?: readonly boolean[]): { order: number[]; linearCount: number } {
  const linear: number[] = [];
  const rotation: number[] = [];
  for (let i = 0; i < types.length; i++) if (include === undefined || include[i]) (types[i] === 'rotation' ? rotation : linear).push(i);
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
  const types: CurveType[] = [];
  const slot: boolean[] = [];
  const constant: number[] = [];
  const velocity: number[] = [];
  for (let i = 0; i < clip.curves.length; i++) {
    const type = clip.curves[i]!.curveType;
    types.push(type);
    slot.push(isSlot(clip, i));
    if (!slot[i]) constant.push(i);
    if (type === 'velocity') velocity.push(i);
  }
  const { order, linearCount } = rotationsLast(types, slot);
  return { slots: order, linearCount, constant, velocity };
}
