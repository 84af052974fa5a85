import type { AnimClip, SampleArrays, SampleOptions } from '../anim/index.js';
import { type CompressionOptions, decodeRotation, quantizeClip, type QuantizedCurve } from '../core/encodings/quantize.js';
import { type F4, nlerp, slerp } from './quat.js';
import { referenceSample } from './sample-clip.js';
import { uniformKeyPair } from './uniform-key.js';

const coded = new WeakMap<AnimClip, Map<string, (QuantizedCurve | null)[]>>();

/** `quantizeClip(clip, compression)`, kept per clip and bounds. */
function quantized(clip: AnimClip, compression: CompressionOptions): (QuantizedCurve | null)[] {
  let byBounds = coded.get(clip);
  if (!byBounds) coded.set(clip, (byBounds = new Map()));
  const key = JSON.stringify([compression.translation, compression.rotation, compression.scale]);
  let curves = byBounds.get(key);
  if (!curves) byBounds.set(key, (curves = quantizeClip(clip, compression)));
  return curves;
}

/**
 * Plain-TypeScript twin of `quantizedSampleSlots` (assembly/quantized-clip.ts): samples `clip` as
 * a core that loaded it with `compression` does. Curves that `quantizeClip` codes are sampled
 * from their codes at keys k0 and k1 (the uniform key pair, `uniformKeyPair`): linear curves lerp
 * the codes, then min + code × step per component (w 0), in f32 as the kernel; rotations decode
 * keys k0 and k1 from their smallest three (`decodeRotation`, f32 as the kernels) and nlerp
 * (default) or slerp them in float64; `step` returns key k0 decoded. Every other curve is
 * sampled by `referenceSample`. Writes `out.samples` (4 × curveCount) and `out.counts`.
 * @throws UsageError when `out` is too small or for bounds that are not finite numbers > 0
 */
export function referenceSampleQuantized(clip: AnimClip, compression: CompressionOptions, time: number, out: SampleArrays, options: SampleOptions = {}): void {
  referenceSample(clip, time, out, options);
  const curves = quantized(clip, compression);
  if (!curves.some((c) => c !== null)) return;
  const pair = uniformKeyPair(clip, time);
  const step = options.sampleType === 'step';
  const w = step ? 0 : pair.w;
  const k1 = step ? pair.k0 : pair.k1;
  curves.forEach((c, i) => {
    if (c === null) return;
    let v: F4;
    if (c.range === null) {
      const q0 = decodeRotation(c.codes, pair.k0);
      if (step) v = q0;
      else if (options.rotation === 'slerp') v = slerp(q0, 0, decodeRotation(c.codes, k1), 0, w);
      else v = nlerp(q0, 0, decodeRotation(c.codes, k1), 0, w, false);
    } else {
      // In f32 as the kernel: min + code × step is a difference of large numbers when min is.
      const r = c.range;
      const fr = Math.fround;
      const at = (k: number, j: number) => c.codes[3 * k + j]!;
      const lerp = (j: number) => fr(fr(fr(at(pair.k0, j) + fr(fr(at(k1, j) - at(pair.k0, j)) * w)) * r[4 + j]!) + r[j]!);
      v = [lerp(0), lerp(1), lerp(2), 0];
    }
    out.samples.set(v, 4 * i);
  });
}
