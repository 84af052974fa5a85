import type { CurveType, MixOptions, SampleArrays } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { type F4, lerp4, nlerp, slerp } from './quat.js';

/**
 * Plain-TypeScript twin of the core's mixer (`mixSamples`; Nebula3 `AnimMixer::Mix`, spec
 * nebula.md §3.5): per curve, both counts > 0 → blend with b's share `weight` (rotations nlerp or
 * slerp along the shortest arc, others lerp); one > 0 → copy it; none → keep a's value. The count
 * is ca + cb, saturated at 255. `out` may be `a` or `b`. Arithmetic in float64.
 */
export function referenceMix(
  curveTypes: readonly CurveType[],
  a: SampleArrays,
  b: SampleArrays,
  weight: number,
  out: SampleArrays,
  options: MixOptions = {},
): void {
  const n = curveTypes.length;
  for (const s of [a, b, out]) {
    if (s.counts.length < n || s.samples.length < 4 * n) throw new UsageError(`a buffer holds fewer than ${n} curves`);
  }
  const w = Math.fround(weight);
  for (let i = 0; i < n; i++) {
    const ca = a.counts[i]!;
    const cb = b.counts[i]!;
    const o = 4 * i;
    let v: F4;
    if (ca > 0 && cb > 0) {
      if (curveTypes[i] !== 'rotation') v = lerp4(a.samples, o, b.samples, o, w);
      else if (options.rotation === 'slerp') v = slerp(a.samples, o, b.samples, o, w);
      else v = nlerp(a.samples, o, b.samples, o, w, true);
    } else {
      const src = cb > 0 && ca === 0 ? b.samples : a.samples;
      v = [src[o]!, src[o + 1]!, src[o + 2]!, src[o + 3]!];
    }
    out.samples.set(v, o);
    out.counts[i] = Math.min(ca + cb, 255);
  }
}
