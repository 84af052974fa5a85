import { Skeleton } from '../../anim/index.js';
import type { N2BlendShapeAnimator } from './read-n2-skeleton.js';
import type { NebulaSkeletonInput } from './skeleton-input.js';

/**
 * What the curves of a `.nax2` / `.nanim2` are: joint `transform`s (T, R, S by curve index, as
 * nSkinAnimator plays them) or `blend-shape` weights (curve i of the animator's group is the
 * weight of morph shape i, its x: nBlendShapeAnimator::Animate, Teivaz/nebula2
 * trunk/nebula2/code/nebula2/src/scene/nblendshapeanimator_main.cc). The file does not say, and
 * Nebula2 does not look at the curves or their ipolTypes to decide: the animator object of the
 * scene script that loads the file (`.setanimation` of an `nblendshapeanimator`, `.setanim` of an
 * `nskinanimator`) is what gives the curves their meaning; ipolType only picks lerp or slerp per
 * curve (and is unreliable, spec nebula.md §1.6).
 */
export type Nax2Curves = 'transform' | 'blend-shape';

/** How `nax2ToResource` reads the curves, and the blend-shape animators that play them (if known). */
export interface Nax2CurveKind {
  curves: Nax2Curves;
  /** The `.n2` script's animators that play this file, each on its `.setanimationgroup`. */
  animators: N2BlendShapeAnimator[];
}

/** The file name without folders, resource prefix (`anims:`) or extension, lower case. */
function stem(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'), path.lastIndexOf(':')) + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).toLowerCase();
}

/**
 * Whether a blend-shape animator's `.setanimation` names the file at `path`, by stem, so that
 * `anims:face.nax2` matches `face.nanim2` (the SDK converts between the two twins).
 */
export function playsFile(animator: N2BlendShapeAnimator, path: string): boolean {
  return animator.animation !== null && stem(animator.animation) === stem(path);
}

/** The blend-shape animators of an `.n2` skeleton input (none for other inputs). */
export function blendShapeAnimatorsOf(skeleton: NebulaSkeletonInput | undefined): N2BlendShapeAnimator[] {
  return skeleton && !(skeleton instanceof Skeleton) && 'blendShapeAnimators' in skeleton ? skeleton.blendShapeAnimators : [];
}

/**
 * Decides how a nax2's curves are read, as Nebula2 does — by the animator that loads the file:
 * `curves` when the caller says; else `blend-shape` when an `nblendshapeanimator` of the `.n2`
 * companion names the file `name` in its `.setanimation`, or when the script has blend-shape
 * animators and no `nskinanimator` (nothing else in it could play a nax2); `transform` otherwise.
 */
export function nax2CurveKind(skeleton: NebulaSkeletonInput | undefined, curves?: Nax2Curves, name?: string): Nax2CurveKind {
  const all = blendShapeAnimatorsOf(skeleton);
  const playing = name === undefined ? [] : all.filter((a) => playsFile(a, name));
  if (curves !== undefined) return { curves, animators: curves === 'blend-shape' ? (playing.length > 0 ? playing : all) : [] };
  if (playing.length > 0) return { curves: 'blend-shape', animators: playing };
  const skin = skeleton && !(skeleton instanceof Skeleton) && 'animatorName' in skeleton ? skeleton.animatorName : undefined;
  if (all.length > 0 && skin === null) return { curves: 'blend-shape', animators: all };
  return { curves: 'transform', animators: [] };
}
