// Mixing two sample buffers (Nebula3 `AnimMixer::Mix` / `AnimJobUtilMix`, spec nebula.md §3.5):
// per curve, both counts > 0 → blend (rotations nlerp or slerp along the shortest arc, others
// lerp); one count > 0 → copy that sample; none → the output keeps a's value with count 0.
// The weight is b's share. `out` may alias `a` or `b`: each curve reads its inputs before writing.
import { FLAG_SLERP } from './layout';
import { copy4, lerp4, nlerpShortest, nlerpShortest4, SLERP_SHARED, slerpPrepare, slerpPrepared, slerpShortest } from './quat';

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
  const slerp = (flags & FLAG_SLERP) != 0;
  // One weight for every curve: the slerp polynomial is prepared once (the exact formula extrapolates).
  const prepared = slerp && w >= 0 && w <= 1;
  if (prepared) slerpPrepare(SLERP_SHARED, w);
  if (allActive(ac, curveCount) && allActive(bc, curveCount)) {
    // Every curve blends (two clips of one layout, the usual case): no per-curve count tests.
    addCounts(ac, bc, outCounts, curveCount);
    for (let j: u32 = 0; j < linearCount; j++) {
      const o = <usize>load<u32>(curves + (<usize>j << 2)) << 4;
      lerp4(a + o, b + o, w, out + o);
    }
    if (!slerp) {
      let j = linearCount;
      if (ASC_FEATURE_SIMD) {
        for (; j + 4 <= curveCount; j += 4) {
          const c = curves + (<usize>j << 2);
          nlerpShortest4(a, b, w, out, <usize>load<u32>(c) << 4, <usize>load<u32>(c, 4) << 4, <usize>load<u32>(c, 8) << 4, <usize>load<u32>(c, 12) << 4);
        }
      }
      for (; j < curveCount; j++) {
        const o = <usize>load<u32>(curves + (<usize>j << 2)) << 4;
        nlerpShortest(a + o, b + o, w, out + o);
      }
    } else {
      for (let j: u32 = linearCount; j < curveCount; j++) {
        const o = <usize>load<u32>(curves + (<usize>j << 2)) << 4;
        if (prepared) slerpPrepared(SLERP_SHARED, a + o, b + o, out + o);
        else slerpShortest(SLERP_SHARED, a + o, b + o, w, out + o);
      }
    }
    return;
  }
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
  for (let j: u32 = linearCount; j < curveCount; j++) {
    const i = <usize>load<u32>(curves + (<usize>j << 2));
    const o = i << 4;
    const ca = <u32>load<u8>(ac + i);
    const cb = <u32>load<u8>(bc + i);
    if (ca != 0 && cb != 0) {
      if (prepared) slerpPrepared(SLERP_SHARED, a + o, b + o, out + o);
      else if (slerp) slerpShortest(SLERP_SHARED, a + o, b + o, w, out + o);
      else nlerpShortest(a + o, b + o, w, out + o);
    } else if (cb != 0) copy4(b + o, out + o);
    else copy4(a + o, out + o);
    store<u8>(outCounts + i, <u8>min<u32>(ca + cb, 255));
  }
}

/** Whether each of the `n` counts at `c` is > 0. */
function allActive(c: usize, n: u32): bool {
  let i: usize = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 16 <= <usize>n; i += 16) {
      if (v128.any_true(i8x16.eq(v128.load(c + i), i8x16.splat(0)))) return false;
    }
  }
  for (; i < <usize>n; i++) if (load<u8>(c + i) == 0) return false;
  return true;
}

/** out = min(a + b, 255) over `n` u8 counts (`out` may be `a` or `b`). */
function addCounts(a: usize, b: usize, out: usize, n: u32): void {
  let i: usize = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 16 <= <usize>n; i += 16) v128.store(out + i, i8x16.add_sat_u(v128.load(a + i), v128.load(b + i)));
  }
  for (; i < <usize>n; i++) store<u8>(out + i, <u8>min<u32>(<u32>load<u8>(a + i) + <u32>load<u8>(b + i), 255));
}
