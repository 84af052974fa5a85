// Mixing two sample buffers (Nebula3 `AnimMixer::Mix` / `AnimJobUtilMix`, spec nebula.md §3.5):
// per curve, both counts > 0 → blend (rotations nlerp or slerp along the shortest arc, others
// lerp); one count > 0 → copy that sample; none → the output keeps a's value with count 0.
// The weight is b's share. `out` may alias `a` or `b`: each curve reads its inputs before writing.
import { FLAG_SLERP } from './layout';
import { copy4, lerp4, nlerpShortest, slerpPrepare, slerpPrepared, slerpShortest } from './quat';

/**
 * `curves` is a u32 list of every curve index exactly once, the `linearCount` non-rotation curves
 * first. Samples are float4 per curve at `a`, `b`, `out`; counts u8 per curve at `ac`, `bc`,
 * `outCounts`. `flags`: FLAG_SLERP (rotations slerped, else nlerp).
 */
export function mixSamples(
  curves: usize,
  linearCount: u32,
  curveCount: u32,
  a: usize,
  ac: usize,
  b: usize,
  bc: usize,
  w: f32,
  out: usize,
  outCounts: usize,
  flags: u32,
): void {
  for (let j: u32 = 0; j < linearCount; j++) {
    const i = <usize>load<u32>(curves + (<usize>j << 2));
    const o = i << 4;
    const ca = <u32>load<u8>(ac + i);
    const cb = <u32>load<u8>(bc + i);
    if (ca != 0 && cb != 0) lerp4(a + o, b + o, w, out + o);
    else if (cb != 0) copy4(b + o, out + o);
    else copy4(a + o, out + o);
    store<u8>(outCounts + i, <u8>min<u32>(ca + cb, 255));
  }
  const slerp = (flags & FLAG_SLERP) != 0;
  // One weight for every curve: the slerp polynomial is prepared once (the exact formula extrapolates).
  const prepared = slerp && w >= 0 && w <= 1;
  if (prepared) slerpPrepare(w);
  for (let j: u32 = linearCount; j < curveCount; j++) {
    const i = <usize>load<u32>(curves + (<usize>j << 2));
    const o = i << 4;
    const ca = <u32>load<u8>(ac + i);
    const cb = <u32>load<u8>(bc + i);
    if (ca != 0 && cb != 0) {
      if (prepared) slerpPrepared(a + o, b + o, out + o);
      else if (slerp) slerpShortest(a + o, b + o, w, out + o);
      else nlerpShortest(a + o, b + o, w, out + o);
    } else if (cb != 0) copy4(b + o, out + o);
    else copy4(a + o, out + o);
    store<u8>(outCounts + i, <u8>min<u32>(ca + cb, 255));
  }
}
