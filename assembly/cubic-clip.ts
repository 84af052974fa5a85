// The cubic-spline clip sampler (glTF 2.0 Appendix C "Cubic Spline Interpolation"): every slot has
// its own key times and, per key, an in-tangent, a value and an out-tangent (three float4s,
// CUBIC_KEY_BYTES), one KEYED_* record per slot at CLIP_KEYS. Between keys k and k+1, with d = t[k+1] − t[k]
// and s = (t − t[k]) / d: (2s³−3s²+1)·v_k + d(s³−2s²+s)·b_k + (−2s³+3s²)·v_k+1 + d(s³−s²)·a_k+1,
// rotations normalised after. Before the first key, from the last key on, on a key's exact time
// and with FLAG_STEP the key's value as stored (tangents never leak out). Cursors as the keyed
// sampler's.
import { wrapCycle } from './clip-header';
import { findKey } from './keyed-clip';
import { CLIP_KEYS, CLIP_LINEAR_COUNT, CLIP_SLOT_COUNT, CLIP_SLOT_OUT, CUBIC_KEY_BYTES, FLAG_STEP, KEYED_KEY_COUNT, KEYED_RECORD_SIZE, KEYED_TIMES, KEYED_VALUES } from './layout';
import { copy4, normalize4 } from './quat';

/** Samples the slots of cubic clip block `p` at `time` seconds into `out`; `cursors` as `keyedSampleSlots`. */
export function cubicSampleSlots(p: usize, time: f64, out: usize, cursors: usize, flags: u32): void {
  const t = wrapCycle(p, time);
  const S = load<u32>(p, CLIP_SLOT_COUNT);
  const L = load<u32>(p, CLIP_LINEAR_COUNT);
  const records = load<usize>(p, CLIP_KEYS);
  const slotOut = load<usize>(p, CLIP_SLOT_OUT);
  const step = (flags & FLAG_STEP) != 0;
  for (let j: u32 = 0; j < S; j++) {
    const rec = records + <usize>j * KEYED_RECORD_SIZE;
    const n = load<u32>(rec, KEYED_KEY_COUNT);
    const times = load<usize>(rec, KEYED_TIMES);
    const values = load<usize>(rec, KEYED_VALUES);
    const outOffset = load<u32>(slotOut + (<usize>j << 2));
    const dst = out + <usize>outOffset;
    if (t < <f64>load<f32>(times)) {
      copy4(values + 16, dst);
      continue;
    }
    const cursorAt = cursors + <usize>outOffset;
    const k = findKey(times, n, t, load<u32>(cursorAt));
    store<u32>(cursorAt, k);
    const a = values + <usize>k * CUBIC_KEY_BYTES;
    const t0 = <f64>load<f32>(times + (<usize>k << 2));
    if (step || k + 1 >= n || t == t0) {
      copy4(a + 16, dst);
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
    const b = a + CUBIC_KEY_BYTES;
    hermite4(a + 16, a + 32, b + 16, b, h00, h10, h01, h11, dst);
    if (j >= L) normalize4(dst, dst);
  }
}

/** out = h00·v0 + h10·out0 + h01·v1 + h11·in1 on all four lanes. */
// @ts-ignore: decorator
@inline
function hermite4(v0: usize, out0: usize, v1: usize, in1: usize, h00: f32, h10: f32, h01: f32, h11: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    let r = f32x4.mul(v128.load(v0), f32x4.splat(h00));
    r = f32x4.add(r, f32x4.mul(v128.load(out0), f32x4.splat(h10)));
    r = f32x4.add(r, f32x4.mul(v128.load(v1), f32x4.splat(h01)));
    v128.store(out, f32x4.add(r, f32x4.mul(v128.load(in1), f32x4.splat(h11))));
  } else {
    for (let c: usize = 0; c < 16; c += 4) {
      store<f32>(out + c, load<f32>(v0 + c) * h00 + load<f32>(out0 + c) * h10 + load<f32>(v1 + c) * h01 + load<f32>(in1 + c) * h11);
    }
  }
}
