// SIMD: the skinning matrices of four instances at once, structure of arrays over instances (ozz's
// LocalToModelJob on SoaTransforms: lane l is instance l; every joint's local matrix, parent
// product and inverse bind product is then four instances' worth of plain lane arithmetic, with
// no broadcast of a local or inverse bind entry and no unused fourth row). `sampleMany` calls it
// for four instances whose samples are read whole (no count of theirs is 0) under affine inverse
// bind matrices; the results are bit for bit those of `composeUnchecked` + `skinningFast` per
// instance (assembly/local-to-model.ts): the same operations in the same order lane by lane. The
// last row is not computed: it is (+0, +0, +0, 1) in every affine matrix written (local-to-model.ts;
// its translation entry is 1 wherever the matrix is finite, and a non-finite one fails the check).
//
// Scratch (after the splatted inverse bind entries in SM_INVERSE_BIND_SPLAT): per joint the four
// instances' model matrices as 12 f32x4, MODEL_SOA_BYTES: entry (row r < 3, column c) at
// (3c + r)·16; from the keys, each joint's interpolated T/R/S there first (SAMPLED_*).
import { KEY_LANES, LANES_HELD, LANES_NEXT, LANES_SLERP, LANES_W, LANES_WEIGHTS } from './keyed-clip';
import { allFinite } from './local-to-model';
import { CLIP_KEYS, CLIP_SLOT_OUT, KEYED_FIRST_SLOT, KEYED_MEMBER_COUNT, LTM_BINDINGS, LTM_JOINT_COUNT, LTM_ORDER, LTM_PARENTS, LTM_REST, LTM_UNBOUND, SM_MODEL_SOA_BYTES } from './layout';
import { normalizeSoa4, shortestSign, SLERP_SHARED, slerpLanes4, slerpPrepare, slerpPreparedPair } from './quat';

const MODEL_SOA_BYTES: usize = SM_MODEL_SOA_BYTES;
/** One lane's result of `slerpLanesRest`. */
const SLERP_ONE = memory.data(16, 16);
/** f32x4 (1, 1, 1, 1), loaded where used: one load, where a splatted constant is three instructions in every turn of a loop. */
const ONES = memory.data<f32>([1, 1, 1, 1], 16);

/**
 * Writes the skinning matrices (model · inverse bind, 16 f32 per joint, column-major) of the four
 * instances whose samples are at `s0` … `s3` (float4 per curve, every bound curve read) to `m0` …
 * `m3`, for local-to-model job `p`, its joints `order[first …]` composed into `soa` (the scratch
 * above; the joints before `first` must be there from an earlier call) and every joint skinned
 * with the inverse bind entries at `splat` (`splatAffine`). Returns whether the sum of every
 * skinning entry is finite; otherwise the caller composes the four again on the checked paths.
 */
export function skinningFour(p: usize, s0: usize, s1: usize, s2: usize, s3: usize, soa: usize, splat: usize, first: u32, m0: usize, m1: usize, m2: usize, m3: usize): bool {
  return four(false, false, p, s0, s1, s2, s3, soa, splat, first, m0, m1, m2, m3);
}

/**
 * `skinningFour` of four instances of a keyed clip of one time group, interpolating their keys
 * itself (no sample buffer): the key rows, weights and slerp coefficients that `keyedLanes4` laid
 * out (assembly/keyed-clip.ts), each joint's T, R and S read as the members at the byte offsets of
 * `map` (`keyedMap`). Translations and scales are lerped per instance as `lerp4`, rotations
 * slerped four instances at a time by `slerpLanes4` (`nlerp`: as `nlerpShortest`, normalised by
 * `normalizeSoa4`), held keys taken as stored: the samples `keyedSampleSlots` writes, so the
 * matrices are bit for bit those of sampling then `skinningFour`. Returns false where a skinning
 * entry is not finite or an nlerp result not normalisable four at a time: the caller then samples
 * the four and runs `skinningFour` (whose checked paths take such poses).
 */
export function keyedSkinningFour(p: usize, map: usize, soa: usize, splat: usize, first: u32, m0: usize, m1: usize, m2: usize, m3: usize, nlerp: bool): bool {
  return four(true, nlerp, p, map, 0, 0, 0, soa, splat, first, m0, m1, m2, m3);
}

/**
 * Builds `keyedSkinningFour`'s map for local-to-model job `p` and keyed clip block `clip`
 * (`keyedFourLanes`) at `map`, 16 bytes per joint: the byte offsets within a key row of the
 * members that the joint's T, R and S bindings read (LTM_UNBOUND where unbound), and in joint 0's
 * last word the block it was built for, so that a job builds it once (its binding and clip are
 * fixed; a clip loaded again lays its group out the same).
 */
export function keyedMap(p: usize, clip: usize, map: usize): void {
  if (load<usize>(map, 12) == clip) return;
  const n = <usize>load<u32>(p, LTM_JOINT_COUNT);
  const bindings = load<usize>(p, LTM_BINDINGS);
  const rec = load<usize>(clip, CLIP_KEYS);
  const members = <usize>load<u32>(rec, KEYED_MEMBER_COUNT);
  const outs = load<usize>(clip, CLIP_SLOT_OUT) + (<usize>load<u32>(rec, KEYED_FIRST_SLOT) << 2);
  for (let i: usize = 0; i < n; i++) {
    for (let q: usize = 0; q < 3; q++) {
      const o = load<u32>(bindings + i * 12 + (q << 2));
      let at: u32 = <u32>LTM_UNBOUND;
      if (o != <u32>LTM_UNBOUND) for (let m: usize = 0; m < members; m++) if (load<u32>(outs + (m << 2)) == o) at = <u32>(m << 4);
      store<u32>(map + (i << 4) + (q << 2), at);
    }
  }
  store<usize>(map, clip, 12);
}

/**
 * The pass of `skinningFour` (`keyed` false: T/R/S from the samples at `s0` … `s3`) and of
 * `keyedSkinningFour` (`keyed` true: from the keys, `s0` the map; `nlerp` as there).
 */
// @ts-ignore: decorator
@inline
function four(keyed: bool, nlerp: bool, p: usize, s0: usize, s1: usize, s2: usize, s3: usize, soa: usize, splat: usize, first: u32, m0: usize, m1: usize, m2: usize, m3: usize): bool {
  const n = load<u32>(p, LTM_JOINT_COUNT);
  const parents = load<usize>(p, LTM_PARENTS);
  const bindings = keyed ? s0 : load<usize>(p, LTM_BINDINGS);
  const rest = load<usize>(p, LTM_REST);
  const order = load<usize>(p, LTM_ORDER);
  // Keyed: every joint's T, R and S first, in a loop of their own (consecutive joints' key reads and
  // slerps are independent chains, which the processor overlaps where no composition waits on
  // them), into the joint's model scratch as the composition below reads them (`SAMPLED_*`). Where
  // that fails, the joints are composed all the same: the constant ones (before the next call's
  // `first`) must hold their model matrices.
  const sampled = !keyed || keyedJoints(nlerp, n, order, bindings, rest, soa, first);
  // From samples likewise: each joint's T, R, S transposed into its model scratch first.
  if (!keyed) {
    for (let k: u32 = first; k < n; k++) {
      const i = <usize>load<u32>(order + (<usize>k << 2));
      const b = bindings + i * 12;
      const r = rest + i * 48;
      const o = soa + i * MODEL_SOA_BYTES;
      // An unbound property reads the rest value in every lane (one test per joint, not per lane).
      sampledVector(<usize>load<u32>(b, 4), r + 16, o + SAMPLED_X, true, s0, s1, s2, s3);
      sampledVector(<usize>load<u32>(b, 8), r + 32, o + SAMPLED_S, false, s0, s1, s2, s3);
      sampledVector(<usize>load<u32>(b), r, o + SAMPLED_T, false, s0, s1, s2, s3);
    }
  }
  for (let k: u32 = first; k < n; k++) {
    const i = <usize>load<u32>(order + (<usize>k << 2));
    const o = soa + i * MODEL_SOA_BYTES;
    const one = v128.load(ONES);
    const x = v128.load(o, SAMPLED_X), y = v128.load(o, SAMPLED_X + 16), z = v128.load(o, SAMPLED_X + 32), w = v128.load(o, SAMPLED_X + 48);
    const sx = v128.load(o, SAMPLED_S), sy = v128.load(o, SAMPLED_S + 16), sz = v128.load(o, SAMPLED_S + 32);
    const tx = v128.load(o, SAMPLED_T), ty = v128.load(o, SAMPLED_T + 16), tz = v128.load(o, SAMPLED_T + 32);
    // The local matrix, as `composeLocal` (local-to-model.ts) lane by lane: 2·u as u + u, and
    // 2·u·s as u·(s + s) — the same exact product rounded once, where 2·s does not overflow (where
    // it does, the pose is not finite and goes to the checked paths).
    const xx = f32x4.mul(x, x), yy = f32x4.mul(y, y), zz = f32x4.mul(z, z);
    const xy = f32x4.mul(x, y), xz = f32x4.mul(x, z), yz = f32x4.mul(y, z);
    const wx = f32x4.mul(w, x), wy = f32x4.mul(w, y), wz = f32x4.mul(w, z);
    const dx = f32x4.add(sx, sx), dy = f32x4.add(sy, sy), dz = f32x4.add(sz, sz);
    const e0 = f32x4.add(yy, zz), e1 = f32x4.add(xx, zz), e2 = f32x4.add(xx, yy);
    const l00 = f32x4.mul(f32x4.sub(one, f32x4.add(e0, e0)), sx);
    const l01 = f32x4.mul(f32x4.add(xy, wz), dx);
    const l02 = f32x4.mul(f32x4.sub(xz, wy), dx);
    const l10 = f32x4.mul(f32x4.sub(xy, wz), dy);
    const l11 = f32x4.mul(f32x4.sub(one, f32x4.add(e1, e1)), sy);
    const l12 = f32x4.mul(f32x4.add(yz, wx), dy);
    const l20 = f32x4.mul(f32x4.add(xz, wy), dz);
    const l21 = f32x4.mul(f32x4.sub(yz, wx), dz);
    const l22 = f32x4.mul(f32x4.sub(one, f32x4.add(e2, e2)), sz);
    const parent = load<i32>(parents + (i << 2));
    if (parent < 0) {
      // A root's model matrix is its local matrix.
      v128.store(o, l00);
      v128.store(o, l01, 16);
      v128.store(o, l02, 32);
      v128.store(o, l10, 48);
      v128.store(o, l11, 64);
      v128.store(o, l12, 80);
      v128.store(o, l20, 96);
      v128.store(o, l21, 112);
      v128.store(o, l22, 128);
      v128.store(o, tx, 144);
      v128.store(o, ty, 160);
      v128.store(o, tz, 176);
      continue;
    }
    // parent · local: entry (row, column c) = (a_row,0 · l_0c + a_row,1 · l_1c) + a_row,2 · l_2c, plus
    // a_row,3 in the translation column; `composeFast`'s sums lane by lane.
    const a = soa + (<usize>parent) * MODEL_SOA_BYTES;
    productRow(a, 0, o, l00, l01, l02, l10, l11, l12, l20, l21, l22, tx, ty, tz);
    productRow(a, 16, o, l00, l01, l02, l10, l11, l12, l20, l21, l22, tx, ty, tz);
    productRow(a, 32, o, l00, l01, l02, l10, l11, l12, l20, l21, l22, tx, ty, tz);
  }
  return sampled && skinAll(n, soa, splat, m0, m1, m2, m3);
}

/** Byte offsets in a joint's model scratch of `keyedJoints`' x, y, z, w (f32x4 each), then sx, sy, sz, then tx, ty, tz. */
const SAMPLED_X: usize = 0;
const SAMPLED_S: usize = 64;
const SAMPLED_T: usize = 112;

/**
 * `keyedSkinningFour`'s interpolation: for the joints `order[first …]` (`map` as `keyedMap`) the
 * four instances' rotations, scales and translations (the rest value in every lane where unbound)
 * into each joint's model scratch at `soa` (SAMPLED_*). Returns false where an nlerp result is not
 * normalisable four at a time (that joint's rotation left as it was).
 */
// @ts-ignore: decorator
@inline
function keyedJoints(nlerp: bool, n: u32, order: usize, map: usize, rest: usize, soa: usize, first: u32): bool {
  // Lanes that hold key k as stored.
  const held = v128.load(KEY_LANES, LANES_HELD);
  const heldBits = i32x4.bitmask(held);
  let normalised = true;
  for (let k: u32 = first; k < n; k++) {
    const i = <usize>load<u32>(order + (<usize>k << 2));
    const b = map + (i << 4);
    const r = rest + i * 48;
    const o = soa + i * MODEL_SOA_BYTES;
    // Rotations of the four instances: x, y, z, w. An unbound property reads the rest value in
    // every lane (one test per joint, not per lane).
    const bq = <usize>load<u32>(b, 4);
    if (bq == <usize>LTM_UNBOUND) {
      const q = v128.load(r, 16);
      storeTransposed(q, q, q, q, o + SAMPLED_X, true);
    } else {
      const L = KEY_LANES;
      const a0 = load<u32>(L) + bq, a1 = load<u32>(L, 4) + bq, a2 = load<u32>(L, 8) + bq, a3 = load<u32>(L, 12) + bq;
      const qa0 = v128.load(a0), qa1 = v128.load(a1), qa2 = v128.load(a2), qa3 = v128.load(a3);
      const qb0 = v128.load(a0 + load<u32>(L, LANES_NEXT)), qb1 = v128.load(a1 + load<u32>(L, LANES_NEXT + 4));
      const qb2 = v128.load(a2 + load<u32>(L, LANES_NEXT + 8)), qb3 = v128.load(a3 + load<u32>(L, LANES_NEXT + 12));
      const axy01 = i32x4.shuffle(qa0, qa1, 0, 4, 1, 5), axy23 = i32x4.shuffle(qa2, qa3, 0, 4, 1, 5);
      const azw01 = i32x4.shuffle(qa0, qa1, 2, 6, 3, 7), azw23 = i32x4.shuffle(qa2, qa3, 2, 6, 3, 7);
      const bxy01 = i32x4.shuffle(qb0, qb1, 0, 4, 1, 5), bxy23 = i32x4.shuffle(qb2, qb3, 0, 4, 1, 5);
      const bzw01 = i32x4.shuffle(qb0, qb1, 2, 6, 3, 7), bzw23 = i32x4.shuffle(qb2, qb3, 2, 6, 3, 7);
      const ax = i32x4.shuffle(axy01, axy23, 0, 1, 4, 5), ay = i32x4.shuffle(axy01, axy23, 2, 3, 6, 7);
      const az = i32x4.shuffle(azw01, azw23, 0, 1, 4, 5), aw = i32x4.shuffle(azw01, azw23, 2, 3, 6, 7);
      let bx = i32x4.shuffle(bxy01, bxy23, 0, 1, 4, 5), by = i32x4.shuffle(bxy01, bxy23, 2, 3, 6, 7);
      let bz = i32x4.shuffle(bzw01, bzw23, 0, 1, 4, 5), bw = i32x4.shuffle(bzw01, bzw23, 2, 3, 6, 7);
      if (nlerp) {
        // `nlerpShortest` lane by lane: b on the shorter arc, a + (b − a)·w, normalised (held lanes
        // replaced below).
        const sign = shortestSign(ax, ay, az, aw, bx, by, bz, bw);
        const ws = v128.load(L, LANES_WEIGHTS);
        bx = f32x4.add(ax, f32x4.mul(f32x4.sub(v128.xor(bx, sign), ax), ws));
        by = f32x4.add(ay, f32x4.mul(f32x4.sub(v128.xor(by, sign), ay), ws));
        bz = f32x4.add(az, f32x4.mul(f32x4.sub(v128.xor(bz, sign), az), ws));
        bw = f32x4.add(aw, f32x4.mul(f32x4.sub(v128.xor(bw, sign), aw), ws));
        if (!normalizeSoa4(bx, by, bz, bw, held, o + SAMPLED_X)) normalised = false;
      } else {
        const rest = slerpLanes4(L + LANES_SLERP, ax, ay, az, aw, bx, by, bz, bw, o + SAMPLED_X) & ~heldBits;
        // The lanes `slerpPreparedEach4` gives to `slerpPrepared` (a wide gap, a result shorter than 1e-6).
        if (rest != 0) slerpLanesRest(rest, bq, o + SAMPLED_X);
      }
      if (heldBits != 0) {
        // Key k as stored.
        v128.store(o, v128.bitselect(ax, v128.load(o, SAMPLED_X), held), SAMPLED_X);
        v128.store(o, v128.bitselect(ay, v128.load(o, SAMPLED_X + 16), held), SAMPLED_X + 16);
        v128.store(o, v128.bitselect(az, v128.load(o, SAMPLED_X + 32), held), SAMPLED_X + 32);
        v128.store(o, v128.bitselect(aw, v128.load(o, SAMPLED_X + 48), held), SAMPLED_X + 48);
      }
    }
  }
  // The scales and translations after the rotations, in a loop of their own as well, where each
  // lane's key rows and weight stay in registers.
  const L = KEY_LANES;
  const a0 = <usize>load<u32>(L), a1 = <usize>load<u32>(L, 4), a2 = <usize>load<u32>(L, 8), a3 = <usize>load<u32>(L, 12);
  const b0 = a0 + <usize>load<u32>(L, LANES_NEXT), b1 = a1 + <usize>load<u32>(L, LANES_NEXT + 4);
  const b2 = a2 + <usize>load<u32>(L, LANES_NEXT + 8), b3 = a3 + <usize>load<u32>(L, LANES_NEXT + 12);
  const w0 = v128.load(L, LANES_W), w1 = v128.load(L, LANES_W + 16), w2 = v128.load(L, LANES_W + 32), w3 = v128.load(L, LANES_W + 48);
  for (let k: u32 = first; k < n; k++) {
    const i = <usize>load<u32>(order + (<usize>k << 2));
    const b = map + (i << 4);
    const r = rest + i * 48;
    const o = soa + i * MODEL_SOA_BYTES;
    keyedVector(<usize>load<u32>(b, 8), r + 32, o + SAMPLED_S, a0, a1, a2, a3, b0, b1, b2, b3, w0, w1, w2, w3);
    keyedVector(<usize>load<u32>(b), r, o + SAMPLED_T, a0, a1, a2, a3, b0, b1, b2, b3, w0, w1, w2, w3);
  }
  return normalised;
}

/**
 * The x, y, z (and w with `four`) of four instances (f32x4 each, at `d`) of the sample at byte
 * offset `at` of their samples at `s0` … `s3`, or of the rest value at `r` where `at` is
 * LTM_UNBOUND.
 */
// @ts-ignore: decorator
@inline
function sampledVector(at: usize, r: usize, d: usize, four: bool, s0: usize, s1: usize, s2: usize, s3: usize): void {
  let c0: v128, c1: v128, c2: v128, c3: v128;
  if (at == <usize>LTM_UNBOUND) c0 = c1 = c2 = c3 = v128.load(r);
  else {
    c0 = v128.load(s0 + at);
    c1 = v128.load(s1 + at);
    c2 = v128.load(s2 + at);
    c3 = v128.load(s3 + at);
  }
  storeTransposed(c0, c1, c2, c3, d, four);
}

/** x, y, z (and w with `four`) of the float4 `c0` … `c3`, lane l from `cl`, at `d` (f32x4 each). */
// @ts-ignore: decorator
@inline
function storeTransposed(c0: v128, c1: v128, c2: v128, c3: v128, d: usize, four: bool): void {
  const xy01 = i32x4.shuffle(c0, c1, 0, 4, 1, 5), xy23 = i32x4.shuffle(c2, c3, 0, 4, 1, 5);
  const zw01 = i32x4.shuffle(c0, c1, 2, 6, 3, 7), zw23 = i32x4.shuffle(c2, c3, 2, 6, 3, 7);
  v128.store(d, i32x4.shuffle(xy01, xy23, 0, 1, 4, 5));
  v128.store(d, i32x4.shuffle(xy01, xy23, 2, 3, 6, 7), 16);
  v128.store(d, i32x4.shuffle(zw01, zw23, 0, 1, 4, 5), 32);
  if (four) v128.store(d, i32x4.shuffle(zw01, zw23, 2, 3, 6, 7), 48);
}

/**
 * The x, y, z of four instances (f32x4 each, at `d`) of the member at byte offset `at` of their key
 * rows (lane l's keys k and k + 1 in the rows at `al` and `bl`, its weight `wl`: KEY_LANES), as
 * `lerpLane`, or of the rest value at `r` where `at` is LTM_UNBOUND.
 */
// @ts-ignore: decorator
@inline
function keyedVector(at: usize, r: usize, d: usize, a0: usize, a1: usize, a2: usize, a3: usize, b0: usize, b1: usize, b2: usize, b3: usize, w0: v128, w1: v128, w2: v128, w3: v128): void {
  let c0: v128, c1: v128, c2: v128, c3: v128;
  if (at == <usize>LTM_UNBOUND) c0 = c1 = c2 = c3 = v128.load(r);
  else {
    c0 = lerpLane(a0 + at, b0 + at, w0);
    c1 = lerpLane(a1 + at, b1 + at, w1);
    c2 = lerpLane(a2 + at, b2 + at, w2);
    c3 = lerpLane(a3 + at, b3 + at, w3);
  }
  storeTransposed(c0, c1, c2, c3, d, false);
}

/**
 * The skinning matrices of every joint of the four instances from their model matrices in `soa`
 * (both passes share it); returns whether the sum of every entry is finite.
 */
function skinAll(n: u32, soa: usize, splat: usize, m0: usize, m1: usize, m2: usize, m3: usize): bool {
  const zero = f32x4.splat(0);
  // model · inverse bind for every joint, a column at a time: entry (row < 3, column c) =
  // (m_row,0 · b_0c + m_row,1 · b_1c) + m_row,2 · b_2c, plus m_row,3 in the translation column
  // (`skinningFast`'s sums lane by lane, b the inverse bind entries as `splatAffine` spreads them).
  let sum = zero;
  for (let o: usize = 0, a = soa, d = splat, end = <usize>n << 6; o < end; o += 64, a += MODEL_SOA_BYTES, d += 192) {
    sum = skinColumn(a, d, false, zero, sum, m0 + o, m1 + o, m2 + o, m3 + o);
    sum = skinColumn(a, d + 48, false, zero, sum, m0 + o + 16, m1 + o + 16, m2 + o + 16, m3 + o + 16);
    sum = skinColumn(a, d + 96, false, zero, sum, m0 + o + 32, m1 + o + 32, m2 + o + 32, m3 + o + 32);
    sum = skinColumn(a, d + 144, true, v128.load(ONES), sum, m0 + o + 48, m1 + o + 48, m2 + o + 48, m3 + o + 48);
  }
  return allFinite(sum);
}

/**
 * A lane's member from its keys k at `a` and k + 1 at `b` with its weight `w` (KEY_LANES): `lerp4`'s
 * arithmetic, or key k as stored where the lane holds it.
 */
// @ts-ignore: decorator
@inline
function lerpLane(a: usize, b: usize, w: v128): v128 {
  const va = v128.load(a);
  // Held: key k + 1 is key k and the weight −0, which gives key k (keyedLanes4).
  return f32x4.add(va, f32x4.mul(f32x4.sub(v128.load(b), va), w));
}

/**
 * The lanes of `rest` (bit l: instance l) of the rotation member at byte offset `at` slerped by
 * `slerpPrepared` with the lane's weight, into the lanes of x, y, z, w at `out`: what `slerpPreparedEach4` does with
 * such a lane. Out of line: rare (key gaps over ~20°).
 */
function slerpLanesRest(rest: i32, at: usize, out: usize): void {
  const L = KEY_LANES;
  for (let l: usize = 0; l < 4; l++) {
    if ((rest & (1 << <i32>l)) == 0) continue;
    const a = <usize>load<u32>(L + (l << 2)) + at;
    slerpPrepare(SLERP_SHARED, load<f32>(L + LANES_WEIGHTS + (l << 2)));
    slerpPreparedPair(SLERP_SHARED, v128.load(a), v128.load(a + <usize>load<u32>(L + LANES_NEXT + (l << 2))), SLERP_ONE);
    for (let c: usize = 0; c < 4; c++) store<f32>(out + (c << 4) + (l << 2), load<f32>(SLERP_ONE + (c << 2)));
  }
}

/**
 * One skinning column of four instances from model scratch `a` and the column's inverse bind
 * entries at `b` (rows 0–2, splatted), its last row `e3` (+0, or 1 in the translation column),
 * stored at `d0` … `d3`; returns `sum` plus its rows 0–2.
 */
// @ts-ignore: decorator
@inline
function skinColumn(a: usize, b: usize, translation: bool, e3: v128, sum: v128, d0: usize, d1: usize, d2: usize, d3: usize): v128 {
  const b0 = v128.load(b), b1 = v128.load(b, 16), b2 = v128.load(b, 32);
  let e0 = f32x4.add(f32x4.add(f32x4.mul(v128.load(a), b0), f32x4.mul(v128.load(a, 48), b1)), f32x4.mul(v128.load(a, 96), b2));
  let e1 = f32x4.add(f32x4.add(f32x4.mul(v128.load(a, 16), b0), f32x4.mul(v128.load(a, 64), b1)), f32x4.mul(v128.load(a, 112), b2));
  let e2 = f32x4.add(f32x4.add(f32x4.mul(v128.load(a, 32), b0), f32x4.mul(v128.load(a, 80), b1)), f32x4.mul(v128.load(a, 128), b2));
  if (translation) {
    e0 = f32x4.add(e0, v128.load(a, 144));
    e1 = f32x4.add(e1, v128.load(a, 160));
    e2 = f32x4.add(e2, v128.load(a, 176));
  }
  storeColumn(e0, e1, e2, e3, d0, d1, d2, d3);
  return f32x4.add(sum, f32x4.add(f32x4.add(e0, e1), e2));
}

/** Row `row` (byte offset 16·row) of parent `a` times the local matrix, into model scratch `o`. */
// @ts-ignore: decorator
@inline
function productRow(a: usize, row: usize, o: usize, l00: v128, l01: v128, l02: v128, l10: v128, l11: v128, l12: v128, l20: v128, l21: v128, l22: v128, tx: v128, ty: v128, tz: v128): void {
  const a0 = v128.load(a + row), a1 = v128.load(a + row, 48), a2 = v128.load(a + row, 96), a3 = v128.load(a + row, 144);
  v128.store(o + row, f32x4.add(f32x4.add(f32x4.mul(a0, l00), f32x4.mul(a1, l01)), f32x4.mul(a2, l02)));
  v128.store(o + row, f32x4.add(f32x4.add(f32x4.mul(a0, l10), f32x4.mul(a1, l11)), f32x4.mul(a2, l12)), 48);
  v128.store(o + row, f32x4.add(f32x4.add(f32x4.mul(a0, l20), f32x4.mul(a1, l21)), f32x4.mul(a2, l22)), 96);
  v128.store(o + row, f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, tx), f32x4.mul(a1, ty)), f32x4.mul(a2, tz)), a3), 144);
}

/** Rows 0–3 of one column (lanes = instances) transposed into the four instances' columns at `d0` … `d3`. */
// @ts-ignore: decorator
@inline
function storeColumn(r0: v128, r1: v128, r2: v128, r3: v128, d0: usize, d1: usize, d2: usize, d3: usize): void {
  const lo01 = i32x4.shuffle(r0, r1, 0, 4, 1, 5), lo23 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
  const hi01 = i32x4.shuffle(r0, r1, 2, 6, 3, 7), hi23 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
  v128.store(d0, i32x4.shuffle(lo01, lo23, 0, 1, 4, 5));
  v128.store(d1, i32x4.shuffle(lo01, lo23, 2, 3, 6, 7));
  v128.store(d2, i32x4.shuffle(hi01, hi23, 0, 1, 4, 5));
  v128.store(d3, i32x4.shuffle(hi01, hi23, 2, 3, 6, 7));
}
