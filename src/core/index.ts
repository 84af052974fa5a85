export { AnimCore, type AnimCoreOptions } from './anim-core.js';
export { AnimSampleBuffer } from './sample-buffer.js';
export { AnimSampler } from './sampler.js';
export { AnimMixer } from './mixer.js';
export type { WasmBuild, WasmSource } from './load-module.js';
export { LocalToModelJob, localToModel } from './local-to-model.js';
export { resample, type ResampleOptions, type ResampleResult } from './resample.js';
export { SampleManyJob, type SampleManyOptions, type SampleManyOutput } from './sample-many.js';
export { restInverseBindMatrices } from './sample-many-inverse-bind.js';
