// The blend job block (assembly/blend.ts), imported by the kernel and the host alike (plain
// `export const` lines are valid in both languages). Byte offsets; pointers are u32 addresses.

/** Blend flag: rotations slerp (nlerp otherwise). */
export const BLEND_SLERP = 2;
/** Blend flag: rule `weighted` (ozz / three.js); `priority` (Nebula3) otherwise. */
export const BLEND_WEIGHTED = 8;

// Header.
export const BLEND_CURVE_COUNT = 0; // u32 N
export const BLEND_LAYER_COUNT = 4; // u32 layers in BLEND_LAYERS
export const BLEND_FLAGS = 8; // u32 BLEND_SLERP | BLEND_WEIGHTED
export const BLEND_THRESHOLD = 12; // f32 τ (weighted)
export const BLEND_LINEAR = 16; // ptr: u32 curve indices that are not rotations
export const BLEND_LINEAR_COUNT = 20; // u32
export const BLEND_ROTATION = 24; // ptr: u32 rotation curve indices
export const BLEND_ROTATION_COUNT = 28; // u32
export const BLEND_REST = 32; // ptr: float4 rest value per curve
export const BLEND_LAYERS = 36; // ptr: layer records
export const BLEND_OUT = 40; // ptr: float4 per curve (also the accumulator)
export const BLEND_OUT_COUNTS = 44; // ptr: u8 per curve
export const BLEND_WEIGHTS = 48; // ptr: f32 scratch per curve (weighted: accumulated weight)
export const BLEND_HEADER_SIZE = 64;

// Layer record.
export const LAYER_SAMPLES = 0; // ptr: float4 per curve
export const LAYER_COUNTS = 4; // ptr: u8 per curve
export const LAYER_WEIGHT = 8; // f32 ≥ 0
export const LAYER_MASK = 12; // ptr: f32 per curve in [0, 1], 0 = no mask
export const LAYER_MODE = 16; // u32 LAYER_NORMAL | LAYER_ADDITIVE
export const LAYER_REFERENCE = 20; // ptr: float4 per curve (additive)
export const LAYER_REFERENCE_COUNTS = 24; // ptr: u8 per curve (additive)
export const LAYER_SIZE = 32;
export const LAYER_NORMAL = 0;
export const LAYER_ADDITIVE = 1;
