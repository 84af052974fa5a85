export { readMrtk } from './read.js';
export { writeMrtk, type WriteMrtkOptions } from './write.js';
export { mrtkToResource } from './to-resource.js';
export { openMrtk, type MrtkFiles, type OpenMrtkOptions } from './open.js';
export { mrtkHandler, isMrtk } from './handler.js';
export { TRACKED_HAND_JOINTS, type TrackedHandJoint } from './tracked-hand-joint.js';
export {
  MRTK_MAGIC,
  MRTK_JOINT_COUNT,
  MRTK_BOOL_OUT_WEIGHT,
  type MrtkRecording,
  type MrtkHand,
  type MrtkPoseCurves,
  type MrtkRayCurves,
  type MrtkMarker,
} from './recording.js';
