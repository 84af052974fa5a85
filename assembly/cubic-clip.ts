// The cubic-spline clip sampler (glTF 2.0 Appendix C "Cubic Spline Interpolation"): every slot has
// its own key times and, per key, an in-tangent, a value and an out-tangent (three float4s,
// CUBIC_KEY_BYTES). Slots sharing one array of times form a time group (KEYED_* records, as the
// keyed sampler's): one key search and one set of Hermite basis weights per group, then four
// multiply-adds of float4s per member. Between keys k and k+1, with d = t[k+1] − t[k] and
// s = (t − t[k]) / d: (2s³−3s²+1)·v_k + d(s³−2s²+s)·b_k + (−2s³+3s²)·v_k+1 + d(s³−s²)·a_k+1,
// rotations normalised after. Before the first key, from the last key on, on a key's exact time
// and with FLAG_STEP the key's value as stored (tangents never leak out). Cursors as the keyed
// sampler's.
import { wrapCycle } from './clip-header';
import { groupKey } from './keyed-clip';
import {
  CLIP_KEY_COUNT,
  CLIP_KEYS,
  CLIP_SLOT_OUT,
  CUBIC_KEY_BYTES,
  FLAG_STEP,
  KEYED_FIRST_SLOT,
  KEYED_LERP_END,
  KEYED_LINEAR_COUNT,
  KEYED_MEMBER_COUNT,
  KEYED_RECORD_SIZE,
  KEYED_TIMES,
  KEYED_VALUES,
} from './layout';
import { copy4, normalize4, normalizeLane, normalizeLanes4 } from './quat';

/** Samples the slots of cubic clip block `p` at `time` seconds into `out`; `cursors` as `keyedSampleSlots`. */
export function cubicSampleSlots(p: usize, time: f64, out: usize, cursors: usize, flags: u32): void {
  const t = wrapCycle(p, time);
  const G = load<u32>(p, CLIP_KEY_COUNT);
  const records = load<usize>(p, CLIP_KEYS);
  const slotOut = load<usize>(p, CLIP_SLOT_OUT);
  // Under FLAG_STEP no key interpolates.
  const lerpMask: u32 = flags & FLAG_STEP ? 0 : 0xffffffff;
  for (let g: u32 = 0; g < G; g++) {
    const rec = records + <usize>g * KEYED_RECORD_SIZE;
    const times = load<usize>(rec, KEYED_TIMES);
    const M = <usize>load<u32>(rec, KEYED_MEMBER_COUNT);
    const L = <usize>load<u32>(rec, KEYED_LINEAR_COUNT);
    const outs = slotOut + (<usize>load<u32>(rec, KEYED_FIRST_SLOT) << 2);
    const k = groupKey(rec, t, cursors + <usize>load<u32>(outs));
    const stride = M * CUBIC_KEY_BYTES;
    const a = load<usize>(rec, KEYED_VALUES) + <usize>k * stride;
    const t0 = <f64>load<f32>(times + (<usize>k << 2));
    // Before the first key (k is 0), on a key's time, at the last key or beyond, and under a step.
    if (t <= t0 || k >= (load<u32>(rec, KEYED_LERP_END) & lerpMask)) {
      for (let m: usize = 0; m < M; m++) copy4(a + m * CUBIC_KEY_BYTES + 16, out + <usize>load<u32>(outs + (m << 2)));
      continue;
    }
    const d = <f64>load<f32>(times + (<usize>(k + 1) << 2)) - t0;
    const s = <f32>((t - t0) / d);
    const s2 = s * s;
    const s3 = s2 * s;
    const df = <f32>d;
    const h00 = <f32>2 * s3 - <f32>3 * s2 + <f32>1;
    const h10 = df * (s3 - <f32>2 * s2 + s);
    const h01 = <f32>3 * s2 - <f32>2 * s3;
    const h11 = df * (s3 - s2);
    hermiteMembers(a, stride, out, outs, 0, L, h00, h10, h01, h11, false);
    hermiteMembers(a, stride, out, outs, L, M, h00, h10, h01, h11, true);
  }
}

/**
 * Members `from` … `to` − 1 of a group at the key pair `a` (key k's members) and `a + stride`
 * (key k+1's), into `out` at the members' slot offsets (`outs`): out = h00·v_k + h10·out_k + h01·v_k+1 + h11·in_k+1 on all four lanes, normalised
 * for rotations. The SIMD build splats the four weights once and normalises rotations four at a
 * time (`normalizeLanes4`: one square root for four, the same results as one by one).
 */
// @ts-ignore: decorator
@inline
function hermiteMembers(a: usize, stride: usize, out: usize, outs: usize, from: usize, to: usize, h00: f32, h10: f32, h01: f32, h11: f32, rotation: bool): void {
  if (ASC_FEATURE_SIMD) {
    const w00 = f32x4.splat(h00);
    const w10 = f32x4.splat(h10);
    const w01 = f32x4.splat(h01);
    const w11 = f32x4.splat(h11);
    let m = from;
    if (rotation) {
      for (; m + 4 <= to; m += 4) {
        const k0 = a + m * CUBIC_KEY_BYTES;
        const o = outs + (m << 2);
        normalizeLanes4(
          hermite(k0, stride, w00, w10, w01, w11),
          hermite(k0 + CUBIC_KEY_BYTES, stride, w00, w10, w01, w11),
          hermite(k0 + 2 * CUBIC_KEY_BYTES, stride, w00, w10, w01, w11),
          hermite(k0 + 3 * CUBIC_KEY_BYTES, stride, w00, w10, w01, w11),
          out + <usize>load<u32>(o),
          out + <usize>load<u32>(o, 4),
          out + <usize>load<u32>(o, 8),
          out + <usize>load<u32>(o, 12),
        );
      }
    }
    for (; m < to; m++) {
      const dst = out + <usize>load<u32>(outs + (m << 2));
      const r = hermite(a + m * CUBIC_KEY_BYTES, stride, w00, w10, w01, w11);
      if (rotation) normalizeLane(r, dst);
      else v128.store(dst, r);
    }
  } else {
    for (let m = from; m < to; m++) {
      const k0 = a + m * CUBIC_KEY_BYTES;
      const k1 = k0 + stride;
      const dst = out + <usize>load<u32>(outs + (m << 2));
      for (let c: usize = 0; c < 16; c += 4) {
        store<f32>(dst + c, load<f32>(k0 + c, 16) * h00 + load<f32>(k0 + c, 32) * h10 + load<f32>(k1 + c, 16) * h01 + load<f32>(k1 + c) * h11);
      }
      if (rotation) normalize4(dst, dst);
    }
  }
}

/**
 * SIMD: h00·v_k + h10·out_k + h01·v_k+1 + h11·in_k+1 of the member whose key k starts at `k0`
 * (key k+1 at `k0 + stride`), summed in the scalar build's order.
 */
// @ts-ignore: decorator
@inline
function hermite(k0: usize, stride: usize, w00: v128, w10: v128, w01: v128, w11: v128): v128 {
  const k1 = k0 + stride;
  let r = f32x4.mul(v128.load(k0, 16), w00);
  r = f32x4.add(r, f32x4.mul(v128.load(k0, 32), w10));
  r = f32x4.add(r, f32x4.mul(v128.load(k1, 16), w01));
  return f32x4.add(r, f32x4.mul(v128.load(k1), w11));
}
