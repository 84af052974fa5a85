import type { AnimClip, BlendLayer, BlendOptions, CurveType, SampleArrays } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { referenceBlend } from '../../src/reference/index.js';

/** A layer of a layered `SampleManyJob`, as the tests give it. */
export interface TestLayer {
  readonly clip: AnimClip;
  readonly mask?: Float32Array;
  readonly mode?: 'normal' | 'additive';
  /** `additive`: the reference time, seconds. */
  readonly reference?: number;
}

/**
 * What a layered `SampleManyJob` run with `times` and `weights` (`layers.length` per instance)
 * gives per instance, step by step: each layer's clip sampled by the core's sampler at its time,
 * an additive layer's reference at its reference time, then the blend twin (`referenceBlend`)
 * over `types` and `rest`.
 */
export function layeredByTwin(
  core: AnimCore, layers: readonly TestLayer[], times: ArrayLike<number>, weights: ArrayLike<number>, instances: number,
  types: readonly CurveType[], rest: Float32Array, blend: BlendOptions,
): SampleArrays[] {
  const buf = core.createSampleBuffer(layers[0]!.clip);
  const sampled = (clip: AnimClip, t: number): SampleArrays => {
    core.sampler.sample(clip, t, buf, { rotation: blend.rotation });
    return { samples: buf.samples.slice(), counts: buf.counts.slice() };
  };
  const references = layers.map((l) => (l.mode === 'additive' ? sampled(l.clip, l.reference ?? 0) : undefined));
  const L = layers.length;
  const n = types.length;
  const wants = Array.from({ length: instances }, (_, i) => {
    const blendLayers: BlendLayer[] = layers.map((l, k) => ({
      samples: sampled(l.clip, times[L * i + k]!),
      weight: weights[L * i + k]!,
      mask: l.mask ?? null,
      mode: l.mode ?? 'normal',
      reference: references[k],
    }));
    const want: SampleArrays = { samples: new Float32Array(4 * n), counts: new Uint8Array(n) };
    referenceBlend(types, rest, blendLayers, want, blend);
    return want;
  });
  buf.dispose();
  return wants;
}
