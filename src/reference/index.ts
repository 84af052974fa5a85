// Plain-TypeScript twins of the WebAssembly kernels: the oracle for differential tests and the
// baseline in benchmarks. Same semantics as assembly/, float64 arithmetic.
export { referenceSampleUniform } from './sample-uniform.js';
export { referenceMix } from './mix.js';
export { uniformKeyPair, type UniformKeyPair } from './uniform-key.js';
