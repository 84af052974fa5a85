// Types of bench/clips.mjs for TypeScript callers (the viewer's browser benchmark page).
import type { AnimClip, Skeleton } from '../src/index.js';

export function random(seed: number): () => number;
export function makeRigClip(options?: { joints?: number; keyCount?: number; fps?: number; seed?: number; name?: string }): AnimClip;
export function toThreeClip(THREE: typeof import('three'), clip: AnimClip): import('three').AnimationClip;
export function makeThreeRig(THREE: typeof import('three'), joints: number): import('three').Object3D;
export function makeRigSkeleton(skeletonClass: typeof Skeleton, joints?: number): Skeleton;
