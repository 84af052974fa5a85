// The public API of animcore.
export { AnimcoreError, FormatError, UsageError } from './errors.js';
export * from './anim/index.js';
export * from './core/index.js';
export { referenceMix, referenceSample } from './reference/index.js';
export * from './formats/aaf/index.js';
