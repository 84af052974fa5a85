// The quantized clip sampler: uniform keys (the key grid and closing slice of uniform-clip.ts)
// stored in QUANT_KEY_BYTES per key (assembly/layout.ts QUANT_*): linear slots as three u16 codes
// over their range, rotations as the "smallest three" (the idea of ozz-animation's compressed
// quaternion keys and ACL's rotation formats; the bit layout is ours), rotation slots in groups of
// four stored field by field. A sample decodes keys k0 and k1 and interpolates as the uniform
// sampler does: linear slots lerp the codes and scale once; rotations nlerp (over keys
// sign-aligned at quantization) or slerp. The SIMD build decodes a group of four as structure of
// arrays (ozz's layout) and nlerps it here or slerps it by quat.ts `slerp4`; otherwise rotations
// are decoded to float4s and blended by quat.ts, so both encodings share one definition of the
// rotation blend.
import {
  CLIP_KEYS,
  CLIP_LINEAR_COUNT,
  CLIP_SLOT_COUNT,
  CLIP_SLOT_OUT,
  FLAG_SLERP,
  FLAG_STEP,
  QUANT_KEY_BYTES,
  QUANT_RANGE_SIZE,
  QUANT_ROTATION_MAX,
} from './layout';
import { copy4, nlerpAligned, SLERP_SHARED, slerp4, slerpPrepare, slerpPrepared, slerpShortest, transposeStore } from './quat';
import { pairK0, pairK1, pairW, uniformKeyPair } from './uniform-key';

/** A smallest-three value v (0…QUANT_ROTATION_MAX) is v × ROT_SCALE − ROT_OFFSET, in f32. */
const ROT_SCALE: f32 = <f32>(Math.SQRT2 / <f64>QUANT_ROTATION_MAX);
const ROT_OFFSET: f32 = <f32>Math.SQRT1_2;

/** Decoded rotation keys for the blends, which read memory: two groups of four, twice (SIMD: SoA and float4s). */
const SCRATCH: usize = memory.data(256, 16);

/**
 * i8x16.swizzle patterns placing (a, b, c, w) so that w lands in the largest component's lane
 * (index 0–3) and a, b, c fill the others in order.
 */
const PLACE: usize = memory.data<u8>(
  [
    12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, //
    0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11,
    0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 8, 9, 10, 11,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  ],
  16,
);

/**
 * Decodes one rotation key into the float4 at `out`: its three u16 fields at `a`, `a + stride`,
 * `a + 2 × stride` (stride 2 for a key stored whole, 8 for a member of a group of four). The SIMD
 * branch reads a whole key (8 bytes at `a`; only stride 2 comes here in that build).
 */
// @ts-ignore: decorator
@inline
function decodeRotation(a: usize, stride: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    // Codes fit in i32, so the signed convert (one instruction on x86; the unsigned one is a sequence).
    const fields = i32x4.extend_low_i16x8_u(v128.load64_zero(a)); // lane 3: the next key's bytes
    const flags = i32x4.bitmask(i32x4.shl(fields, 31));
    let abc = f32x4.sub(f32x4.mul(f32x4.convert_i32x4_s(i32x4.shr_u(fields, 1)), f32x4.splat(ROT_SCALE)), f32x4.splat(ROT_OFFSET));
    abc = v128.and(abc, i32x4(-1, -1, -1, 0));
    // (aa + bb) + (cc + 0): the scalar branch's order.
    let d = f32x4.mul(abc, abc);
    d = f32x4.add(d, v128.shuffle<f32>(d, d, 1, 0, 3, 2));
    d = f32x4.add(d, v128.shuffle<f32>(d, d, 2, 3, 0, 1));
    const w = f32x4.sqrt(f32x4.pmax(f32x4.sub(f32x4.splat(1), d), f32x4.splat(0)));
    let q = v128.bitselect(w, abc, i32x4(0, 0, 0, -1));
    q = i8x16.swizzle(q, v128.load(PLACE + (<usize>(flags & 3) << 4)));
    v128.store(out, v128.xor(q, i32x4.splat((flags & 4) << 29)));
  } else {
    const f0 = <u32>load<u16>(a), f1 = <u32>load<u16>(a + stride), f2 = <u32>load<u16>(a + 2 * stride);
    const x = <f32>(f0 >> 1) * ROT_SCALE - ROT_OFFSET;
    const y = <f32>(f1 >> 1) * ROT_SCALE - ROT_OFFSET;
    const z = <f32>(f2 >> 1) * ROT_SCALE - ROT_OFFSET;
    const w = Mathf.sqrt(max<f32>(1 - (x * x + y * y + (z * z + 0)), 0));
    const largest = (f0 & 1) | ((f1 & 1) << 1);
    const s: f32 = f2 & 1 ? -1 : 1;
    // Lanes before the largest take a, b, c in order; the largest takes w; the rest shift by one.
    store<f32>(out, s * (largest == 0 ? w : x));
    store<f32>(out, s * (largest == 1 ? w : largest < 1 ? x : y), 4);
    store<f32>(out, s * (largest == 2 ? w : largest < 2 ? y : z), 8);
    store<f32>(out, s * (largest == 3 ? w : z), 12);
  }
}

/**
 * SIMD: decodes a group of four rotation keys at `a` (field 0 of the four keys, field 1, field 2:
 * 24 bytes) as structure of arrays: x, y, z and w of the four quaternions at `out`, `out + 16`,
 * `out + 32`, `out + 48`. Lane by lane the same f32 operations as `decodeRotation`.
 */
// @ts-ignore: decorator
@inline
function decodeRotations4(a: usize, out: usize): void {
  const f01 = v128.load(a);
  const f0 = i32x4.extend_low_i16x8_u(f01);
  const f1 = i32x4.extend_high_i16x8_u(f01);
  const f2 = i32x4.extend_low_i16x8_u(v128.load64_zero(a, 16));
  const one = i32x4.splat(1);
  const largest = v128.or(v128.and(f0, one), i32x4.shl(v128.and(f1, one), 1));
  const sign = i32x4.shl(f2, 31);
  const scale = f32x4.splat(ROT_SCALE);
  const offset = f32x4.splat(ROT_OFFSET);
  const va = f32x4.sub(f32x4.mul(f32x4.convert_i32x4_s(i32x4.shr_u(f0, 1)), scale), offset);
  const vb = f32x4.sub(f32x4.mul(f32x4.convert_i32x4_s(i32x4.shr_u(f1, 1)), scale), offset);
  const vc = f32x4.sub(f32x4.mul(f32x4.convert_i32x4_s(i32x4.shr_u(f2, 1)), scale), offset);
  const d = f32x4.add(f32x4.add(f32x4.mul(va, va), f32x4.mul(vb, vb)), f32x4.mul(vc, vc));
  // pmax (one maxps): 1 − d is never NaN, and f32x4.max's NaN and −0 rules cost a sequence.
  const vw = f32x4.sqrt(f32x4.pmax(f32x4.sub(f32x4.splat(1), d), f32x4.splat(0)));
  const m0 = i32x4.eq(largest, i32x4.splat(0));
  const m1 = i32x4.eq(largest, one);
  const m2 = i32x4.eq(largest, i32x4.splat(2));
  const m3 = i32x4.eq(largest, i32x4.splat(3));
  // w in the largest component's lane; a, b, c fill the others in order.
  v128.store(out, v128.xor(v128.bitselect(vw, va, m0), sign));
  v128.store(out, v128.xor(v128.bitselect(vw, v128.bitselect(va, vb, m0), m1), sign), 16);
  v128.store(out, v128.xor(v128.bitselect(vw, v128.bitselect(vc, vb, m3), m2), sign), 32);
  v128.store(out, v128.xor(v128.bitselect(vw, vc, m3), sign), 48);
}

/**
 * SIMD: nlerps four quaternions held as structure of arrays (`a`, `b` as `decodeRotations4`
 * writes them) by `w` and stores quaternion i at `d0` … `d3`. Lane by lane the f32 operations
 * of quat.ts `nlerpAligned` on in-range lengths, which sign-aligned unit keys always have
 * (|lerp| ≥ 1/√2).
 */
// @ts-ignore: decorator
@inline
function nlerp4(a: usize, b: usize, w: f32, d0: usize, d1: usize, d2: usize, d3: usize): void {
  const vw = f32x4.splat(w);
  const ax = v128.load(a), ay = v128.load(a, 16), az = v128.load(a, 32), aw = v128.load(a, 48);
  const x = f32x4.add(ax, f32x4.mul(f32x4.sub(v128.load(b), ax), vw));
  const y = f32x4.add(ay, f32x4.mul(f32x4.sub(v128.load(b, 16), ay), vw));
  const z = f32x4.add(az, f32x4.mul(f32x4.sub(v128.load(b, 32), az), vw));
  const q = f32x4.add(aw, f32x4.mul(f32x4.sub(v128.load(b, 48), aw), vw));
  const len = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.add(f32x4.mul(z, z), f32x4.mul(q, q))));
  transposeStore(f32x4.div(x, len), f32x4.div(y, len), f32x4.div(z, len), f32x4.div(q, len), d0, d1, d2, d3);
}

/** SIMD: the four quaternions `decodeRotations4` wrote at `soa`, as one float4 each at `aos`. */
// @ts-ignore: decorator
@inline
function toFloat4s(soa: usize, aos: usize): void {
  transposeStore(v128.load(soa), v128.load(soa, 16), v128.load(soa, 32), v128.load(soa, 48), aos, aos + 16, aos + 32, aos + 48);
}

/**
 * out = (lerp(codes0, codes1, w) × step + min, 0) for the linear key pair at `a`/`b` (6 bytes
 * each; 8 are read) with the range at `range` (min x, y, z, step).
 */
// @ts-ignore: decorator
@inline
function decodeLinear(a: usize, b: usize, w: f32, range: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const q0 = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(v128.load64_zero(a)));
    const q1 = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(v128.load64_zero(b)));
    const r = v128.load(range);
    const q = f32x4.add(q0, f32x4.mul(f32x4.sub(q1, q0), f32x4.splat(w)));
    const v = f32x4.add(f32x4.mul(q, v128.shuffle<f32>(r, r, 3, 3, 3, 3)), r);
    v128.store(out, v128.and(v, i32x4(-1, -1, -1, 0)));
  } else {
    const step = load<f32>(range, 12);
    for (let i: usize = 0; i < 3; i++) {
      const q0 = <f32>load<u16>(a + (i << 1));
      const q = q0 + (<f32>load<u16>(b + (i << 1)) - q0) * w;
      store<f32>(out + (i << 2), q * step + load<f32>(range + (i << 2)));
    }
    store<f32>(out, 0, 12);
  }
}

/**
 * Samples the slots of quantized clip block `p` at `time` seconds into `out` (float4 per curve,
 * at each slot's output offset), with the key pair of uniform-key.ts. `flags`: FLAG_STEP (key k0
 * decoded), FLAG_SLERP (rotations slerped, else nlerp).
 */
export function quantizedSampleSlots(p: usize, time: f64, out: usize, flags: u32): void {
  uniformKeyPair(p, time);
  const S = load<u32>(p, CLIP_SLOT_COUNT);
  const L = load<u32>(p, CLIP_LINEAR_COUNT);
  const slotOut = load<usize>(p, CLIP_SLOT_OUT);
  const ranges = load<usize>(p, CLIP_KEYS);
  const slices = ranges + <usize>L * QUANT_RANGE_SIZE;
  const sliceBytes = <usize>S * QUANT_KEY_BYTES;
  const s0 = slices + <usize>pairK0 * sliceBytes;
  const s1 = flags & FLAG_STEP ? s0 : slices + <usize>pairK1 * sliceBytes;
  const w: f32 = flags & FLAG_STEP ? 0 : pairW;

  for (let j: u32 = 0; j < L; j++) {
    const o = <usize>j * QUANT_KEY_BYTES;
    decodeLinear(s0 + o, s1 + o, w, ranges + <usize>j * QUANT_RANGE_SIZE, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
  }
  const a = SCRATCH;
  const b = SCRATCH + 64;
  const R = S - L;
  const groupsEnd = L + (R & ~3);
  let j = L;
  if (ASC_FEATURE_SIMD) {
    const a4 = SCRATCH + 128;
    const b4 = SCRATCH + 192;
    if (flags & FLAG_SLERP) slerpPrepare(SLERP_SHARED, w);
    for (; j < groupsEnd; j += 4) {
      const o = <usize>j * QUANT_KEY_BYTES;
      const outs = slotOut + (<usize>j << 2);
      const d0 = out + <usize>load<u32>(outs), d1 = out + <usize>load<u32>(outs, 4);
      const d2 = out + <usize>load<u32>(outs, 8), d3 = out + <usize>load<u32>(outs, 12);
      decodeRotations4(s0 + o, a);
      if (flags & FLAG_STEP) {
        transposeStore(v128.load(a), v128.load(a, 16), v128.load(a, 32), v128.load(a, 48), d0, d1, d2, d3);
        continue;
      }
      decodeRotations4(s1 + o, b);
      if ((flags & FLAG_SLERP) == 0) {
        nlerp4(a, b, w, d0, d1, d2, d3);
        continue;
      }
      const rest = slerp4(SLERP_SHARED, v128.load(a), v128.load(a, 16), v128.load(a, 32), v128.load(a, 48), v128.load(b), v128.load(b, 16), v128.load(b, 32), v128.load(b, 48), d0, d1, d2, d3);
      if (rest) {
        // Gaps over 120° or zero results: those quaternions by slerpPrepared, from float4s.
        toFloat4s(a, a4);
        toFloat4s(b, b4);
        if (rest & 1) slerpPrepared(SLERP_SHARED, a4, b4, d0);
        if (rest & 2) slerpPrepared(SLERP_SHARED, a4 + 16, b4 + 16, d1);
        if (rest & 4) slerpPrepared(SLERP_SHARED, a4 + 32, b4 + 32, d2);
        if (rest & 8) slerpPrepared(SLERP_SHARED, a4 + 48, b4 + 48, d3);
      }
    }
  }
  // The scalar build: every rotation; SIMD: those after the last group of four (stored whole).
  for (; j < S; j++) {
    const inGroup = j < groupsEnd;
    const o = inGroup ? <usize>(j - ((j - L) & 3)) * QUANT_KEY_BYTES + (<usize>((j - L) & 3) << 1) : <usize>j * QUANT_KEY_BYTES;
    const stride: usize = inGroup ? 8 : 2;
    const dst = out + <usize>load<u32>(slotOut + (<usize>j << 2));
    decodeRotation(s0 + o, stride, a);
    if (flags & FLAG_STEP) {
      // The decoded key as it is (as the uniform sampler copies its stored key).
      copy4(a, dst);
      continue;
    }
    decodeRotation(s1 + o, stride, b);
    if (flags & FLAG_SLERP) slerpShortest(SLERP_SHARED, a, b, w, dst);
    else nlerpAligned(a, b, w, dst);
  }
}
