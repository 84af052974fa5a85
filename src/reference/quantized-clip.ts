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
 * a core that loaded it with `compression` does. Curves that `quantizeClip` codes are decoded at
 * keys k0 and k1 (the uniform key pair, `uniformKeyPair`) and interpolated: linear curves lerp
 * the codes, then min + code × step (w 0), in f32 as the kernel; rotations nlerp (default) or
 * slerp the decoded keys in float64; `step` returns key k0 decoded. Every other curve is sampled by `referenceSample`.
 * Writes `out.samples` (4 × curveCount) and `out.counts`.
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
      const a = decodeRotation(c.codes, pair.k0);
      const b = decodeRotation(c.codes, k1);
      v = step ? a : options.rotation === 'slerp' ? slerp(a, 0, b, 0, w) : nlerp(a, 0, b, 0, w, false);
    } else {
      // In f32 as the kernel: min + code × step is a difference of large numbers when min is.
      const r = c.range;
      const fr = Math.fround;
      const at = (k: number, j: number) => c.codes[3 * k + j]!;
      const lerp = (j: number) => fr(fr(fr(at(pair.k0, j) + fr(fr(at(k1, j) - at(pair.k0, j)) * w)) * r[3]!) + r[j]!);
      v = [lerp(0), lerp(1), lerp(2), 0];
    }
    out.samples.set(v, 4 * i);
  });
}
