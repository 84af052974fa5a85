// Plain-TypeScript twins of the WebAssembly kernels: the oracle for differential tests and the
// baseline in benchmarks. Same semantics as assembly/, float64 arithmetic.
export { referenceSampleUniform } from './sample-uniform.js';
export { referenceMix } from './mix.js';
export { uniformKeyPair, type UniformKeyPair } from './uniform-key.js';
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
