// The public API of animcore.
export { AnimcoreError, FormatError, UsageError } from './errors.js';
export * from './anim/index.js';
export * from './core/index.js';
export {
  referenceMix,
  referenceSampleUniform,
  referenceSampleUnity,
  evaluateUnityCurve,
  evaluateUnityStep,
} from './reference/index.js';
export {
  readMrtk,
  writeMrtk,
  mrtkToResource,
  mrtkHandler,
  isMrtk,
  TRACKED_HAND_JOINTS,
  type TrackedHandJoint,
  type WriteMrtkOptions,
  type MrtkRecording,
  type MrtkHand,
  type MrtkPoseCurves,
  type MrtkRayCurves,
  type MrtkMarker,
} from './formats/mrtk/index.js';
