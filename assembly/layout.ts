// The wasm memory layout: byte offsets of block fields, flag bits and kinds, written once. Both the
// AssemblyScript kernels and the TypeScript host import this file (plain `export const` lines are
// valid in both languages). The host lays blocks out and fills them; kernels only read them, and
// write samples and matrices. Pointer fields hold byte addresses in the one linear memory (u32).

// Kernel kinds: which sampler reads a clip block (`sampleClip`).
export const KIND_UNIFORM = 0;
export const KIND_KEYED = 1;
export const KIND_UNITY = 2;
/** A clip whose curves use several clip-header encodings: a header plus one block per encoding. */
export const KIND_MIXED = 3;
export const KIND_CUBIC = 4;
/** Uniform keys stored quantized (`compression` at load): 6 bytes per T/R/S key. */
export const KIND_QUANTIZED = 5;

// Sampling and mixing flags.
/** Key k0 as stored (Nebula3 `SampleType::Step`); clip-header kinds only. */
export const FLAG_STEP = 1;
/** Rotations slerped (sampling and mixing); nlerp otherwise. */
export const FLAG_SLERP = 2;
/** Unity-curve rotations as MRTK gives them: no sign alignment, not normalised. */
export const FLAG_RAW = 4;

// Infinity types as stored.
export const INFINITY_CONSTANT = 0;
export const INFINITY_CYCLE = 1;

// The clip header, shared by the uniform, keyed and mixed kinds (and each part of a mixed clip).
// Slots are the curves the kind's kernel samples: non-rotation slots first, then rotations.
// Constant curves (static or inactive) get their stored value; counts are copied per curve.
export const CLIP_CURVE_COUNT = 0; // u32 curves of the clip (the sample buffer's length)
export const CLIP_CONSTANT_COUNT = 4; // u32
export const CLIP_VELOCITY_COUNT = 8; // u32
export const CLIP_PRE = 12; // u32 INFINITY_*
export const CLIP_POST = 16; // u32 INFINITY_*
export const CLIP_SLOT_COUNT = 20; // u32
export const CLIP_LINEAR_COUNT = 24; // u32 slots that are not rotations
export const CLIP_SLICE_BYTES = 28; // u32 quantized: bytes of one key slice (here, so the slices' address waits on the header alone)
export const CLIP_DURATION = 32; // f64 seconds
export const CLIP_SLOT_OUT = 40; // ptr: u32 output byte offset per slot
export const CLIP_CONSTANT_OUT = 44; // ptr: u32 output byte offset per constant curve
export const CLIP_CONSTANT_VALUES = 48; // ptr: float4 per constant curve
export const CLIP_COUNTS = 52; // ptr: u8 sample count per curve
export const CLIP_VELOCITY_OUT = 56; // ptr: u32 output byte offset per Velocity curve
export const CLIP_KEYS = 60; // ptr: the kind's key data
export const CLIP_KEY_COUNT = 64; // u32 uniform: keys per slot; keyed and cubic: time groups; mixed: parts
export const CLIP_SINGLE_COUNT = 68; // u32 keyed and cubic: time groups of one slot (see KEYED_*)
export const CLIP_QUANT_SLICES = 68; // u32 quantized, in the same place: byte offset of the first slice from CLIP_KEYS (QUANT_*)
export const CLIP_KEY_DURATION = 72; // f64 uniform: seconds between keys
export const CLIP_HEADER_SIZE = 80;

// Keyed key data (the keyed and cubic kinds): one record per time group at CLIP_KEYS, CLIP_KEY_COUNT
// groups. A group is the slots that share one array of key times (glTF samplers sharing an input
// accessor, or equal times) and the same interpolation (glTF STEP or not): the kernels search its
// times once per sample and interpolate every member with the same key pair and weight. The CLIP_SINGLE_COUNT groups of
// one slot come first (a curve with times of its own: AAF, Meteor), CLIP_LINEAR_COUNT of them not
// rotations, so that group g is slot g there (the keyed sampler loops over them without member
// loops); the shared groups follow. Slots are ordered group by group (CLIP_SLOT_OUT), each group's
// non-rotations first. A group's values are key-major: member m's key k at
// VALUES + (k · members + m) · bytes per key (16 keyed: a float4; CUBIC_KEY_BYTES cubic: in-tangent,
// value, out-tangent float4s), so the two keys of every member are two contiguous runs. The
// forward-playback cursor of a group is the first u32 of its first slot's cursor bytes; a group of
// one slot j keeps its cursor at KEYED_SINGLE_CURSOR in cursor bytes j (CURSOR_BYTES_PER_CURVE
// each; j is below the curve count), so the keyed sampler reads the cursors in slot order, not
// through the slots' output offsets, and never in another group's u32.
export const KEYED_KEY_COUNT = 0; // u32 keys n >= 1
export const KEYED_TIMES = 4; // ptr: f32 seconds per key, non-decreasing, then +Inf twice (keyCount + 2 floats)
export const KEYED_VALUES = 8; // ptr: the members' keys, key-major
export const KEYED_LERP_END = 12; // u32 keys k < this interpolate towards key k + 1: keyCount − 1, or 0 for a glTF STEP group
export const KEYED_FIRST_SLOT = 16; // u32 the group's first slot
export const KEYED_LINEAR_COUNT = 20; // u32 members that are not rotations (slots FIRST … FIRST + LINEAR − 1)
export const KEYED_MEMBER_COUNT = 24; // u32 members (slots FIRST … FIRST + COUNT − 1)
export const KEYED_RECORD_SIZE = 32;
export const KEYED_SINGLE_CURSOR = 4; // u32 in a slot's cursor bytes: the cursor of a group of one slot
export const CUBIC_KEY_BYTES = 48;

// Quantized key data (KIND_QUANTIZED, on the uniform key grid of CLIP_KEY_COUNT/CLIP_KEY_DURATION)
// at CLIP_KEYS (the bytes of one slice are the header's CLIP_SLICE_BYTES). Linear slots come in
// groups of four with the same changing components (mask m: bit i for component i; a partial group
// is filled with copies of its first slot, output offset included, so CLIP_LINEAR_COUNT counts
// them), ordered by m; QUANT_GROUP_COUNTS holds the number of groups of each m = 0 … 7 (u32
// each), QUANT_W_ROTATIONS the number of leading rotation slots (a multiple of 4) that omit w in
// every key, with the same sign in neighbouring keys (their groups need no placement and no check
// of the flags). From QUANT_RANGES on, per group its range, four lanes (one per slot) a vector:
// min x, min y, min z, then the step of each changing component (component i of a key is
// min_i + code_i × step_i; a constant one is min_i and has no code). Then, at CLIP_QUANT_SLICES
// (in the header, so the slices' address waits on the header alone), keyCount + 1 slices (the last
// one key 0 again, as uniform). A slice holds the rotation slots first, QUANT_ROTATION_BYTES each:
// the stored (sign-aligned) key as "smallest three" in 48 bits (ozz-animation's and ACL's idea,
// our own bit layout): three i16 words, the components other than the omitted one in x, y, z, w
// order, each the component × QUANT_ROTATION_WORD_MAX / √½ rounded to the nearest integer whose
// bit 0 is a flag (15 bits of value, no shift to decode); bit 0 of the first and second word: the
// omitted component's index (low, high bit), of the third: its sign (1: negative). Rotation slots
// in whole groups of four are stored word by word (the first words of the four keys, then the
// second, the third: 24 bytes, for structure-of-arrays decoding), the last R mod 4 key by key.
// Then per linear group, in the ranges' order, the four slots' u16 codes of each changing
// component (QUANT_CODE_BYTES each).
export const QUANT_GROUP_COUNTS = 0; // u32 × 8
export const QUANT_W_ROTATIONS = 32; // u32
export const QUANT_RANGES = 48;
export const QUANT_RANGE_MINS = 48; // bytes of a range's min x, y, z vectors, before its steps
export const QUANT_RANGE_STEP = 16; // bytes of one step vector
export const QUANT_CODE_BYTES = 8; // bytes of one component's codes in a group
export const QUANT_ROTATION_BYTES = 6;
export const QUANT_ROTATION_WORD_MAX = 32766;

// Mixed key data: one record per part (a clip-header block of one kind with its own slots).
export const MIXED_KIND = 0; // u32 KIND_*
export const MIXED_BLOCK = 4; // ptr
export const MIXED_RECORD_SIZE = 8;

// A sample buffer: float4 samples and u8 counts per curve, and 16 bytes of cursors per curve (the
// keyed sampler uses a curve's first u32, the Unity sampler one i32 per lane).
export const CURSOR_BYTES_PER_CURVE = 16;
// resampleKeys (assembly/resample.ts) samples this many key times into as many sample buffers
// before copying them out, so that each curve's keys are written as one run.
export const RESAMPLE_BATCH = 4;

// A Unity-curve clip block (assembly/unity-curve.ts): a header, one record per output curve, one
// per lane (one scalar Unity AnimationCurve), a u8 count per curve and an arena of key data.
export const UNITY_CURVE_COUNT = 0; // u32
export const UNITY_LANE_COUNT = 4; // u32
export const UNITY_CURVES = 8; // ptr: curve records
export const UNITY_LANES = 12; // ptr: lane records
export const UNITY_COUNTS = 16; // ptr: u8 per curve
export const UNITY_HEADER_SIZE = 32;
// Curve record.
export const UNITY_CURVE_OUT = 0; // u32 output byte offset
export const UNITY_CURVE_FLAGS = 4; // u32 UNITY_*
export const UNITY_CURVE_FIRST_LANE = 8; // u32
export const UNITY_CURVE_LANES = 12; // u32 lanes of the curve (1–4)
export const UNITY_CURVE_VALUE = 16; // float4: the sample of a UNITY_STATIC curve
export const UNITY_CURVE_SIZE = 32;
// Curve record flags.
/** The record's value is the sample (static or inactive curves). */
export const UNITY_STATIC = 1;
/** Bool curve: each lane an exact step tested > 0.5. */
export const UNITY_BOOL = 2;
/** Rotation curve: normalised (zero → identity) unless sampled raw. */
export const UNITY_ROTATION = 4;
/** All lanes share key times and wrap modes: one segment look-up, rotations aligned per segment. */
export const UNITY_SHARED = 8;
/**
 * UNITY_SHARED with every lane a straight line: the first lane's VALUE holds the lanes as one float4 per
 * key (lanes beyond the curve's lane count 0).
 */
export const UNITY_LINEAR4 = 16;
// Lane record.
export const UNITY_LANE_KEY_COUNT = 0; // u32
export const UNITY_LANE_PRE = 4; // i32 Unity WrapMode
export const UNITY_LANE_POST = 8; // i32
export const UNITY_LANE_LINEAR = 12; // u32 1: every segment a straight line (only times and values)
export const UNITY_LANE_TIME = 16; // ptr: f32 per key
export const UNITY_LANE_VALUE = 20; // ptr: f32 per key
export const UNITY_LANE_IN_TANGENT = 24; // ptr: f32 per key
export const UNITY_LANE_OUT_TANGENT = 28;
export const UNITY_LANE_IN_WEIGHT = 32;
export const UNITY_LANE_OUT_WEIGHT = 36;
export const UNITY_LANE_MODE = 40; // ptr: i32 weightedMode per key
export const UNITY_LANE_SIZE = 48;

// A local-to-model job (assembly/local-to-model.ts).
export const LTM_JOINT_COUNT = 0; // u32
export const LTM_PARENTS = 4; // ptr: i32 per joint, -1 for roots
export const LTM_BINDINGS = 8; // ptr: u32 × 3 per joint: byte offset of the T, R, S sample, or LTM_UNBOUND
export const LTM_REST = 12; // ptr: float4 × 3 per joint: T xyz 0, R xyzw, S xyz 0
export const LTM_ORDER = 16; // ptr: u32 joint indices, every parent before its children
export const LTM_CONSTANT_COUNT = 20; // u32: the first joints of LTM_ORDER that no curve drives, nor any of their ancestors
export const LTM_HEADER_SIZE = 32;
/** A binding with no curve (stored as u32 0xffffffff). */
export const LTM_UNBOUND = -1;

// A sample-many batch (assembly/sample-many.ts). Per instance i: samples at SAMPLES + i·C·16,
// counts at COUNTS + i·C, cursors at CURSORS + i·C·16 (CURSORS_B for clip B), times f64 at
// TIMES + 8i and TIMES_B + 8i, weights f32 at WEIGHTS + 4i (B's share), matrices at MATRICES + i·J·64.
export const SM_CLIP_A = 0; // ptr
export const SM_KIND_A = 4; // u32 KIND_*
export const SM_CLIP_B = 8; // ptr, 0 without a mix
export const SM_KIND_B = 12; // u32
export const SM_CURVE_COUNT = 16; // u32 C
export const SM_JOINT_COUNT = 20; // u32 J
export const SM_SAMPLES = 24; // ptr
export const SM_COUNTS = 28; // ptr
export const SM_CURSORS = 32; // ptr
export const SM_SAMPLES_B = 36; // ptr: one instance's scratch for clip B
export const SM_COUNTS_B = 40; // ptr
export const SM_CURSORS_B = 44; // ptr
export const SM_TIMES = 48; // ptr
export const SM_TIMES_B = 52; // ptr
export const SM_WEIGHTS = 56; // ptr
export const SM_MIX_CURVES = 60; // ptr: u32 curve indices for the mixer, non-rotations first
export const SM_MIX_LINEAR_COUNT = 64; // u32
export const SM_JOB = 68; // ptr: local-to-model job, 0 for samples only
export const SM_INVERSE_BIND = 72; // ptr: 16 f32 per joint
export const SM_MATRICES = 76; // ptr
export const SM_MODEL = 80; // ptr: one instance's model-space scratch for skinning
export const SM_LAYER_COUNT = 84; // u32 L: 0 plays CLIP_A (mixed with CLIP_B); else L layers blended
export const SM_BLEND = 88; // ptr: a blend block (BLEND_*) whose layer records name each layer's clip and scratch buffers
// Per instance i and layer l with layers: time f64 at TIMES + 8(i·L + l), weight f32 at
// WEIGHTS + 4(i·L + l), cursors at CURSORS + (i·L + l)·C·16.
export const SM_CLIPS = 92; // ptr: an SM_CLIP_* record per instance (its own clip A), 0 when every instance plays CLIP_A
export const SM_INVERSE_BIND_SPLAT = 96; // ptr: SIMD skinning's scratch, SM_SKINNING_SCRATCH bytes per joint: 12 f32x4 per joint, the affine inverse bind entries in four lanes each (written per call), then SM_MODEL_SOA_BYTES per joint, then SM_KEY_MAP_BYTES per joint (assembly/skinning-four.ts)
export const SM_HEADER_SIZE = 100;
/** Four instances' model matrix of one joint as 12 f32x4, rows 0–2 (assembly/skinning-four.ts). */
export const SM_MODEL_SOA_BYTES = 192;
/** Per joint the key offsets of its T, R, S in a keyed clip's key row (assembly/skinning-four.ts `keyedMap`). */
export const SM_KEY_MAP_BYTES = 16;
/** Bytes per joint of SM_INVERSE_BIND_SPLAT: the splatted inverse bind entries, the model scratch, the key map. */
export const SM_SKINNING_SCRATCH = 192 + SM_MODEL_SOA_BYTES + SM_KEY_MAP_BYTES;
// A record of SM_CLIPS: the block sampleClip reads for the instance, its kind and sampling flags
// (FLAG_*), and for a clip-header kind a copy of the clip's header (its pointers lead into the
// clip's block), which SM_CLIP_BLOCK then points to: a crowd's records lie side by side, so an
// instance's header is no miss on a page of its own before its keys' (issue 16, crowd-cold).
export const SM_CLIP_BLOCK = 0; // ptr: SM_CLIP_HEADER of this record, or a block without the clip header (KIND_UNITY)
export const SM_CLIP_KIND = 4; // u32 KIND_*
export const SM_CLIP_FLAGS = 8; // u32
export const SM_CLIP_HEADER = 16; // CLIP_HEADER_SIZE bytes
export const SM_CLIP_SIZE = SM_CLIP_HEADER + CLIP_HEADER_SIZE;

// `sampleMany` outputs.
export const OUTPUT_SAMPLES = 0;
export const OUTPUT_MODEL = 1;
/** Model-space matrices times inverse bind matrices. */
export const OUTPUT_SKINNING = 2;

/** Blend flag (beside FLAG_SLERP): rule `weighted` (ozz / three.js); `priority` (Nebula3) otherwise. */
export const BLEND_WEIGHTED = 8;

// The blend job block (assembly/blend.ts): header.
export const BLEND_CURVE_COUNT = 0; // u32 N
export const BLEND_LAYER_COUNT = 4; // u32 layers in BLEND_LAYERS
export const BLEND_FLAGS = 8; // u32 FLAG_SLERP | BLEND_WEIGHTED
export const BLEND_THRESHOLD = 12; // f32 τ (weighted)
export const BLEND_LINEAR = 16; // ptr: u32 curve indices that are not rotations
export const BLEND_LINEAR_COUNT = 20; // u32
export const BLEND_ROTATION = 24; // ptr: u32 rotation curve indices
export const BLEND_ROTATION_COUNT = 28; // u32
export const BLEND_REST = 32; // ptr: float4 rest value per curve
export const BLEND_LAYERS = 36; // ptr: layer records
export const BLEND_OUT = 40; // ptr: float4 per curve (also the accumulator)
export const BLEND_OUT_COUNTS = 44; // ptr: u8 per curve
export const BLEND_MODEL_JOB = 48; // ptr: a local-to-model job (LTM_*) run on the result, 0 = none
export const BLEND_MATRICES = 52; // ptr: its model-space matrices (16 f32 per joint)
export const BLEND_TOTALS = 56; // ptr: f64 per curve, scratch: the weighted rule's running weight W
export const BLEND_ORDER = 60; // ptr: u32 per curve, scratch: the curve indices grouped by class (assembly/blend.ts, planned path)
export const BLEND_HEADER_SIZE = 64;

// Layer record. With a CLIP, `blend` first samples it at TIME into SAMPLES / COUNTS (as
// `sampleClip` with KIND, CURSORS, FLAGS, TIME_FACTOR); CLIP 0: SAMPLES already hold the layer.
export const LAYER_SAMPLES = 0; // ptr: float4 per curve
export const LAYER_COUNTS = 4; // ptr: u8 per curve
export const LAYER_WEIGHT = 8; // f32 ≥ 0
export const LAYER_MASK = 12; // ptr: f32 per curve in [0, 1], 0 = no mask
export const LAYER_MODE = 16; // u32 LAYER_NORMAL | LAYER_ADDITIVE
export const LAYER_REFERENCE = 20; // ptr: float4 per curve (additive)
export const LAYER_REFERENCE_COUNTS = 24; // ptr: u8 per curve (additive)
export const LAYER_CLIP = 28; // ptr: clip block, 0 = no sampling
export const LAYER_KIND = 32; // u32 KIND_*
export const LAYER_CURSORS = 36; // ptr: CURSOR_BYTES_PER_CURVE per curve
export const LAYER_FLAGS = 40; // u32 sampleClip flags
export const LAYER_TIME_FACTOR = 44; // f32
export const LAYER_TIME = 48; // f64 clip time, seconds
export const LAYER_REFERENCE_INVERSE = 56; // ptr: f64 x y z w per curve (additive), scratch: REFERENCE's rotations inverted; 0 = the samples are deltas already
export const LAYER_SLOT_RANGES = 60; // ptr, 0 = none: u32 count (or SLOT_RANGES_ALL), then [from, to) u32 pairs: the slots of the layer's uniform clip the planned blend reads (scratch)
export const LAYER_SIZE = 64;
export const SLOT_RANGES_ALL = -1; // LAYER_SLOT_RANGES count: every slot (as u32)
export const LAYER_NORMAL = 0;
export const LAYER_ADDITIVE = 1;

// A key-reduction job (assembly/reduce-keys.ts): one record per curve, `reduceKeys(records, count)`.
export const REDUCE_KEY_COUNT = 0; // u32 keys n ≥ 1
export const REDUCE_FLAGS = 4; // u32 REDUCE_ROTATION | REDUCE_STEP
export const REDUCE_TIMES = 8; // ptr: f32 seconds per key, strictly increasing
export const REDUCE_VALUES = 12; // ptr: float4 per key (rotations unit quaternions, either sign)
export const REDUCE_KEPT = 16; // ptr: u32 per key, written: indices of the kept keys
export const REDUCE_KEPT_COUNT = 20; // u32, written
export const REDUCE_TOLERANCE = 24; // f64: a distance, or for rotations an angle in radians
export const REDUCE_ERROR = 32; // f64, written: the largest error (distance, or angle in radians)
export const REDUCE_PATH = 40; // ptr: f64 per key, scratch for rotations (turning angle from key 0)
export const REDUCE_RECORD_SIZE = 48;
/** Quaternion keys: slerped and compared by angle. */
export const REDUCE_ROTATION = 1;
/** Keys held (glTF STEP), not interpolated. */
export const REDUCE_STEP = 2;
/** Same times and kept keys as the record before it (a group, e.g. one node's morph weights): spans pass for every member. */
export const REDUCE_WITH_PREVIOUS = 4;
