export { CurveType, CURVE_TYPES } from './curve-type.js';
export type { AnimCurve, CubicKeys, CurveKeys, CurveTarget, KeyedKeys, StaticKeys, UniformKeys, UnityKeys } from './curve.js';
export { packedKeyedKeys, packedValues, timedValueLength, type PackedValues, type ValueCheck } from './packed-keys.js';
export {
  UnityWrapMode,
  UnityWeightedMode,
  unityCurve,
  isLinearUnityCurve,
  isLinearSegment,
  lanesShareKeyTimes,
  type UnityCurve,
  type UnityCurveInit,
} from './unity-curve.js';
export { staticKeys } from './curve.js';
export { InfinityType } from './infinity-type.js';
export type { AnimEvent } from './event.js';
export { AnimClip, type AnimClipInit } from './clip.js';
export { Skeleton, type Joint, type JointPose } from './skeleton.js';
export type { Mesh } from './mesh.js';
export type { SkinnedMesh } from './skinned-mesh.js';
export { type Skin, skeletonInverseBindMatrices } from './skin.js';
export { AnimResource, type AnimResourceInit } from './resource.js';
export type { RotationMode, SampleOptions, MixOptions, SampleArrays } from './sample-options.js';
export type { BlendLayer, BlendMode, BlendOptions, BlendRule } from './blend-options.js';
export { alignRotationKeys } from './rotation-alignment.js';
export { withClosingKey } from './closing-key.js';
export { bindJoints, JOINT_PROPERTIES, type JointBinding } from './joint-binding.js';
export { parentsFirstOrder } from './joint-order.js';
export { restValue } from './rest-value.js';
export { dropKeys } from './dropped-keys.js';
export type { ReduceTrack, ReducedTrack } from './reduce-track.js';
export { axesText, type SourceAxes, Y_UP_RIGHT_HANDED } from './axes.js';
