/**
 * MRTK2 `TrackedHandJoint` names in enum order (values 0…26): the order of the 27 joint slots per
 * hand in a recording (spec mrtk.md §2.6, `TrackedHandJoint.cs` @ 6fda7a9).
 */
export const TRACKED_HAND_JOINTS = [
  'None',
  'Wrist',
  'Palm',
  'ThumbMetacarpalJoint',
  'ThumbProximalJoint',
  'ThumbDistalJoint',
  'ThumbTip',
  'IndexMetacarpal',
  'IndexKnuckle',
  'IndexMiddleJoint',
  'IndexDistalJoint',
  'IndexTip',
  'MiddleMetacarpal',
  'MiddleKnuckle',
  'MiddleMiddleJoint',
  'MiddleDistalJoint',
  'MiddleTip',
  'RingMetacarpal',
  'RingKnuckle',
  'RingMiddleJoint',
  'RingDistalJoint',
  'RingTip',
  'PinkyMetacarpal',
  'PinkyKnuckle',
  'PinkyMiddleJoint',
  'PinkyDistalJoint',
  'PinkyTip',
] as const;

/** An MRTK `TrackedHandJoint` name (`TRACKED_HAND_JOINTS`, in the enum's order). */
export type TrackedHandJoint = (typeof TRACKED_HAND_JOINTS)[number];
