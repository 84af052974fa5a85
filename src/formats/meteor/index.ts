// Meteor Blade (流星蝴蝶剑) characters: .amb, .bnc, .pos and .skc (spec meteor.md).
export { readAmb, ambRecordBytes, AMB_HEADER_BYTES, type AmbDocument } from './read-amb.js';
export { readBnc, type BncDocument, type BncNode, type BncRef } from './read-bnc.js';
export { readPos, type PosDocument, type PosPose, type PosSegment, type PosAttack, type PosDrag, type PosNextPose } from './read-pos.js';
export { readSkc, type SkcDocument, type SkcSkin, type SkcMaterial } from './read-skc.js';
export { poseTimeTable, frameSpeed } from './time-table.js';
export { loopTime, meteorLoopTime, type LoopWindow } from './loop-time.js';
export { bncSkeleton, type BncSkeleton } from './bnc-skeleton.js';
export type { AxisOptions } from './axes.js';
export { openMeteorCharacter, type MeteorCharacterFiles, type UnavailablePose } from './to-resource.js';
export { openMeteor, type MeteorFiles } from './open.js';
export { meteorHandler } from './handler.js';
