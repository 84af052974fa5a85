// The quantized clip sampler: uniform keys (the key grid and closing slice of uniform-clip.ts)
// stored as integer codes (assembly/layout.ts QUANT_*). Linear slots: u16 codes of the components
// that change, over per-component ranges; a sample lerps the codes and scales once. Rotations: the
// four components as i16 (the key × QUANT_ROTATION_SCALE), so that nlerp needs no decode at all —
// the scale cancels in the normalisation, so a sample is the normalised lerp of the codes
// themselves (the float sampler's nlerp, plus one integer-to-float conversion per component);
// slerp and step use the key the codes stand for (code ÷ QUANT_ROTATION_SCALE) with quat.ts's
// slerp. Smallest-three (ozz-animation, ACL) stores rotations in 48 bits but costs a square root
// and a placement per key; this layout spends 2 bytes more per rotation key and saves them on the
// constant components of translations and scales (issue 16, bench/RESULTS.md). The SIMD build
// nlerps (or slerps, quat.ts `slerp4`) a group of four rotations as structure of arrays: a
// group's keys are stored component by component, so they load as two vectors.
import {
  CLIP_KEYS,
  CLIP_LINEAR_COUNT,
  CLIP_SLICE_BYTES,
  CLIP_SLOT_COUNT,
  CLIP_SLOT_OUT,
  FLAG_SLERP,
  FLAG_STEP,
  QUANT_OFFSET_SIZE,
  QUANT_RANGE_MIN,
  QUANT_RANGE_SIZE,
  QUANT_RANGE_STEP,
  QUANT_ROTATION_BYTES,
  QUANT_ROTATION_SCALE,
} from './layout';
import { copy4, nlerpAligned, SLERP_SHARED, slerp4, slerpPrepare, slerpPrepared, slerpShortest, transposeStore } from './quat';
import { touchLines } from './read-ahead';
import { pairK0, pairK1, pairW, uniformKeyPair } from './uniform-key';

/** A rotation key is its codes × DECODE (f32): the stored key within half a code per component. */
const DECODE: f32 = <f32>(1.0 / <f64>QUANT_ROTATION_SCALE);

/** Float4 rotations for the blends, which read memory: a, b; SIMD slerp's leftovers: four a's, four b's. */
const SCRATCH: usize = memory.data(160, 16);

/**
 * Scalar build: out = lerp(codes0, codes1, w) × step + min for the linear slot with the range at
 * `range` and its codes at `a` (key k0) and `b` (key k1); a constant component's code is whatever
 * lies there (another slot's), times its step 0.
 */
// @ts-ignore: decorator
@inline
function sampleLinear(a: usize, b: usize, w: f32, range: usize, out: usize): void {
  for (let i: usize = 0; i < 4; i++) {
    const q0 = <f32>load<u16>(a + (i << 1));
    const q = q0 + (<f32>load<u16>(b + (i << 1)) - q0) * w;
    store<f32>(out + (i << 2), q * load<f32>(range + QUANT_RANGE_STEP + (i << 2)) + load<f32>(range + QUANT_RANGE_MIN + (i << 2)));
  }
}

/**
 * The rotation codes at `at` (component i at `at + i × stride`: 2 for a key stored whole, 8 for a
 * member of a group of four) × `scale` as a float4 at `out`.
 */
// @ts-ignore: decorator
@inline
function loadRotation(at: usize, stride: usize, scale: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    // Only keys stored whole come here in this build.
    v128.store(out, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(v128.load64_zero(at))), f32x4.splat(scale)));
  } else {
    for (let i: usize = 0; i < 4; i++) store<f32>(out + (i << 2), <f32>load<i16>(at + i * stride) * scale);
  }
}

/** SIMD: the linear slot whose codes lie at `o` in slices s0 and s1, lerped by `vw`, scaled by its range into `dst`. */
// @ts-ignore: decorator
@inline
function linearSlot(s0: usize, s1: usize, o: usize, vw: v128, range: usize, dst: usize): void {
  const q0 = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(v128.load64_zero(s0 + o)));
  const q1 = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(v128.load64_zero(s1 + o)));
  const q = f32x4.add(q0, f32x4.mul(f32x4.sub(q1, q0), vw));
  v128.store(dst, f32x4.add(f32x4.mul(q, v128.load(range, QUANT_RANGE_STEP)), v128.load(range, QUANT_RANGE_MIN)));
}

/** SIMD: rotation codes 0–3 (low) or 4–7 (high) of eight i16 as f32. */
// @ts-ignore: decorator
@inline
function codesLow(v: v128): v128 {
  return f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(v));
}

// @ts-ignore: decorator
@inline
function codesHigh(v: v128): v128 {
  return f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(v));
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
  const keys = load<usize>(p, CLIP_KEYS);
  const sliceBytes = <usize>load<u32>(p, CLIP_SLICE_BYTES);
  const ranges = keys;
  const offsets = ranges + <usize>L * QUANT_RANGE_SIZE;
  const slices = offsets + <usize>L * QUANT_OFFSET_SIZE;
  const s0 = slices + <usize>pairK0 * sliceBytes;
  const s1 = flags & FLAG_STEP ? s0 : slices + <usize>pairK1 * sliceBytes;
  const w: f32 = flags & FLAG_STEP ? 0 : pairW;

  if (ASC_FEATURE_SIMD) {
    const vw = f32x4.splat(w);
    // Component i's code in lane i; the other lanes' codes (w, constant components) count × 0.
    // Four slots a turn: the loop's own work is a good part of so short a body.
    let j: u32 = 0;
    for (; j + 4 <= L; j += 4) {
      const offs = offsets + (<usize>j << 2);
      const range = ranges + <usize>j * QUANT_RANGE_SIZE;
      const outs = slotOut + (<usize>j << 2);
      linearSlot(s0, s1, <usize>load<u32>(offs), vw, range, out + <usize>load<u32>(outs));
      linearSlot(s0, s1, <usize>load<u32>(offs, 4), vw, range + QUANT_RANGE_SIZE, out + <usize>load<u32>(outs, 4));
      linearSlot(s0, s1, <usize>load<u32>(offs, 8), vw, range + 2 * QUANT_RANGE_SIZE, out + <usize>load<u32>(outs, 8));
      linearSlot(s0, s1, <usize>load<u32>(offs, 12), vw, range + 3 * QUANT_RANGE_SIZE, out + <usize>load<u32>(outs, 12));
    }
    for (; j < L; j++) {
      linearSlot(s0, s1, <usize>load<u32>(offsets + (<usize>j << 2)), vw, ranges + <usize>j * QUANT_RANGE_SIZE, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
  } else {
    for (let j: u32 = 0; j < L; j++) {
      const o = <usize>load<u32>(offsets + (<usize>j << 2));
      sampleLinear(s0 + o, s1 + o, w, ranges + <usize>j * QUANT_RANGE_SIZE, out + <usize>load<u32>(slotOut + (<usize>j << 2)));
    }
  }
  const a = SCRATCH;
  const b = SCRATCH + 16;
  const R = S - L;
  const groups = R & ~3;
  let r: u32 = 0;
  if (ASC_FEATURE_SIMD) {
    // One loop per mode, the mode tested once: in a loop that tests it per group, the slerp path's
    // needs made V8 spill the group's codes to the stack on every turn, and those stores, at an
    // address that moves with the caller's stack depth, slowed the nlerp loop by 13–21 % in
    // some processes and not others (4 KiB aliasing of the spills with the loop's loads).
    const vw = f32x4.splat(w);
    const decode = f32x4.splat(DECODE);
    if (flags & FLAG_STEP) {
      for (; r < groups; r += 4) {
        const a01 = v128.load(s0 + <usize>r * QUANT_ROTATION_BYTES), a23 = v128.load(s0 + <usize>r * QUANT_ROTATION_BYTES, 16);
        const outs = slotOut + (<usize>(L + r) << 2);
        transposeStore(
          f32x4.mul(codesLow(a01), decode),
          f32x4.mul(codesHigh(a01), decode),
          f32x4.mul(codesLow(a23), decode),
          f32x4.mul(codesHigh(a23), decode),
          out + <usize>load<u32>(outs),
          out + <usize>load<u32>(outs, 4),
          out + <usize>load<u32>(outs, 8),
          out + <usize>load<u32>(outs, 12),
        );
      }
    } else if ((flags & FLAG_SLERP) == 0) {
      for (; r < groups; r += 4) {
        const o = <usize>r * QUANT_ROTATION_BYTES;
        const a01 = v128.load(s0 + o), a23 = v128.load(s0 + o, 16);
        const b01 = v128.load(s1 + o), b23 = v128.load(s1 + o, 16);
        const ax = codesLow(a01), ay = codesHigh(a01), az = codesLow(a23), aw = codesHigh(a23);
        // quat.ts `nlerpAligned` lane by lane (its dot4's order of sums); the codes' lengths are
        // ≈ QUANT_ROTATION_SCALE, far from its zero and overflow cases.
        const x = f32x4.add(ax, f32x4.mul(f32x4.sub(codesLow(b01), ax), vw));
        const y = f32x4.add(ay, f32x4.mul(f32x4.sub(codesHigh(b01), ay), vw));
        const z = f32x4.add(az, f32x4.mul(f32x4.sub(codesLow(b23), az), vw));
        const q = f32x4.add(aw, f32x4.mul(f32x4.sub(codesHigh(b23), aw), vw));
        const len = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.add(f32x4.mul(z, z), f32x4.mul(q, q))));
        const outs = slotOut + (<usize>(L + r) << 2);
        transposeStore(
          f32x4.div(x, len),
          f32x4.div(y, len),
          f32x4.div(z, len),
          f32x4.div(q, len),
          out + <usize>load<u32>(outs),
          out + <usize>load<u32>(outs, 4),
          out + <usize>load<u32>(outs, 8),
          out + <usize>load<u32>(outs, 12),
        );
      }
    } else {
      slerpPrepare(SLERP_SHARED, w);
      for (; r < groups; r += 4) {
        const o = <usize>r * QUANT_ROTATION_BYTES;
        const outs = slotOut + (<usize>(L + r) << 2);
        const d0 = out + <usize>load<u32>(outs), d1 = out + <usize>load<u32>(outs, 4);
        const d2 = out + <usize>load<u32>(outs, 8), d3 = out + <usize>load<u32>(outs, 12);
        const a01 = v128.load(s0 + o), a23 = v128.load(s0 + o, 16);
        const b01 = v128.load(s1 + o), b23 = v128.load(s1 + o, 16);
        const ax = f32x4.mul(codesLow(a01), decode), ay = f32x4.mul(codesHigh(a01), decode);
        const az = f32x4.mul(codesLow(a23), decode), aw = f32x4.mul(codesHigh(a23), decode);
        const bx = f32x4.mul(codesLow(b01), decode), by = f32x4.mul(codesHigh(b01), decode);
        const bz = f32x4.mul(codesLow(b23), decode), bw = f32x4.mul(codesHigh(b23), decode);
        const rest = slerp4(SLERP_SHARED, ax, ay, az, aw, bx, by, bz, bw, d0, d1, d2, d3);
        if (rest) {
          // Gaps over 20° or zero results: those quaternions by slerpPrepared, from float4s.
          const a4 = SCRATCH + 32;
          const b4 = SCRATCH + 96;
          transposeStore(ax, ay, az, aw, a4, a4 + 16, a4 + 32, a4 + 48);
          transposeStore(bx, by, bz, bw, b4, b4 + 16, b4 + 32, b4 + 48);
          if (rest & 1) slerpPrepared(SLERP_SHARED, a4, b4, d0);
          if (rest & 2) slerpPrepared(SLERP_SHARED, a4 + 16, b4 + 16, d1);
          if (rest & 4) slerpPrepared(SLERP_SHARED, a4 + 32, b4 + 32, d2);
          if (rest & 8) slerpPrepared(SLERP_SHARED, a4 + 48, b4 + 48, d3);
        }
      }
    }
  }
  // The scalar build: every rotation; SIMD: those after the last group of four (stored whole).
  for (; r < R; r++) {
    const inGroup = r < groups;
    const o = inGroup ? <usize>(r & ~3) * QUANT_ROTATION_BYTES + (<usize>(r & 3) << 1) : <usize>r * QUANT_ROTATION_BYTES;
    const stride: usize = inGroup ? 8 : 2;
    const dst = out + <usize>load<u32>(slotOut + (<usize>(L + r) << 2));
    // nlerp blends the codes themselves (the scale cancels); step and slerp the keys they stand for.
    const scale: f32 = flags & (FLAG_STEP | FLAG_SLERP) ? DECODE : 1;
    loadRotation(s0 + o, stride, scale, a);
    if (flags & FLAG_STEP) {
      copy4(a, dst);
      continue;
    }
    loadRotation(s1 + o, stride, scale, b);
    if (flags & FLAG_SLERP) slerpShortest(SLERP_SHARED, a, b, w, dst);
    else nlerpAligned(a, b, w, dst);
  }
}

/**
 * Reads ahead (read-ahead.ts) what a sample of quantized clip block `p` at `time` reads: the
 * block from its header to the code offsets (slot table, counts, ranges: one run) and the two
 * slices of the key pair; returns the sum of the words read.
 */
export function quantizedReadAhead(p: usize, time: f64): u32 {
  uniformKeyPair(p, time);
  const bytes = <usize>load<u32>(p, CLIP_SLICE_BYTES);
  const slices = load<usize>(p, CLIP_KEYS) + <usize>load<u32>(p, CLIP_LINEAR_COUNT) * (QUANT_RANGE_SIZE + QUANT_OFFSET_SIZE);
  return touchLines(p, slices - p) + touchLines(slices + <usize>pairK0 * bytes, bytes) + touchLines(slices + <usize>pairK1 * bytes, bytes);
}
