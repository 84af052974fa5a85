// The animcore WebAssembly module: kernels only (no I/O, no formats). Built twice from this
// source: with SIMD (`--enable simd`) and scalar; `ASC_FEATURE_SIMD` picks the code path.
export { alloc, free } from './memory';
export { clipArray } from './clip-header';
export { uniformClipCreate, uniformClipSample } from './uniform-clip';
export { keyedClipCreate, keyedClipSample } from './keyed-clip';
export { mixSamples } from './mix';
export { blend } from './blend';
export { localToModelJobCreate, localToModelJobArray, localToModel } from './local-to-model';
export { sampleManyCreate, sampleManyField, sampleMany } from './sample-many';
export { resampleKeys } from './resample';
export { unityClipCreate, unityClipCurves, unityClipLanes, unityClipCounts, unityClipArena, unityClipLaneCount, unityClipSample } from './unity-curve';

/** 1 when this build uses WebAssembly SIMD. */
export const SIMD: i32 = ASC_FEATURE_SIMD ? 1 : 0;
