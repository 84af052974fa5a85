/**
 * Nebula2 `.nax2` / `.nanim2` and Nebula3 `.nax3` animation readers, the `.nax3` writer, skeleton
 * companions (`.n2` scripts, `.constants` XML) and their conversion to the anim model
 * (spec: shared/specs/nebula.md).
 */
export { readNax2 } from './read-nax2.js';
export { readNanim2 } from './read-nanim2.js';
export { readNax3 } from './read-nax3.js';
export { writeNax3, type WriteNax3Options } from './write-nax3.js';
export { readN2Skeleton, type N2Skeleton, type N2Clip, type N2State, type N2BlendShapeAnimator } from './read-n2-skeleton.js';
export { nax2CurveKind, type Nax2Curves, type Nax2CurveKind } from './blend-shapes.js';
export { readConstantsSkeleton, type ConstantsSkeleton } from './read-constants-skeleton.js';
export { nax2ToResource, nax3ToResource, NAX3_CURVE_TYPES, type Nax2ResourceOptions } from './to-resource.js';
export { nax3FromResource, type Nax3FromResourceOptions } from './from-resource.js';
export { openNebula, detectNebulaFormat, readNebulaSkeleton, type OpenNebulaInput, type OpenNebulaOptions, type NebulaFormat } from './open.js';
export type { NebulaSkeletonInput } from './skeleton-input.js';
export {
  NAX2_IPOL_NAMES,
  NAX2_LOOP_NAMES,
  type Nax2Document,
  type Nax2Group,
  type Nax2Curve,
  type Nax2Layout,
  type Nax2IpolName,
} from './nax2-document.js';
export type { Nax3Document, Nax3Clip, Nax3Curve, Nax3Event } from './nax3-document.js';
export { nebulaHandler } from './handler.js';
