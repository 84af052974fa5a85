// The quantized clip sampler: uniform keys (the key grid and closing slice of uniform-clip.ts)
// stored as integer codes (assembly/layout.ts QUANT_*). Linear slots: u16 codes of the components
// that change, over per-component ranges, in groups of four slots with the same changing
// components, stored component by component: the SIMD build lerps and scales a component of the
// four at once (every lane useful) and transposes the group into its four outputs. Rotations: the
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
  CLIP_QUANT_SLICES,
  CLIP_SLICE_BYTES,
  CLIP_SLOT_COUNT,
  CLIP_SLOT_OUT,
  FLAG_SLERP,
  FLAG_STEP,
  QUANT_CODE_BYTES,
  QUANT_GROUP_COUNTS,
  QUANT_RANGE_MINS,
  QUANT_RANGE_STEP,
  QUANT_RANGES,
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

/** The number of components (bits) of changing-component mask `m` (0 … 7). */
// @ts-ignore: decorator
@inline
function componentCount(m: u32): u32 {
  return (m & 1) + ((m >> 1) & 1) + (m >> 2);
}

/** Bytes of the range of a group whose changing-component mask is `m`. */
// @ts-ignore: decorator
@inline
function rangeBytes(m: u32): usize {
  return QUANT_RANGE_MINS + <usize>componentCount(m) * QUANT_RANGE_STEP;
}

/** SIMD: the u16 codes of rank `r` (0 … 2) among a group's changing components as i32 lanes: from `v01` (ranks 0, 1) or `v2`. */
// @ts-ignore: decorator
@inline
function codesOfRank(r: u32, v01: v128, v2: v128): v128 {
  return r == 0 ? i32x4.extend_low_i16x8_u(v01) : r == 1 ? i32x4.extend_high_i16x8_u(v01) : i32x4.extend_low_i16x8_u(v2);
}

/**
 * SIMD: component `c` (rank `r` among the changing ones) of a group's four slots from their codes
 * in keys k0 (`a`) and k1 (`b`), as i32 lanes: lerp(a, b, w) × step + min, in the f32 operations
 * of the scalar `linearComponent`.
 */
// @ts-ignore: decorator
@inline
function linearLanes(a: v128, b: v128, vw: v128, range: usize, c: u32, r: u32): v128 {
  const q0 = f32x4.convert_i32x4_s(a);
  const q = f32x4.add(q0, f32x4.mul(f32x4.sub(f32x4.convert_i32x4_s(b), q0), vw));
  return f32x4.add(f32x4.mul(q, v128.load(range + QUANT_RANGE_MINS + <usize>r * QUANT_RANGE_STEP)), v128.load(range + (<usize>c << 4)));
}

/**
 * SIMD: the group of four linear slots with changing-component mask `m` (a constant where
 * inlined) whose codes lie at byte `o` of slices s0 and s1 and whose range is at `range`: per
 * component four lanes, `linearLanes` where it changes, min where not; w 0; stored at the outputs
 * of the four slot table entries from `outs` on.
 */
// @ts-ignore: decorator
@inline
function linearGroup(m: u32, s0: usize, s1: usize, o: usize, vw: v128, range: usize, outs: usize, out: usize): void {
  const n = componentCount(m);
  // Ranks 0 and 1 from one load (8 bytes for one component), rank 2 from the next 8 bytes.
  const a01 = n == 1 ? v128.load64_zero(s0 + o) : v128.load(s0 + o);
  const b01 = n == 1 ? v128.load64_zero(s1 + o) : v128.load(s1 + o);
  const a2 = n == 3 ? v128.load64_zero(s0 + o, 2 * QUANT_CODE_BYTES) : a01;
  const b2 = n == 3 ? v128.load64_zero(s1 + o, 2 * QUANT_CODE_BYTES) : b01;
  const ry = m & 1, rz = (m & 1) + ((m >> 1) & 1);
  const x = m & 1 ? linearLanes(codesOfRank(0, a01, a2), codesOfRank(0, b01, b2), vw, range, 0, 0) : v128.load(range);
  const y = m & 2 ? linearLanes(codesOfRank(ry, a01, a2), codesOfRank(ry, b01, b2), vw, range, 1, ry) : v128.load(range, 16);
  const z = m & 4 ? linearLanes(codesOfRank(rz, a01, a2), codesOfRank(rz, b01, b2), vw, range, 2, rz) : v128.load(range, 32);
  transposeStore(x, y, z, f32x4.splat(0), out + <usize>load<u32>(outs), out + <usize>load<u32>(outs, 4), out + <usize>load<u32>(outs, 8), out + <usize>load<u32>(outs, 12));
}

/**
 * Scalar build: component `c` (rank `r` among the changing ones) of lane `lane` of the group whose
 * codes lie at `a` (key k0) and `b` (key k1) and whose range is at `range`: lerp × step + min.
 */
// @ts-ignore: decorator
@inline
function linearComponent(a: usize, b: usize, w: f32, range: usize, lane: usize, c: usize, r: usize): f32 {
  const at = r * QUANT_CODE_BYTES + (lane << 1);
  const q0 = <f32>load<u16>(a + at);
  const q = q0 + (<f32>load<u16>(b + at) - q0) * w;
  return q * load<f32>(range + QUANT_RANGE_MINS + r * QUANT_RANGE_STEP + (lane << 2)) + load<f32>(range + (c << 4) + (lane << 2));
}

/**
 * The linear groups of changing-component mask `m` (`count` of them) from code byte `o`, range
 * `range` and slot table entry `outs` on, each `linearGroup` (SIMD) or four lanes of
 * `linearComponent` (scalar).
 */
// @ts-ignore: decorator
@inline
function linearGroups(m: u32, count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  const codeBytes = <usize>componentCount(m) * QUANT_CODE_BYTES;
  for (let g: u32 = 0; g < count; g++) {
    if (ASC_FEATURE_SIMD) {
      linearGroup(m, s0, s1, o, f32x4.splat(w), range, outs, out);
    } else {
      const ry: usize = m & 1, rz: usize = (m & 1) + ((m >> 1) & 1);
      for (let lane: usize = 0; lane < 4; lane++) {
        const dst = out + <usize>load<u32>(outs + (lane << 2));
        store<f32>(dst, m & 1 ? linearComponent(s0 + o, s1 + o, w, range, lane, 0, 0) : load<f32>(range + (lane << 2)));
        store<f32>(dst, m & 2 ? linearComponent(s0 + o, s1 + o, w, range, lane, 1, ry) : load<f32>(range + 16 + (lane << 2)), 4);
        store<f32>(dst, m & 4 ? linearComponent(s0 + o, s1 + o, w, range, lane, 2, rz) : load<f32>(range + 32 + (lane << 2)), 8);
        store<f32>(dst, 0, 12);
      }
    }
    o += codeBytes;
    range += rangeBytes(m);
    outs += 16;
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

// One function per mask, each inlining `linearGroups` with its mask a constant, so that the
// component tests and code loads fold away: called straight from one if-chain, Binaryen folded the
// eight inlined copies back into one loop with the mask in a local (every component computed,
// selects; 0.91× of the current quantized sampler where these run at 1.13×).
function linearGroups0(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(0, count, s0, s1, o, w, range, outs, out);
}
function linearGroups1(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(1, count, s0, s1, o, w, range, outs, out);
}
function linearGroups2(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(2, count, s0, s1, o, w, range, outs, out);
}
function linearGroups3(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(3, count, s0, s1, o, w, range, outs, out);
}
function linearGroups4(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(4, count, s0, s1, o, w, range, outs, out);
}
function linearGroups5(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(5, count, s0, s1, o, w, range, outs, out);
}
function linearGroups6(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(6, count, s0, s1, o, w, range, outs, out);
}
function linearGroups7(count: u32, s0: usize, s1: usize, o: usize, w: f32, range: usize, outs: usize, out: usize): void {
  linearGroups(7, count, s0, s1, o, w, range, outs, out);
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
  const slices = keys + <usize>load<u32>(p, CLIP_QUANT_SLICES);
  const s0 = slices + <usize>pairK0 * sliceBytes;
  const s1 = flags & FLAG_STEP ? s0 : slices + <usize>pairK1 * sliceBytes;
  const w: f32 = flags & FLAG_STEP ? 0 : pairW;

  // The linear groups by mask: their codes after the rotations, ranges and slot table entries in turn.
  let o = <usize>(S - L) * QUANT_ROTATION_BYTES;
  let range = keys + QUANT_RANGES;
  let outs = slotOut;
  const counts = keys + QUANT_GROUP_COUNTS;
  for (let m: u32 = 0; m < 8; m++) {
    const count = load<u32>(counts + (<usize>m << 2));
    if (count == 0) continue;
    if (m == 0) linearGroups0(count, s0, s1, o, w, range, outs, out);
    else if (m == 1) linearGroups1(count, s0, s1, o, w, range, outs, out);
    else if (m == 2) linearGroups2(count, s0, s1, o, w, range, outs, out);
    else if (m == 3) linearGroups3(count, s0, s1, o, w, range, outs, out);
    else if (m == 4) linearGroups4(count, s0, s1, o, w, range, outs, out);
    else if (m == 5) linearGroups5(count, s0, s1, o, w, range, outs, out);
    else if (m == 6) linearGroups6(count, s0, s1, o, w, range, outs, out);
    else linearGroups7(count, s0, s1, o, w, range, outs, out);
    o += <usize>count * componentCount(m) * QUANT_CODE_BYTES;
    range += <usize>count * rangeBytes(m);
    outs += <usize>count << 4;
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
 * block from its header to the ranges (slot table, counts, group counts, ranges: one run) and the two
 * slices of the key pair; returns the sum of the words read.
 */
export function quantizedReadAhead(p: usize, time: f64): u32 {
  uniformKeyPair(p, time);
  const bytes = <usize>load<u32>(p, CLIP_SLICE_BYTES);
  const keys = load<usize>(p, CLIP_KEYS);
  const slices = keys + <usize>load<u32>(p, CLIP_QUANT_SLICES);
  return touchLines(p, slices - p) + touchLines(slices + <usize>pairK0 * bytes, bytes) + touchLines(slices + <usize>pairK1 * bytes, bytes);
}
