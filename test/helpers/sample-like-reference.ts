import type { AnimClip, SampleOptions } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { referenceSample } from '../../src/reference/index.js';
import { expectCloseRelative, sampleArrays } from './compare.js';

/**
 * Samples `clip` (loaded in `core`) in the core and in the reference at `times`, in that order,
 * so that a kernel's cursor meets the steps the times take (forward, backward, jumps), and throws
 * at the first sample beyond `tol` (`expectCloseRelative`).
 */
export function expectSamplesLikeReference(core: AnimCore, clip: AnimClip, times: readonly number[], options: SampleOptions, tol = 1e-5): void {
  const buf = core.createSampleBuffer(clip);
  const ref = sampleArrays(clip.curves.length);
  try {
    for (const t of times) {
      core.sampler.sample(clip, t, buf, options);
      referenceSample(clip, t, ref, options);
      expectCloseRelative(buf.samples, ref.samples, tol);
    }
  } finally {
    buf.dispose();
  }
}
