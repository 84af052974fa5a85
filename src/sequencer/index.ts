// Layered playback above the core (as Nebula3 keeps its Animation subsystem above CoreAnimation).
export { AnimSequencer, type AnimSequencerOptions, type AnimJobInfo } from './sequencer.js';
export type { AnimJobInit, EnqueueMode } from './job.js';
export { PoseLayout, type PoseCurve, type JointMaskOptions } from './pose-layout.js';
export type { SequencerEvent } from './events.js';
export { parseSequence, loadSequence, type SequenceFile, type SequenceMask, type LoadSequenceOptions } from './sequence-file.js';
export { bakeSequence, SEQUENCE_CLIP, type BakeSequenceOptions } from './bake-sequence.js';
