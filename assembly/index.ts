// The animcore WebAssembly module: kernels only (no I/O, no formats). Built twice from this
// source: with SIMD (`--enable simd`) and scalar; `ASC_FEATURE_SIMD` picks the code path. The host
// lays out every block it passes in (assembly/layout.ts); the kernels read them.
export { alloc, free } from './memory';
export { sampleClip } from './sample-clip';
export { mixSamples } from './mix';
export { blend } from './blend';
export { localToModel } from './local-to-model';
export { sampleMany } from './sample-many';
export { resampleKeys } from './resample';
export { reduceKeys } from './reduce-keys';
export { widenKeys } from './widen-keys';
export { alignRotations } from './align-rotations';

/** 1 when this build uses WebAssembly SIMD. */
export const SIMD: i32 = ASC_FEATURE_SIMD ? 1 : 0;
