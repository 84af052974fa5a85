// The public API of animcore.
export { AnimcoreError, FormatError, UsageError } from './errors.js';
export * from './anim/index.js';
export * from './core/index.js';
export { referenceLocalToModel, referenceMix, referenceSample, referenceSampleMany, referenceSampleUnity, evaluateUnityCurve, evaluateUnityStep } from './reference/index.js';
export * from './formats/nebula/index.js';
export * from './formats/meteor/index.js';
export * from './formats/aaf/index.js';
export { FORMAT_HANDLERS, findHandler } from './formats/registry.js';
export type { FormatHandler, OpenInput } from './formats/handler.js';
export * from './formats/mrtk/index.js';
