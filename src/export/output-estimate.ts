import type { AnimClip, AnimResource } from '../anim/index.js';
import { resampledKeyCount } from '../core/index.js';

/** What a resampled output is written as. */
export type OutputForm = 'glb' | 'gltf' | 'json' | 'nax3';

/**
 * Bytes one key of one curve takes in each form, an upper bound: glTF a float time and up to four
 * floats; JSON four numbers printed as JavaScript prints float32 values as doubles (up to ~24
 * characters each, with separators); nax3 one float4.
 */
const BYTES_PER_KEY: Readonly<Record<OutputForm, number>> = { glb: 20, gltf: 20, json: 100, nax3: 16 };

/** The estimate of one clip's keys in an output. */
export interface ClipOutputEstimate {
  clip: string;
  /** Keys per animated curve after resampling. */
  keys: number;
  /** Bytes of those keys in the output form (an upper bound, before keyframe reduction). */
  bytes: number;
}

/**
 * The size of `resource` resampled at `fps` keys per second and written as `form`, computed from
 * the clips' durations and curve counts before anything is sampled or allocated: per clip its
 * resampled key count (`resampledKeyCount`) times its animated curves times the form's bytes per
 * key. Static curves (one key) and meshes are not counted: the keys are what grows with duration ×
 * fps. Largest clip first.
 * @throws UsageError for an `fps` that is not a finite number > 0
 */
export function estimateOutput(resource: AnimResource, fps: number, form: OutputForm): ClipOutputEstimate[] {
  return resource.clips
    .map((clip: AnimClip) => {
      const keys = resampledKeyCount(clip, fps);
      const animated = clip.curves.filter((c) => c.keys.encoding !== 'static').length;
      return { clip: clip.name, keys, bytes: keys * animated * BYTES_PER_KEY[form] };
    })
    .sort((a, b) => b.bytes - a.bytes);
}
