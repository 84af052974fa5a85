// The quantized clip sampler: uniform keys (the key grid and closing slice of uniform-clip.ts)
// stored as integer codes (assembly/layout.ts QUANT_*). Linear slots: u16 codes of the components
// that change, over per-component ranges, in groups of four slots with the same changing
// components, stored component by component: the SIMD build lerps and scales a component of the
// four at once (every lane useful) and transposes the group into its four outputs. Rotations:
// smallest three in 48 bits (three 15-bit words, the omitted component's index and sign in their
// bit 0; ozz-animation's and ACL's idea), decoded for keys k0 and k1 and nlerped, slerped (quat.ts)
// or (step) returned as the float sampler does with its keys. The SIMD build takes a group of four
// rotations as structure of arrays (ozz's layout): a group's words are stored word by word, so a
// key of the group is two loads, the omitted components come from one f32x4.sqrt and are placed by
// lane masks of the index bits (no branch per key). Its nlerp blends the two keys before placing
// them when both have the same index and sign (neighbouring keys nearly always do: the quantizer
// keeps an index while it may), and redoes, after the loop, the groups where they differ; groups of
// curves that omit w in every key (sorted first) need neither the placement nor the check.
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
  QUANT_ROTATION_WORD_MAX,
  QUANT_W_ROTATIONS,
} from './layout';
import { copy4, nlerpAligned, nlerpAlignedLanes4, SLERP_SHARED, slerpPrepare, slerpPrepared4, slerpShortest, transposeStore } from './quat';
import { pairK0, pairK1, pairW, uniformKeyPair } from './uniform-key';

// A key is decoded in word units (a word v stands for v × ROTATION_STEP): the omitted component is
// √(ROTATION_UNIT_SQ − ((a² + b²) + c²)); nlerp, whose normalisation cancels the scale, takes the
// key as it is, step and slerp take it × ROTATION_STEP. Twins in src/core/encodings/quantize.ts.
/** One unit of a rotation word, f32. */
const ROTATION_STEP: f32 = <f32>(0.7071067811865476 / <f64>QUANT_ROTATION_WORD_MAX);
/** A unit quaternion's squared length in word units, (QUANT_ROTATION_WORD_MAX / √½)², f32. */
const ROTATION_UNIT_SQ: f32 = <f32>(2.0 * <f64>QUANT_ROTATION_WORD_MAX * <f64>QUANT_ROTATION_WORD_MAX);

/** Float4 rotations for the blends, which read memory: a, b; SIMD: two groups of four keys decoded (float4s). */
const SCRATCH: usize = memory.data(160, 16);
const GROUP_KEYS: usize = SCRATCH + 32;
/** SIMD nlerp: rotations blended per pass (`blendGroups`), and their blends, 64 bytes a group of four. */
const BLEND_CHUNK: u32 = 64;
const BLENDED: usize = memory.data(<i32>BLEND_CHUNK * 16, 16);

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

/** SIMD: 2²³, the f32 whose bit pattern is 0x4B000000: with a u16 code in its low bits it is 2²³ + code (`biasedOfRank`). */
const CODE_BIAS: f32 = 8388608;

/**
 * SIMD: the u16 codes of rank `r` (0 … 2) among a group's changing components, from `v01` (ranks
 * 0, 1) or `v2`, as f32 lanes 2²³ + code: each code interleaved with 0x4B00, one shuffle and no
 * conversion instruction.
 */
// @ts-ignore: decorator
@inline
function biasedOfRank(r: u32, v01: v128, v2: v128): v128 {
  const bias = i16x8.splat(0x4b00);
  return r == 0 ? v128.shuffle<i16>(v01, bias, 0, 8, 1, 9, 2, 10, 3, 11) : r == 1 ? v128.shuffle<i16>(v01, bias, 4, 12, 5, 13, 6, 14, 7, 15) : v128.shuffle<i16>(v2, bias, 0, 8, 1, 9, 2, 10, 3, 11);
}

/**
 * SIMD: component `c` (rank `r` among the changing ones) of a group's four slots from their codes
 * in keys k0 (`a`) and k1 (`b`), as `biasedOfRank` lanes: lerp(a, b, w) × step + min. Taking 2²³
 * from a lane, or one lane from the other, is exact, so these are the f32 operations of the
 * scalar `linearComponent`.
 */
// @ts-ignore: decorator
@inline
function linearLanes(a: v128, b: v128, vw: v128, range: usize, c: u32, r: u32): v128 {
  const q = f32x4.add(f32x4.sub(a, f32x4.splat(CODE_BIAS)), f32x4.mul(f32x4.sub(b, a), vw));
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
function linearGroup(m: u32, ka: usize, kb: usize, vw: v128, range: usize, outs: usize, out: usize): void {
  const n = componentCount(m);
  // Ranks 0 and 1 from one load (8 bytes for one component), rank 2 from the next 8 bytes.
  const a01 = n == 1 ? v128.load64_zero(ka) : v128.load(ka);
  const b01 = n == 1 ? v128.load64_zero(kb) : v128.load(kb);
  const a2 = n == 3 ? v128.load64_zero(ka, 2 * QUANT_CODE_BYTES) : a01;
  const b2 = n == 3 ? v128.load64_zero(kb, 2 * QUANT_CODE_BYTES) : b01;
  const ry = m & 1, rz = (m & 1) + ((m >> 1) & 1);
  const x = m & 1 ? linearLanes(biasedOfRank(0, a01, a2), biasedOfRank(0, b01, b2), vw, range, 0, 0) : v128.load(range);
  const y = m & 2 ? linearLanes(biasedOfRank(ry, a01, a2), biasedOfRank(ry, b01, b2), vw, range, 1, ry) : v128.load(range, 16);
  const z = m & 4 ? linearLanes(biasedOfRank(rz, a01, a2), biasedOfRank(rz, b01, b2), vw, range, 2, rz) : v128.load(range, 32);
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
  // By pointer (the two keys' codes, range, slot table entry): fewer live values than a counter and offsets.
  const end = outs + (<usize>count << 4);
  for (let a = s0 + o, b = s1 + o; outs < end; a += codeBytes, b += codeBytes, range += rangeBytes(m), outs += 16) {
    if (ASC_FEATURE_SIMD) {
      linearGroup(m, a, b, f32x4.splat(w), range, outs, out);
    } else {
      const ry: usize = m & 1, rz: usize = (m & 1) + ((m >> 1) & 1);
      for (let lane: usize = 0; lane < 4; lane++) {
        const dst = out + <usize>load<u32>(outs + (lane << 2));
        store<f32>(dst, m & 1 ? linearComponent(a, b, w, range, lane, 0, 0) : load<f32>(range + (lane << 2)));
        store<f32>(dst, m & 2 ? linearComponent(a, b, w, range, lane, 1, ry) : load<f32>(range + 16 + (lane << 2)), 4);
        store<f32>(dst, m & 4 ? linearComponent(a, b, w, range, lane, 2, rz) : load<f32>(range + 32 + (lane << 2)), 8);
        store<f32>(dst, 0, 12);
      }
    }
  }
}

/**
 * The rotation key whose three words lie at `at`, `at + stride`, `at + 2 × stride` (stride 2 for
 * a key stored whole, 8 for a member of a group of four), decoded as a unit float4 at `out`: per
 * key the f32 operations of `decodeGroup`, so both builds decode alike.
 */
function decodeRotation(at: usize, stride: usize, out: usize): void {
  const w0 = <i32>load<i16>(at), w1 = <i32>load<i16>(at + stride), w2 = <i32>load<i16>(at + (stride << 1));
  const a = <f32>w0, b = <f32>w1, c = <f32>w2;
  let l = Mathf.sqrt(ROTATION_UNIT_SQ - (a * a + b * b + c * c));
  if (w2 & 1) l = -l;
  const omitted = (w0 & 1) | ((w1 & 1) << 1);
  // The three stored components in x, y, z, w order around the omitted one.
  store<f32>(out + (<usize>omitted << 2), l * ROTATION_STEP);
  store<f32>(out + (omitted == 0 ? 4 : 0), a * ROTATION_STEP);
  store<f32>(out + (omitted <= 1 ? 8 : 4), b * ROTATION_STEP);
  store<f32>(out + (omitted == 3 ? 8 : 12), c * ROTATION_STEP);
}

/**
 * SIMD: the magnitudes of the omitted components of four keys in word units from their smallest
 * three a, b, c. No clamp at 0: the omitted component is ½ or more in magnitude (quantize.ts).
 */
// @ts-ignore: decorator
@inline
function omitted4(a: v128, b: v128, c: v128): v128 {
  return f32x4.sqrt(f32x4.sub(f32x4.splat(ROTATION_UNIT_SQ), f32x4.add(f32x4.add(f32x4.mul(a, a), f32x4.mul(b, b)), f32x4.mul(c, c))));
}

/** SIMD: bit 0 of four i32 words as lane masks. */
// @ts-ignore: decorator
@inline
function bit0(words: v128): v128 {
  return i32x4.shr_s(i32x4.shl(words, 31), 31);
}

/** SIMD: `l` with the sign that bit 0 of the third words (i32x4) gives it. */
// @ts-ignore: decorator
@inline
function withSign(l: v128, cWords: v128): v128 {
  return v128.xor(l, i32x4.shl(cWords, 31));
}

/** SIMD: a + (b − a) × w on four lanes. */
// @ts-ignore: decorator
@inline
function lerpLanes(a: v128, b: v128, w: v128): v128 {
  return f32x4.add(a, f32x4.mul(f32x4.sub(b, a), w));
}

/**
 * SIMD: stores x, y, z, w of four keys, from their stored components a, b, c and omitted one l
 * (signed), placed by the lane masks of the index bits, lo and hi (index 0: l a b c, 1: a l b c,
 * 2: a b l c, 3: a b c l), at `d0` … `d3` (one key each). Xors instead of selects: with
 * ta = (a ^ l) & (lo | hi), uh = (b ^ l) & hi, va = (c ^ l) & lo & hi: x = l ^ ta,
 * y = a ^ ta ^ uh, z = b ^ uh ^ va, w = c ^ va (14 operations; bitselects take 20).
 */
// @ts-ignore: decorator
@inline
function placeStore(a: v128, b: v128, c: v128, l: v128, lo: v128, hi: v128, d0: usize, d1: usize, d2: usize, d3: usize): void {
  const ta = v128.and(v128.xor(a, l), v128.or(lo, hi));
  const uh = v128.and(v128.xor(b, l), hi);
  const va = v128.and(v128.xor(c, l), v128.and(lo, hi));
  transposeStore(v128.xor(l, ta), v128.xor(v128.xor(a, ta), uh), v128.xor(v128.xor(b, uh), va), v128.xor(c, va), d0, d1, d2, d3);
}

/**
 * SIMD: the four keys of the group whose words lie at `at` (four first words, then second, third),
 * decoded as unit float4s at `d0` … `d3` (member m at d_m) — per key the f32 operations of the
 * scalar `decodeRotation`.
 */
function decodeGroup(at: usize, d0: usize, d1: usize, d2: usize, d3: usize): void {
  const ab = v128.load(at);
  const wa = i32x4.extend_low_i16x8_s(ab), wb = i32x4.extend_high_i16x8_s(ab), wc = i32x4.extend_low_i16x8_s(v128.load64_zero(at, 16));
  const step = f32x4.splat(ROTATION_STEP);
  const a = f32x4.convert_i32x4_s(wa), b = f32x4.convert_i32x4_s(wb), c = f32x4.convert_i32x4_s(wc);
  const l = f32x4.mul(withSign(omitted4(a, b, c), wc), step);
  placeStore(f32x4.mul(a, step), f32x4.mul(b, step), f32x4.mul(c, step), l, bit0(wa), bit0(wb), d0, d1, d2, d3);
}

/**
 * SIMD: the nlerp of the group of rotations at byte `o` of slices `s0` and `s1` by `vw` into the
 * outputs of slot table entries `outs` … `outs + 12`, from both keys decoded whole
 * (`decodeGroup`): for groups whose keys differ in index or sign somewhere.
 */
function nlerpDecodedGroup(s0: usize, s1: usize, o: usize, vw: v128, outs: usize, out: usize): void {
  const a = GROUP_KEYS, b = GROUP_KEYS + 64;
  decodeGroup(s0 + o, a, a + 16, a + 32, a + 48);
  decodeGroup(s1 + o, b, b + 16, b + 32, b + 48);
  nlerpAlignedLanes4(a, a + 16, a + 32, a + 48, b, b + 16, b + 32, b + 48, vw, out + <usize>load<u32>(outs), out + <usize>load<u32>(outs, 4), out + <usize>load<u32>(outs, 8), out + <usize>load<u32>(outs, 12));
}

/** SIMD: the words' bit-0 flags (index, sign) that differ between the group at `a` and the one at `b`, as set bits. */
// @ts-ignore: decorator
@inline
function flagChanges(a: usize, b: usize): v128 {
  return v128.or(v128.xor(v128.load(a), v128.load(b)), v128.xor(v128.load64_zero(a, 16), v128.load64_zero(b, 16)));
}

/**
 * SIMD nlerp, first pass: the rotation groups [from, to) (from a multiple of 4, at most BLEND_CHUNK
 * rotations) of slices s0 and s1 blended by `vw` as if each lane's two keys had the same index and
 * sign (then they are the same permutation of x, y, z, w, so the stored components and the omitted
 * one's magnitude blend in word units as they are: the normalisation cancels the scale), stored at
 * BLENDED per group as the three stored components and the signed omitted one (f32x4 each).
 * Returns the words' bit-0 flags (index, sign) that differ between the two keys anywhere.
 */
// @ts-ignore: decorator
@inline
function blendGroups(s0: usize, s1: usize, from: u32, to: u32, vw: v128, check: bool): v128 {
  let changed = i32x4.splat(0);
  for (let r = from, d = BLENDED; r < to; r += 4, d += 64) {
    const o = <usize>r * QUANT_ROTATION_BYTES;
    const ab0 = v128.load(s0 + o), c0 = v128.load64_zero(s0 + o, 16);
    const ab1 = v128.load(s1 + o), c1 = v128.load64_zero(s1 + o, 16);
    if (check) changed = v128.or(changed, v128.or(v128.xor(ab0, ab1), v128.xor(c0, c1)));
    const wc = i32x4.extend_low_i16x8_s(c0);
    const a0 = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(ab0)), b0 = f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(ab0)), k0 = f32x4.convert_i32x4_s(wc);
    const a1 = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(ab1));
    const b1 = f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(ab1));
    const k1 = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(c1));
    v128.store(d, lerpLanes(a0, a1, vw));
    v128.store(d, lerpLanes(b0, b1, vw), 16);
    v128.store(d, lerpLanes(k0, k1, vw), 32);
    // (−q)·s is −(q·s) exactly and q² is (−q)², so the sign may come before the normalisation.
    v128.store(d, withSign(lerpLanes(omitted4(a0, b0, k0), omitted4(a1, b1, k1), vw), wc), 48);
  }
  return changed;
}

/**
 * SIMD nlerp, second pass: the blend of the group at `d` (`blendGroups`) normalised and stored at
 * the outputs of slot table entries `slots` … `slots + 12`: as x, y, z, w (a group that omits w in
 * every key) or (`place`) placed by the index bits of its first key's words at `words`.
 */
// @ts-ignore: decorator
@inline
function storeNormalised(d: usize, place: bool, words: usize, slots: usize, out: usize): void {
  const x = v128.load(d), y = v128.load(d, 16), z = v128.load(d, 32), q = v128.load(d, 48);
  const inv = f32x4.div(f32x4.splat(1), f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.add(f32x4.mul(z, z), f32x4.mul(q, q)))));
  const d0 = out + <usize>load<u32>(slots), d1 = out + <usize>load<u32>(slots, 4), d2 = out + <usize>load<u32>(slots, 8), d3 = out + <usize>load<u32>(slots, 12);
  if (place) {
    const ab = v128.load(words);
    placeStore(f32x4.mul(x, inv), f32x4.mul(y, inv), f32x4.mul(z, inv), f32x4.mul(q, inv), bit0(i32x4.extend_low_i16x8_s(ab)), bit0(i32x4.extend_high_i16x8_s(ab)), d0, d1, d2, d3);
  } else {
    transposeStore(f32x4.mul(x, inv), f32x4.mul(y, inv), f32x4.mul(z, inv), f32x4.mul(q, inv), d0, d1, d2, d3);
  }
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

/** The sum `touchSlices` keeps, so that its loads are not dropped. */
let touchedSum: u32 = 0;

/**
 * Loads a word of each 64-byte line of the key slices a sample reads, the `bytes` from `s0` (slice
 * k0, and slice k1 right after it unless k1 is k0), before the decode reads them. With the keys
 * out of cache (a crowd), the decode's loops reached each line only when their work got there, so
 * its misses came a few at a time; loaded first, they are all under way at once (crowd-cold
 * flushed, developer's A/B on a Zen 4: 1.07× per call, 1.18× with one call; ≈ 1 % in cache). In
 * one ascending run over both slices rather than the two slices line by line in turn: ≈ 1.03× per
 * call flushed (session 13). Four lines a turn: a turn per line cost 4 % in cache (V8 checks the
 * stack every turn), one line in two lost the gain.
 */
// @ts-ignore: decorator
@inline
function touchSlices(s0: usize, bytes: usize): void {
  let sum: u32 = 0;
  let i: usize = 0;
  for (; i + 192 < bytes; i += 256) sum += load<u32>(s0 + i) + load<u32>(s0 + i, 64) + load<u32>(s0 + i, 128) + load<u32>(s0 + i, 192);
  for (; i < bytes; i += 64) sum += load<u32>(s0 + i);
  touchedSum = sum;
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
  touchSlices(s0, s1 - s0 + sliceBytes);

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
    const outs = slotOut + (<usize>L << 2);
    if (flags & FLAG_STEP) {
      for (; r < groups; r += 4) {
        const slots = outs + (<usize>r << 2);
        decodeGroup(s0 + <usize>r * QUANT_ROTATION_BYTES, out + <usize>load<u32>(slots), out + <usize>load<u32>(slots, 4), out + <usize>load<u32>(slots, 8), out + <usize>load<u32>(slots, 12));
      }
    } else if ((flags & FLAG_SLERP) == 0) {
      // Two passes per chunk of rotations, blend (`blendGroups`) then normalise: done per group in
      // one pass, each group's chain of dependent operations (the decode's square roots, then the
      // normalisation's) was too long for the core to overlap the next group's with it (1.13× on
      // a Zen 4 in the developer's A/B). Groups whose keys differ in index or sign somewhere are
      // done again after the loop from keys decoded whole (no branch in the loop: a branch or
      // call would cost every turn the registers the other path needs). Groups that omit w in
      // every key come first: x, y, z and w as stored, no placement and no check.
      const wGroups = load<u32>(keys, QUANT_W_ROTATIONS);
      while (r < wGroups) {
        const end = min<u32>(r + BLEND_CHUNK, wGroups);
        blendGroups(s0, s1, r, end, vw, false);
        for (let d = BLENDED; r < end; r += 4, d += 64) storeNormalised(d, false, 0, outs + (<usize>r << 2), out);
      }
      let changed = i32x4.splat(0);
      while (r < groups) {
        const end = min<u32>(r + BLEND_CHUNK, groups);
        changed = v128.or(changed, blendGroups(s0, s1, r, end, vw, true));
        for (let d = BLENDED; r < end; r += 4, d += 64) storeNormalised(d, true, s0 + <usize>r * QUANT_ROTATION_BYTES, outs + (<usize>r << 2), out);
      }
      if (v128.any_true(v128.and(changed, i16x8.splat(1)))) {
        for (let g = wGroups; g < groups; g += 4) {
          const o = <usize>g * QUANT_ROTATION_BYTES;
          if (v128.any_true(v128.and(flagChanges(s0 + o, s1 + o), i16x8.splat(1)))) nlerpDecodedGroup(s0, s1, o, vw, outs + (<usize>g << 2), out);
        }
      }
    } else {
      slerpPrepare(SLERP_SHARED, w);
      const ka = GROUP_KEYS, kb = GROUP_KEYS + 64;
      for (; r < groups; r += 4) {
        const o = <usize>r * QUANT_ROTATION_BYTES;
        const slots = outs + (<usize>r << 2);
        decodeGroup(s0 + o, ka, ka + 16, ka + 32, ka + 48);
        decodeGroup(s1 + o, kb, kb + 16, kb + 32, kb + 48);
        slerpPrepared4(SLERP_SHARED, ka, kb, out + <usize>load<u32>(slots), out + <usize>load<u32>(slots, 4), out + <usize>load<u32>(slots, 8), out + <usize>load<u32>(slots, 12));
      }
    }
  }
  // The scalar build: every rotation; SIMD: those after the last group of four (stored whole).
  for (; r < R; r++) {
    const inGroup = r < groups;
    const o = inGroup ? <usize>(r & ~3) * QUANT_ROTATION_BYTES + (<usize>(r & 3) << 1) : <usize>r * QUANT_ROTATION_BYTES;
    const stride: usize = inGroup ? 8 : 2;
    const dst = out + <usize>load<u32>(slotOut + (<usize>(L + r) << 2));
    decodeRotation(s0 + o, stride, a);
    if (flags & FLAG_STEP) {
      copy4(a, dst);
      continue;
    }
    decodeRotation(s1 + o, stride, b);
    if (flags & FLAG_SLERP) slerpShortest(SLERP_SHARED, a, b, w, dst);
    else nlerpAligned(a, b, w, dst);
  }
}
