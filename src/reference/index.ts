// Plain-TypeScript twins of the WebAssembly kernels: the oracle for differential tests and the
// baseline in benchmarks, and nothing else — no production module imports src/reference/ (the
// public API re-exports the twins for users who want an oracle). Same semantics as assembly/,
// float64 arithmetic.
export { referenceSample } from './sample-clip.js';
export { referenceSampleQuantized } from './quantized-clip.js';
export { referenceMix } from './mix.js';
export { uniformKeyPair, type UniformKeyPair } from './uniform-key.js';
export { keyedKeyPair } from './keyed-key.js';
export { referenceLocalToModel } from './local-to-model.js';
export { referenceSampleMany, type ReferenceSampleManyOptions } from './sample-many.js';
export { referenceSampleUnity, QUAT_MIN_LENGTH } from './sample-unity.js';
export {
  evaluateUnityCurve,
  evaluateUnityStep,
  evaluateUnitySegment,
  interpolateUnitySegment,
  bezierExtractU,
  wrapUnityTime,
  unityKeyIndex,
  UNITY_DEFAULT_WEIGHT,
} from './unity-curve.js';
export { referenceBlend } from './blend.js';
export { referenceReduceKeys } from './reduce-keys.js';
