import { Skeleton } from '../../anim/index.js';
import type { ConstantsSkeleton } from './read-constants-skeleton.js';
import type { N2Skeleton } from './read-n2-skeleton.js';

/**
 * A skeleton companion for a Nebula animation: the model `Skeleton`, or what `readN2Skeleton`
 * (`.n2` script; also names nax2 clips) or `readConstantsSkeleton` (`.constants` XML) returned.
 */
export type NebulaSkeletonInput = Skeleton | N2Skeleton | ConstantsSkeleton;

/**
 * The model skeleton of an input, or `null` without one (an `.n2` script with blend-shape
 * animators only has no joints). `UsageError` from `Skeleton` if a hand-built joint list is invalid.
 */
export function toModelSkeleton(input: NebulaSkeletonInput | undefined): Skeleton | null {
  if (!input) return null;
  if (input instanceof Skeleton) return input;
  return input.joints.length > 0 ? new Skeleton(input.joints) : null;
}

/** Clip names by nax2 group index, when the input is an `.n2` skeleton that names them. */
export function clipNamesOf(input: NebulaSkeletonInput | undefined): ReadonlyMap<number, string> | null {
  return input && !(input instanceof Skeleton) && 'clipNames' in input ? input.clipNames : null;
}
