// Quaternion blending of one float4 (x, y, z, w) at `a` and `b` into `out`; `out` may alias
// either input. Shared by the sampler and the mixer so both use one definition of nlerp/slerp.
//
// Zero-length rotations (issue 13 item 4): a blended rotation shorter than 1e-6 has no direction
// worth keeping (rounding noise), so it becomes identity, as Unity's `Quaternion.Normalize` does
// below its epsilon and as the MRTK corrected mode does (spec mrtk.md §8, twin `QUAT_MIN_LENGTH`).
// A zero key therefore samples as identity at its own time and as its neighbour in between.
// Components beyond ~1.8e19 overflow |q|² in f32; such a quaternion is scaled down before it is
// normalised instead of collapsing to zero. Both builds take the same branches with the same
// f32 sums, so they agree bit for bit.

/** |q|² below this (|q| < 1e-6) is a zero rotation. Twin: `QUAT_MIN_LENGTH` in src/reference. */
export const MIN_LENGTH_SQ: f32 = 1e-12;

/** Normalised lerp along the shortest arc: b is negated when dot(a, b) < 0. */
// @ts-ignore: decorator
@inline
export function nlerpShortest(a: usize, b: usize, w: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const va = v128.load(a);
    let vb = v128.load(b);
    vb = v128.xor(vb, v128.and(dot4(va, vb), f32x4.splat(-0.0)));
    normalizeStore(f32x4.add(va, f32x4.mul(f32x4.sub(vb, va), f32x4.splat(w))), out);
  } else {
    const ax = load<f32>(a), ay = load<f32>(a, 4), az = load<f32>(a, 8), aw = load<f32>(a, 12);
    let bx = load<f32>(b), by = load<f32>(b, 4), bz = load<f32>(b, 8), bw = load<f32>(b, 12);
    // (xx + yy) + (zz + ww) in f32, the SIMD branch's order, so both builds pick the same side.
    if (ax * bx + ay * by + (az * bz + aw * bw) < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    normalizeStore4(ax + (bx - ax) * w, ay + (by - ay) * w, az + (bz - az) * w, aw + (bw - aw) * w, out);
  }
}

/**
 * `nlerpShortest` of four quaternions at once (SIMD build; offsets o0…o3 of `a`, `b` and `out`)
 * with one weight: `nlerpShortestLanes4`. `out` may alias `a` or `b`.
 */
// @ts-ignore: decorator
@inline
export function nlerpShortest4(a: usize, b: usize, w: f32, out: usize, o0: usize, o1: usize, o2: usize, o3: usize): void {
  nlerpShortestLanes4(a + o0, a + o1, a + o2, a + o3, b + o0, b + o1, b + o2, b + o3, f32x4.splat(w), out + o0, out + o1, out + o2, out + o3);
}

/**
 * `nlerpShortest` of the four quaternion pairs (a0, b0) … (a3, b3) with the weights of `ws`'
 * lanes into `d0` … `d3` (SIMD build), as structure of arrays: one sign test, one square root
 * and four divisions for the four, with the same f32 operations per lane, so bit for bit
 * `nlerpShortest` (a group holding a zero or an overflowing sum takes it per quaternion). A
 * destination may alias its own pair's keys.
 */
// @ts-ignore: decorator
@inline
export function nlerpShortestLanes4(a0: usize, a1: usize, a2: usize, a3: usize, b0: usize, b1: usize, b2: usize, b3: usize, ws: v128, d0: usize, d1: usize, d2: usize, d3: usize): void {
  nlerpLanes4(a0, a1, a2, a3, b0, b1, b2, b3, ws, d0, d1, d2, d3, true);
}

/** `nlerpAligned` of four quaternion pairs as `nlerpShortestLanes4` (no sign test), bit for bit `nlerpAligned`. */
// @ts-ignore: decorator
@inline
export function nlerpAlignedLanes4(a0: usize, a1: usize, a2: usize, a3: usize, b0: usize, b1: usize, b2: usize, b3: usize, ws: v128, d0: usize, d1: usize, d2: usize, d3: usize): void {
  nlerpLanes4(a0, a1, a2, a3, b0, b1, b2, b3, ws, d0, d1, d2, d3, false);
}

/** `nlerpShortestLanes4` (`shortest`) or `nlerpAlignedLanes4`. */
// @ts-ignore: decorator
@inline
function nlerpLanes4(a0: usize, a1: usize, a2: usize, a3: usize, b0: usize, b1: usize, b2: usize, b3: usize, ws: v128, d0: usize, d1: usize, d2: usize, d3: usize, shortest: bool): void {
  const qa0 = v128.load(a0), qa1 = v128.load(a1), qa2 = v128.load(a2), qa3 = v128.load(a3);
  const qb0 = v128.load(b0), qb1 = v128.load(b1), qb2 = v128.load(b2), qb3 = v128.load(b3);
  let t0 = v128.shuffle<f32>(qa0, qa1, 0, 4, 1, 5);
  let t1 = v128.shuffle<f32>(qa2, qa3, 0, 4, 1, 5);
  let t2 = v128.shuffle<f32>(qa0, qa1, 2, 6, 3, 7);
  let t3 = v128.shuffle<f32>(qa2, qa3, 2, 6, 3, 7);
  const ax = v128.shuffle<f32>(t0, t1, 0, 1, 4, 5), ay = v128.shuffle<f32>(t0, t1, 2, 3, 6, 7);
  const az = v128.shuffle<f32>(t2, t3, 0, 1, 4, 5), aw = v128.shuffle<f32>(t2, t3, 2, 3, 6, 7);
  t0 = v128.shuffle<f32>(qb0, qb1, 0, 4, 1, 5);
  t1 = v128.shuffle<f32>(qb2, qb3, 0, 4, 1, 5);
  t2 = v128.shuffle<f32>(qb0, qb1, 2, 6, 3, 7);
  t3 = v128.shuffle<f32>(qb2, qb3, 2, 6, 3, 7);
  let bx = v128.shuffle<f32>(t0, t1, 0, 1, 4, 5), by = v128.shuffle<f32>(t0, t1, 2, 3, 6, 7);
  let bz = v128.shuffle<f32>(t2, t3, 0, 1, 4, 5), bw = v128.shuffle<f32>(t2, t3, 2, 3, 6, 7);
  if (shortest) {
    const sign = shortestSign(ax, ay, az, aw, bx, by, bz, bw);
    bx = v128.xor(bx, sign);
    by = v128.xor(by, sign);
    bz = v128.xor(bz, sign);
    bw = v128.xor(bw, sign);
  }
  const x = f32x4.add(ax, f32x4.mul(f32x4.sub(bx, ax), ws));
  const y = f32x4.add(ay, f32x4.mul(f32x4.sub(by, ay), ws));
  const z = f32x4.add(az, f32x4.mul(f32x4.sub(bz, az), ws));
  const q = f32x4.add(aw, f32x4.mul(f32x4.sub(bw, aw), ws));
  const len2 = lengthSquaredSoa(x, y, z, q);
  if (!i32x4.all_true(normalRange(len2))) {
    nlerpEach4(a0, a1, a2, a3, b0, b1, b2, b3, ws, d0, d1, d2, d3, shortest);
    return;
  }
  const len = f32x4.sqrt(len2);
  transposeStore(f32x4.div(x, len), f32x4.div(y, len), f32x4.div(z, len), f32x4.div(q, len), d0, d1, d2, d3);
}

/**
 * SIMD: per lane the sign bit of dot(a, b) ((xx + yy) + (zz + ww), dot4's sums) of four quaternion
 * pairs held as structure of arrays: b xor it is b on the shorter arc, as `nlerpShortest` takes it.
 */
// @ts-ignore: decorator
@inline
export function shortestSign(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return v128.and(dotSoa(ax, ay, az, aw, bx, by, bz, bw), f32x4.splat(-0.0));
}

/** SIMD: dot(a, b) per lane of four quaternion pairs held as structure of arrays: (ax bx + ay by) + (az bz + aw bw), dot4's sums. */
// @ts-ignore: decorator
@inline
function dotSoa(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(ax, bx), f32x4.mul(ay, by)), f32x4.add(f32x4.mul(az, bz), f32x4.mul(aw, bw)));
}

/** SIMD: |q|² per lane of four quaternions held as structure of arrays, in dot4's order. */
// @ts-ignore: decorator
@inline
function lengthSquaredSoa(x: v128, y: v128, z: v128, w: v128): v128 {
  return dotSoa(x, y, z, w, x, y, z, w);
}

/** SIMD: the lanes of `len2` that `normalizeStore` divides by their root (in [1e-12, f32 max]). */
// @ts-ignore: decorator
@inline
function normalRange(len2: v128): v128 {
  return v128.and(f32x4.ge(len2, f32x4.splat(MIN_LENGTH_SQ)), f32x4.le(len2, f32x4.splat(F32.MAX_VALUE)));
}

/**
 * SIMD: `normalize4` of four quaternions held as structure of arrays (`x` … `w`, lane l one
 * quaternion) into `out` likewise (x at 0, y at 16, z at 32, w at 48): per lane |q|² in dot4's
 * order and one division by its root, so bit for bit `normalize4`. The lanes of `keep` are not
 * checked (their results are for the caller to replace). Returns false, having stored nothing,
 * where another lane's |q|² is outside [1e-12, f32 max] (the caller takes `normalize4`'s path).
 */
// @ts-ignore: decorator
@inline
export function normalizeSoa4(x: v128, y: v128, z: v128, w: v128, keep: v128, out: usize): bool {
  const len2 = lengthSquaredSoa(x, y, z, w);
  if (!i32x4.all_true(v128.or(normalRange(len2), keep))) return false;
  const len = f32x4.sqrt(len2);
  v128.store(out, f32x4.div(x, len));
  v128.store(out, f32x4.div(y, len), 16);
  v128.store(out, f32x4.div(z, len), 32);
  v128.store(out, f32x4.div(w, len), 48);
  return true;
}

/**
 * `nlerpLanes4` quaternion by quaternion, for a group holding a zero or an overflowing sum. Out
 * of line: real data never comes here, and the inlined copies would grow every caller.
 */
function nlerpEach4(a0: usize, a1: usize, a2: usize, a3: usize, b0: usize, b1: usize, b2: usize, b3: usize, ws: v128, d0: usize, d1: usize, d2: usize, d3: usize, shortest: bool): void {
  if (shortest) {
    nlerpShortest(a0, b0, f32x4.extract_lane(ws, 0), d0);
    nlerpShortest(a1, b1, f32x4.extract_lane(ws, 1), d1);
    nlerpShortest(a2, b2, f32x4.extract_lane(ws, 2), d2);
    nlerpShortest(a3, b3, f32x4.extract_lane(ws, 3), d3);
  } else {
    nlerpAligned(a0, b0, f32x4.extract_lane(ws, 0), d0);
    nlerpAligned(a1, b1, f32x4.extract_lane(ws, 1), d1);
    nlerpAligned(a2, b2, f32x4.extract_lane(ws, 2), d2);
    nlerpAligned(a3, b3, f32x4.extract_lane(ws, 3), d3);
  }
}

/** Normalised lerp with no sign test: for keys sign-aligned at load time. */
// @ts-ignore: decorator
@inline
export function nlerpAligned(a: usize, b: usize, w: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const va = v128.load(a);
    normalizeStore(f32x4.add(va, f32x4.mul(f32x4.sub(v128.load(b), va), f32x4.splat(w))), out);
  } else {
    const ax = load<f32>(a), ay = load<f32>(a, 4), az = load<f32>(a, 8), aw = load<f32>(a, 12);
    normalizeStore4(
      ax + (load<f32>(b) - ax) * w,
      ay + (load<f32>(b, 4) - ay) * w,
      az + (load<f32>(b, 8) - az) * w,
      aw + (load<f32>(b, 12) - aw) * w,
      out,
    );
  }
}

// Slerp (spec nebula.md §3.4: DirectXMath `XMQuaternionSlerpV`, shortest arc, not renormalised) as
// Eberly's polynomial ("A Fast and Accurate Algorithm for Computing SLERP", 2011): with x = cos θ,
// sin(tθ)/sin θ = t · (1 + Σ_{j=1..8} P_j(t) (x − 1)^j), P_j = Π_{i≤j} (u_i t² − v_i),
// u_i = 1/(i(2i+1)), v_i = i/(2i+1), the last term scaled by μ to balance the truncation error.
// Evaluated in f64 (f64x2 lanes t and 1 − t in the SIMD build) and rounded to f32 once: the
// formula is within 4e-7° of the exact slerp for key gaps up to 90° (test/core/slerp.test.ts has
// the error budget of a float32 result). A gap over 120° is halved: its midpoint
// (a ± b) / √(2 + 2|cos θ|) is the exact slerp at ½, and the polynomial runs on the half that
// holds t, with weight 2t or 2t − 1 (gaps up to 90°), instead of the exact formula's atan2 and
// three sines (unit quaternions only; others, such as zero keys, keep the exact formula). The
// SIMD build also slerps four quaternions at a time in f32 when their key gaps are small
// (`slerp4`), where f32 stays within the budget.
// The P_j depend only on t, so callers sharing one weight (a uniform clip's rotations, a mix, a
// blend layer) prepare them once into a slot (`slerpPrepare`) and run `slerpPrepared` (or
// `slerpPrepared4`) per quaternion. Weights outside [0, 1] (a mix that extrapolates) take the exact formula. Twin:
// `slerp` in src/reference/quat.ts.

/** μ for the 8th term (fitted so the error stays under 1e-3° for 180° gaps). */
const SLERP_MU: f64 = 1.8632;
/** u_i and v_i for i = 1 … 8 (μ folded into the 8th). */
const SLERP_U = memory.data<f64>([1.0 / 3, 1.0 / 10, 1.0 / 21, 1.0 / 36, 1.0 / 55, 1.0 / 78, 1.0 / 105, SLERP_MU / 136]);
const SLERP_V = memory.data<f64>([1.0 / 3, 2.0 / 5, 3.0 / 7, 4.0 / 9, 5.0 / 11, 6.0 / 13, 7.0 / 15, (SLERP_MU * 8) / 17]);
/** xm1 = cos θ − 1 from which three terms suffice (θ ≤ 10.1°, key gaps ≤ 20°; error < 4e-9). */
const SLERP_SMALL: f64 = -1.0 / 64;
/**
 * xm1 below which the gap is halved (θ > 60°, key gaps over 120°, as between unrelated poses that
 * a blend mixes, or glTF's BoxAnimated): the polynomial's coefficient error grows to 2e-5
 * towards 180°.
 */
const SLERP_EXACT: f64 = -0.5;
/** |q|² within this of 1 is a unit quaternion, whose gaps may be halved. */
const UNIT_TOLERANCE: f64 = 1e-3;

// A slot of prepared coefficients: nine f64 pairs (for t, for 1 − t; pair 0 holds (t, 1 − t),
// pair j the P_j); at SLERP_KEY the u32 key of the weight they are for (its bits inverted, so a
// zeroed slot holds a NaN's, which no weight matches); at SLERP4_AT, SIMD, for `slerp4` and
// `slerpSoa4`: f32x4 splats of t·P_j(t) for j = 1 … 8 (at 16(j − 1)), of (1 − t)·P_j(1 − t) (at
// SLERP4_D + 16(j − 1)) and of t (at SLERP4_T), each rounded once from f64 — terms 4 to 8 only
// when `slerpSoa4` asks (`prepareSoa`; at SLERP_SOA_KEY the key they are for). At SLERP_HALF the same
// again for the weight of a halved gap (`slerpHalves`), so that a caller's weight and its half-gap
// weight stay prepared side by side.
const SLERP_KEY: usize = 144;
const SLERP_SOA_KEY: usize = 148;
const SLERP4_AT: usize = 160;
const SLERP4_D: usize = 128;
const SLERP4_T: usize = 256;
const SLERP_HALF: usize = SLERP4_AT + SLERP4_T + 16;
/** Bytes of a slot. */
export const SLERP_SLOT_SIZE: usize = 2 * SLERP_HALF;
/**
 * The slot of the samplers and the mixer: they share one weight over every rotation of a call.
 * The blend keeps a slot per layer instead (assembly/blend.ts), since its weights alternate
 * between layers curve by curve.
 */
export const SLERP_SHARED = memory.data(<i32>SLERP_SLOT_SIZE, 16);
/** The midpoint of a halved gap, float4. */
const MIDPOINT = memory.data(16, 16);

/**
 * Prepares `slot` for `slerpPrepared` with weight `w` (b's share, in [0, 1]); nothing to do when
 * it holds `w` already, so callers whose weight repeats pay the preparation once.
 */
export function slerpPrepare(slot: usize, w: f32): void {
  // Compared bit for bit, so that −0 and 0 keep their own coefficients' signs.
  const key = ~reinterpret<u32>(w);
  if (load<u32>(slot + SLERP_KEY) == key) return;
  store<u32>(slot + SLERP_KEY, key);
  const t = <f64>w;
  const d = 1 - t;
  const st = t * t;
  const sd = d * d;
  store<f64>(slot, t);
  store<f64>(slot, d, 8);
  if (ASC_FEATURE_SIMD) {
    // The pair (P_j(t), P_j(1 − t)) as one f64x2, the terms written out: a sampler prepares a
    // weight per instance and time group, and the loop's loads and tests cost as much as its
    // arithmetic. The same operations per lane as the loop below.
    const sq = f64x2.replace_lane(f64x2.splat(st), 1, sd);
    const td = f64x2.replace_lane(f64x2.splat(t), 1, d);
    let p = prepareTerm(slot, 1, f64x2.splat(1), sq, td);
    p = prepareTerm(slot, 2, p, sq, td);
    p = prepareTerm(slot, 3, p, sq, td);
    p = prepareTerm(slot, 4, p, sq, td);
    p = prepareTerm(slot, 5, p, sq, td);
    p = prepareTerm(slot, 6, p, sq, td);
    p = prepareTerm(slot, 7, p, sq, td);
    prepareTerm(slot, 8, p, sq, td);
    v128.store(slot + SLERP4_AT + SLERP4_T, f32x4.splat(w));
    return;
  }
  let pt: f64 = 1;
  let pd: f64 = 1;
  for (let j: usize = 1; j <= 8; j++) {
    const u = load<f64>(SLERP_U + ((j - 1) << 3));
    const v = load<f64>(SLERP_V + ((j - 1) << 3));
    pt *= u * st - v;
    pd *= u * sd - v;
    store<f64>(slot + (j << 4), pt);
    store<f64>(slot + (j << 4), pd, 8);
  }
}

/**
 * SIMD: term j of `slerpPrepare`: p = (P_j−1(t), P_j−1(1 − t)) times u_j·(t², (1 − t)²) − v_j,
 * stored as pair j; for j ≤ 3 also the f32x4 splats of t·P_j(t) and (1 − t)·P_j(1 − t) (`td`:
 * (t, 1 − t)), each rounded once from f64 (`slerp4`'s terms; `slerpSoa4` adds the others,
 * `prepareSoa`). Returns the new pair.
 */
// @ts-ignore: decorator
@inline
function prepareTerm(slot: usize, j: usize, p: v128, sq: v128, td: v128): v128 {
  const q = f64x2.mul(p, f64x2.sub(f64x2.mul(v128.load64_splat(SLERP_U + ((j - 1) << 3)), sq), v128.load64_splat(SLERP_V + ((j - 1) << 3))));
  v128.store(slot + (j << 4), q);
  if (j <= 3) storeTermSplats(slot, j, td, q);
  return q;
}

/** SIMD: the f32x4 splats of term j from its f64 pair q = (P_j(t), P_j(1 − t)) and td = (t, 1 − t). */
// @ts-ignore: decorator
@inline
function storeTermSplats(slot: usize, j: usize, td: v128, q: v128): void {
  const c = f32x4.demote_f64x2_zero(f64x2.mul(td, q));
  v128.store(slot + SLERP4_AT + ((j - 1) << 4), v128.shuffle<f32>(c, c, 0, 0, 0, 0));
  v128.store(slot + SLERP4_AT + SLERP4_D + ((j - 1) << 4), v128.shuffle<f32>(c, c, 1, 1, 1, 1));
}

/**
 * SIMD: the splats of terms 4 to 8 for `slerpSoa4`, from the slot's f64 pairs, once per weight
 * the slot is prepared for (SLERP_SOA_KEY: the key they were made for). Not in `slerpPrepare`:
 * a sampler prepares a weight per instance and reads three terms only (the stores cost
 * sample-uniform-slerp 9 %).
 */
// @ts-ignore: decorator
@inline
function prepareSoa(slot: usize): void {
  const key = load<u32>(slot + SLERP_KEY);
  if (load<u32>(slot + SLERP_SOA_KEY) == key) return;
  store<u32>(slot + SLERP_SOA_KEY, key);
  const td = v128.load(slot);
  storeTermSplats(slot, 4, td, v128.load(slot, 64));
  storeTermSplats(slot, 5, td, v128.load(slot, 80));
  storeTermSplats(slot, 6, td, v128.load(slot, 96));
  storeTermSplats(slot, 7, td, v128.load(slot, 112));
  storeTermSplats(slot, 8, td, v128.load(slot, 128));
}

/**
 * SIMD: the slerp of the four float4 quaternions at `a` (16-byte steps) with the four at `b`, with
 * the weight `slot` was prepared for, into `d0` … `d3`: four at a time in f32 (`slerp4`), and
 * by `slerpPrepared` the quaternions `slerp4` leaves to it.
 */
// @ts-ignore: decorator
@inline
export function slerpPrepared4(slot: usize, a: usize, b: usize, d0: usize, d1: usize, d2: usize, d3: usize): void {
  slerpGathered4(slot, a, a + 16, a + 32, a + 48, b, b + 16, b + 32, b + 48, d0, d1, d2, d3);
}

/**
 * SIMD: `slerpPrepared4` deciding lane by lane: each quaternion whose own gap is within `slerp4`'s
 * reach in f32, the others by `slerpPrepared`, so that a quaternion's result depends on its own
 * keys and weight only (the keyed sampler: the four-instance pass slerps one rotation of four
 * instances, not four rotations of one, and gives the same bits; assembly/skinning-four.ts).
 */
// @ts-ignore: decorator
@inline
export function slerpPreparedEach4(slot: usize, a: usize, b: usize, d0: usize, d1: usize, d2: usize, d3: usize): void {
  slerpGathered4(slot, a, a + 16, a + 32, a + 48, b, b + 16, b + 32, b + 48, d0, d1, d2, d3, true);
}

/**
 * SIMD: `slerpPrepared4` of quaternions anywhere: a_k at `a0` … `a3`, b_k at `b0` … `b3`, into
 * `d0` … `d3` (the blend's rotations lie between other curves). A `d_k` may alias its `a_k` or `b_k`.
 */
// @ts-ignore: decorator
@inline
export function slerpGathered4(
  slot: usize, a0: usize, a1: usize, a2: usize, a3: usize, b0: usize, b1: usize, b2: usize, b3: usize,
  d0: usize, d1: usize, d2: usize, d3: usize, each: bool = false,
): void {
  const qa0 = v128.load(a0), qa1 = v128.load(a1), qa2 = v128.load(a2), qa3 = v128.load(a3);
  const qb0 = v128.load(b0), qb1 = v128.load(b1), qb2 = v128.load(b2), qb3 = v128.load(b3);
  // Transposed to structure of arrays: (x0 x1 y0 y1), (z0 z1 w0 w1), then x, y, z, w of all four.
  const axy01 = v128.shuffle<f32>(qa0, qa1, 0, 4, 1, 5), azw01 = v128.shuffle<f32>(qa0, qa1, 2, 6, 3, 7);
  const axy23 = v128.shuffle<f32>(qa2, qa3, 0, 4, 1, 5), azw23 = v128.shuffle<f32>(qa2, qa3, 2, 6, 3, 7);
  const bxy01 = v128.shuffle<f32>(qb0, qb1, 0, 4, 1, 5), bzw01 = v128.shuffle<f32>(qb0, qb1, 2, 6, 3, 7);
  const bxy23 = v128.shuffle<f32>(qb2, qb3, 0, 4, 1, 5), bzw23 = v128.shuffle<f32>(qb2, qb3, 2, 6, 3, 7);
  const c = slot + SLERP4_AT;
  const rest = slerp4At(
    c,
    c + SLERP4_D,
    c + SLERP4_T,
    v128.shuffle<f32>(axy01, axy23, 0, 1, 4, 5),
    v128.shuffle<f32>(axy01, axy23, 2, 3, 6, 7),
    v128.shuffle<f32>(azw01, azw23, 0, 1, 4, 5),
    v128.shuffle<f32>(azw01, azw23, 2, 3, 6, 7),
    v128.shuffle<f32>(bxy01, bxy23, 0, 1, 4, 5),
    v128.shuffle<f32>(bxy01, bxy23, 2, 3, 6, 7),
    v128.shuffle<f32>(bzw01, bzw23, 0, 1, 4, 5),
    v128.shuffle<f32>(bzw01, bzw23, 2, 3, 6, 7),
    d0,
    d1,
    d2,
    d3,
    false,
    each,
  );
  if (rest) {
    // From the inputs held in registers: slerp4 may have stored a lane it leaves (a result shorter
    // than 1e-6) over an input that `d_k` aliases.
    if (rest & 1) slerpPreparedPair(slot, qa0, qb0, d0);
    if (rest & 2) slerpPreparedPair(slot, qa1, qb1, d1);
    if (rest & 4) slerpPreparedPair(slot, qa2, qb2, d2);
    if (rest & 8) slerpPreparedPair(slot, qa3, qb3, d3);
  }
}

/** One lane of `slerpGathered4` by `slerpPrepared`: the pair it reads (a, then b). */
const LANE_PAIR = memory.data(32, 16);

/** Out of line: one copy of the slerp for every lane of every caller (the module's size). */
export function slerpPreparedPair(slot: usize, a: v128, b: v128, out: usize): void {
  v128.store(LANE_PAIR, a);
  v128.store(LANE_PAIR, b, 16);
  slerpPrepared(slot, LANE_PAIR, LANE_PAIR + 16, out);
}

/**
 * SIMD: slerps four quaternion pairs held as structure of arrays (x, y, z, w of the four a's and of
 * the four b's) with the weight t `slot` was prepared for, in f32, and stores quaternion i at
 * `d0` … `d3` — when every pair is within SLERP_SMALL (key gaps up to ~20°, every gap of 30 Hz
 * motion). Returns the lanes (bit i: quaternion i) it did not store, for the caller to do with
 * `slerpPrepared`: all four when a gap is larger, else those whose result is shorter than 1e-6
 * (identity).
 *
 * Why f32 holds the bound here (the error budget is in test/core/slerp.test.ts): the result is
 * a + (t·(b − a) + (α·a + β·b)), with α = c_a − (1 − t) and β = c_b − t the polynomial's part
 * beyond the linear weights (|α|, |β| < 0.002 for these gaps). Every term added to a is small, so
 * the rounding that counts is the last addition — the one a correctly rounded result has too.
 * c_a·a + c_b·b in f32 rounds two products of the keys' size first: measured up to 1.01e-5° off
 * the exact slerp, where this form stays at 6.0e-6° (correct rounding alone: 5.6e-6°). For larger
 * gaps neither form stays within 1e-5° in f32 (1.07e-5° at 90°), so they take the f64 path.
 */
// @ts-ignore: decorator
@inline
export function slerp4(slot: usize, ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128, d0: usize, d1: usize, d2: usize, d3: usize): i32 {
  const c = slot + SLERP4_AT;
  return slerp4At(c, c + SLERP4_D, c + SLERP4_T, ax, ay, az, aw, bx, by, bz, bw, d0, d1, d2, d3, false, false);
}

/**
 * SIMD: `slerp4` with a weight per lane (lane i: its own t): the coefficients at `c` as
 * `slerpPrepareLanes4` lays them out; stores the four results as structure of arrays (x, y, z, w
 * of the four, one f32x4 each) at `out`. Returns the lanes `slerp4` would leave to `slerpPrepared`
 * (a gap beyond SLERP_SMALL in that lane, or a result shorter than 1e-6): each lane is bit for bit
 * what `slerp4` gives for that pair and weight where it returns no lane (four instances of one
 * rotation at their own key pairs and weights: assembly/skinning-four.ts).
 */
// @ts-ignore: decorator
@inline
export function slerpLanes4(c: usize, ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128, out: usize): i32 {
  return slerp4At(c, c + 48, c + 96, ax, ay, az, aw, bx, by, bz, bw, out, 0, 0, 0, true, true);
}

/** Bytes of `slerpPrepareLanes4`'s coefficients. */
export const SLERP_LANES_SIZE: usize = 112;

/**
 * SIMD: the coefficients of `slerpLanes4` for the weights `ws` (f32 lanes in [0, 1]) at `c`: per
 * lane the f32 t·P_j(t) for j = 1 … 3 (at 16(j − 1)), (1 − t)·P_j(1 − t) (at 48 + 16(j − 1)) and t
 * (at 96), by `slerpPrepare`'s operations on each lane (so the same bits as its splats).
 */
export function slerpPrepareLanes4(ws: v128, c: usize): void {
  const one = f64x2.splat(1);
  const t01 = promoteLow(ws), t23 = promoteHigh(ws);
  const d01 = f64x2.sub(one, t01), d23 = f64x2.sub(one, t23);
  const st01 = f64x2.mul(t01, t01), st23 = f64x2.mul(t23, t23);
  const sd01 = f64x2.mul(d01, d01), sd23 = f64x2.mul(d23, d23);
  // P_1 = 1 · (u_1 x − v_1): the product by 1 left out (exact).
  let pt01 = lanesTerm(0, one, st01, true), pt23 = lanesTerm(0, one, st23, true);
  let pd01 = lanesTerm(0, one, sd01, true), pd23 = lanesTerm(0, one, sd23, true);
  storeLanesTerm(c, 0, t01, t23, d01, d23, pt01, pt23, pd01, pd23);
  pt01 = lanesTerm(1, pt01, st01, false);
  pt23 = lanesTerm(1, pt23, st23, false);
  pd01 = lanesTerm(1, pd01, sd01, false);
  pd23 = lanesTerm(1, pd23, sd23, false);
  storeLanesTerm(c, 1, t01, t23, d01, d23, pt01, pt23, pd01, pd23);
  pt01 = lanesTerm(2, pt01, st01, false);
  pt23 = lanesTerm(2, pt23, st23, false);
  pd01 = lanesTerm(2, pd01, sd01, false);
  pd23 = lanesTerm(2, pd23, sd23, false);
  storeLanesTerm(c, 2, t01, t23, d01, d23, pt01, pt23, pd01, pd23);
  v128.store(c, ws, 96);
}

/** P_(i+1) from P_i (`p`) and x = t² or (1 − t)² on two lanes, as `prepareTerm`; `first`: P_1 itself. */
// @ts-ignore: decorator
@inline
function lanesTerm(i: usize, p: v128, sq: v128, first: bool): v128 {
  const q = f64x2.sub(f64x2.mul(v128.load64_splat(SLERP_U + (i << 3)), sq), v128.load64_splat(SLERP_V + (i << 3)));
  return first ? q : f64x2.mul(p, q);
}

/** Term i + 1 of the four lanes rounded to f32 as `storeTermSplats` rounds them: t·P(t) at c + 16i, (1 − t)·P(1 − t) at c + 48 + 16i. */
// @ts-ignore: decorator
@inline
function storeLanesTerm(c: usize, i: usize, t01: v128, t23: v128, d01: v128, d23: v128, pt01: v128, pt23: v128, pd01: v128, pd23: v128): void {
  const ct01 = f32x4.demote_f64x2_zero(f64x2.mul(t01, pt01)), ct23 = f32x4.demote_f64x2_zero(f64x2.mul(t23, pt23));
  const cd01 = f32x4.demote_f64x2_zero(f64x2.mul(d01, pd01)), cd23 = f32x4.demote_f64x2_zero(f64x2.mul(d23, pd23));
  v128.store(c + (i << 4), v128.shuffle<f32>(ct01, ct23, 0, 1, 4, 5));
  v128.store(c + 48 + (i << 4), v128.shuffle<f32>(cd01, cd23, 0, 1, 4, 5));
}

/**
 * `slerp4At`'s constants as f32x4, loaded where used (one load each, where a splatted constant is
 * three instructions in every turn of the callers' loops): 1, SLERP_SMALL, −0 (the sign bit),
 * MIN_LENGTH_SQ; then all bits but the sign (`SLERP4_ABS`).
 */
const SLERP4_CONSTANTS = memory.data<f32>([1, 1, 1, 1, <f32>SLERP_SMALL, <f32>SLERP_SMALL, <f32>SLERP_SMALL, <f32>SLERP_SMALL, -0.0, -0.0, -0.0, -0.0, MIN_LENGTH_SQ, MIN_LENGTH_SQ, MIN_LENGTH_SQ, MIN_LENGTH_SQ], 16);
const SLERP4_ABS = memory.data<u32>([0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff], 16);

/**
 * `slerp4`'s arithmetic from coefficients at `c` (t·P_j(t)) and `e` ((1 − t)·P_j(1 − t)) and the
 * weights at `tAt`, the results stored at `d0` … `d3` (`soa`: as structure of arrays at `d0`). With
 * `each` false as `slerp4` (15 when any gap is large); with `each` true every lane computed, the
 * lanes with a large gap returned beside the short ones.
 */
// @ts-ignore: decorator
@inline
function slerp4At(
  c: usize, e: usize, tAt: usize, ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128,
  d0: usize, d1: usize, d2: usize, d3: usize, soa: bool, each: bool,
): i32 {
  // (ax bx + az bz) + (ay by + aw bw): the order of the other builds' dot.
  const dot = f32x4.add(f32x4.add(f32x4.mul(ax, bx), f32x4.mul(az, bz)), f32x4.add(f32x4.mul(ay, by), f32x4.mul(aw, bw)));
  const K = SLERP4_CONSTANTS;
  const one = v128.load(K);
  const xm1 = f32x4.sub(f32x4.pmin(v128.and(dot, v128.load(SLERP4_ABS)), one), one);
  const large = f32x4.lt(xm1, v128.load(K, 16));
  if (!each && v128.any_true(large)) return 15;
  // The shortest arc: b negated where dot < 0.
  const neg = v128.and(f32x4.lt(dot, f32x4.splat(0)), v128.load(K, 32));
  // β = t Σ P_j(t) xm1^j and α likewise for 1 − t, three terms by Horner (beyond them < 4e-9).
  const beta = f32x4.mul(hornerStep(hornerStep(v128.load(c, 32), xm1, v128.load(c, 16)), xm1, v128.load(c)), xm1);
  const alpha = f32x4.mul(hornerStep(hornerStep(v128.load(e, 32), xm1, v128.load(e, 16)), xm1, v128.load(e)), xm1);
  const t = v128.load(tAt);
  const x = slerpLane(ax, v128.xor(bx, neg), t, alpha, beta);
  const y = slerpLane(ay, v128.xor(by, neg), t, alpha, beta);
  const z = slerpLane(az, v128.xor(bz, neg), t, alpha, beta);
  const w = slerpLane(aw, v128.xor(bw, neg), t, alpha, beta);
  const sq = f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(z, z)), f32x4.add(f32x4.mul(y, y), f32x4.mul(w, w)));
  const short = f32x4.lt(sq, v128.load(K, 48));
  if (soa) {
    v128.store(d0, x);
    v128.store(d0, y, 16);
    v128.store(d0, z, 32);
    v128.store(d0, w, 48);
  } else {
    transposeStore(x, y, z, w, d0, d1, d2, d3);
  }
  return i32x4.bitmask(each ? v128.or(short, large) : short);
}

/** Horner's last four steps from h: ((((h·x + c₄)·x + c₃)·x + c₂)·x + c₁), c_j the f32x4 at p + 16(j − 1). */
// @ts-ignore: decorator
@inline
function hornerFrom(h: v128, p: usize, x: v128): v128 {
  return hornerStep(hornerStep(hornerStep(hornerStep(h, x, v128.load(p, 48)), x, v128.load(p, 32)), x, v128.load(p, 16)), x, v128.load(p));
}

/** Σ_{j=1..8} c_j x^(j − 1) on four lanes by Estrin's scheme (short dependency chains), c_j the f32x4 at p + 16(j − 1). */
// @ts-ignore: decorator
@inline
function estrinSoa(p: usize, x: v128, x2: v128, x4: v128): v128 {
  const e01 = hornerStep(v128.load(p, 16), x, v128.load(p));
  const e23 = hornerStep(v128.load(p, 48), x, v128.load(p, 32));
  const e45 = hornerStep(v128.load(p, 80), x, v128.load(p, 64));
  const e67 = hornerStep(v128.load(p, 112), x, v128.load(p, 96));
  return hornerStep(hornerStep(e67, x2, e45), x4, hornerStep(e23, x2, e01));
}

/** h·x + c on four lanes. */
// @ts-ignore: decorator
@inline
function hornerStep(h: v128, x: v128, c: v128): v128 {
  return f32x4.add(f32x4.mul(h, x), c);
}

/** One component of four slerps: a + (t·(b − a) + (α·a + β·b)). */
// @ts-ignore: decorator
@inline
function slerpLane(a: v128, b: v128, t: v128, alpha: v128, beta: v128): v128 {
  return f32x4.add(a, f32x4.add(f32x4.mul(t, f32x4.sub(b, a)), f32x4.add(f32x4.mul(alpha, a), f32x4.mul(beta, b))));
}

/** SIMD: stores four quaternions held as structure of arrays as one float4 each at `d0` … `d3`. */
// @ts-ignore: decorator
@inline
export function transposeStore(x: v128, y: v128, z: v128, w: v128, d0: usize, d1: usize, d2: usize, d3: usize): void {
  const xy01 = v128.shuffle<f32>(x, y, 0, 4, 1, 5);
  const zw01 = v128.shuffle<f32>(z, w, 0, 4, 1, 5);
  const xy23 = v128.shuffle<f32>(x, y, 2, 6, 3, 7);
  const zw23 = v128.shuffle<f32>(z, w, 2, 6, 3, 7);
  v128.store(d0, v128.shuffle<f32>(xy01, zw01, 0, 1, 4, 5));
  v128.store(d1, v128.shuffle<f32>(xy01, zw01, 2, 3, 6, 7));
  v128.store(d2, v128.shuffle<f32>(xy23, zw23, 0, 1, 4, 5));
  v128.store(d3, v128.shuffle<f32>(xy23, zw23, 2, 3, 6, 7));
}

// The blend's four-at-a-time slerp (assembly/blend.ts): four quaternion pairs as structure of
// arrays in memory — at `a`, `b` and `out` 64 bytes each, the x, y, z and w of the four as one f32x4
// each — so that a blend keeps a group of four rotations in that form from layer to layer. Where
// the four gaps are up to 45°, `slerp4`'s f32 form with five terms (SOA_SMALL). Otherwise the
// polynomial's part beyond the linear weights in f32 on the four lanes and the weighted sum in f64
// two lanes per f64x2 (`slerpMixedPair`: four lanes per polynomial instead of two, and the rounding
// of an f64 result), gaps over 120° halved lane by lane (`slerpHalvedSoa`: `slerpHalves`' midpoint
// and half weight, the midpoint not formed). Within the slerp budget everywhere
// (test/core/blend-slerp.test.ts). Lanes that `slerpPrepared` would take elsewhere (a result
// shorter than 1e-6, a halved pair's quaternions that are not unit) are redone by it.

/**
 * xm1 = cos θ − 1 from which `slerpSoa4` slerps in f32 (θ ≤ 22.5°, key gaps ≤ 45°) with five
 * terms: measured (a search of 1.5 million pairs per range on an f32 model of the form) up to
 * 7.7e-6° off the exact slerp for gaps of 36–45°, within the f32 allowance of the slerp budget
 * (test/helpers/slerp-budget.ts; 6.1e-6° for `slerp4`'s three terms up to 20°), under the
 * issue's 1e-5°; three terms reach 1.03e-5° at 40–45°, four 8.0e-6°.
 */
const SOA_SMALL: f32 = -0.07612;
/** xm1 below which the f32 dot may mean a gap over 120° (θ > 59.4°, gaps over ~119°): the f64 dot decides (`slerpHalvedSoa`). */
const SOA_WIDE: f32 = -0.49;
/** `slerpSoa4`'s inputs, kept for the lanes it hands to `slerpPrepared`: the a's, then the b's (structure of arrays). */
const SOA_LANES = memory.data(128, 16);

/** SLERP_KEY of weight 1 (`slerpSoa4` takes b there). */
const KEY_ONE: u32 = ~reinterpret<u32>(<f32>1);

/**
 * SIMD: out = slerp(a, b) for four quaternion pairs in structure of arrays (see above) with the
 * weight t in [0, 1] that `slot` was prepared for; `out` may be `a` or `b`.
 */
export function slerpSoa4(slot: usize, a: usize, b: usize, out: usize): void {
  if (load<u32>(slot + SLERP_KEY) == KEY_ONE && takeEnd(a, b, out)) return;
  prepareSoa(slot);
  const ax = v128.load(a), ay = v128.load(a, 16), az = v128.load(a, 32), aw = v128.load(a, 48);
  const bx = v128.load(b), by = v128.load(b, 16), bz = v128.load(b, 32), bw = v128.load(b, 48);
  const dot = f32x4.add(f32x4.add(f32x4.mul(ax, bx), f32x4.mul(az, bz)), f32x4.add(f32x4.mul(ay, by), f32x4.mul(aw, bw)));
  const one = f32x4.splat(1);
  const xm1 = f32x4.sub(f32x4.pmin(f32x4.abs(dot), one), one);
  let rest: i32;
  if (!v128.any_true(f32x4.lt(xm1, f32x4.splat(<f32>SOA_SMALL)))) {
    // `slerp4`'s form and roundings, with five terms.
    const neg = v128.and(f32x4.lt(dot, f32x4.splat(0)), f32x4.splat(-0.0));
    const c = slot + SLERP4_AT;
    const beta = f32x4.mul(hornerFrom(v128.load(c, 64), c, xm1), xm1);
    const alpha = f32x4.mul(hornerFrom(v128.load(c, SLERP4_D + 64), c + SLERP4_D, xm1), xm1);
    const t = v128.load(c, SLERP4_T);
    const x = slerpLane(ax, v128.xor(bx, neg), t, alpha, beta);
    const y = slerpLane(ay, v128.xor(by, neg), t, alpha, beta);
    const z = slerpLane(az, v128.xor(bz, neg), t, alpha, beta);
    const w = slerpLane(aw, v128.xor(bw, neg), t, alpha, beta);
    const sq = f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(z, z)), f32x4.add(f32x4.mul(y, y), f32x4.mul(w, w)));
    rest = v128.bitmask<i32>(f32x4.lt(sq, f32x4.splat(MIN_LENGTH_SQ)));
    v128.store(out, x);
    v128.store(out, y, 16);
    v128.store(out, z, 32);
    v128.store(out, w, 48);
  } else {
    // The polynomial's part beyond the linear weights in f32 on the four lanes (all eight terms),
    // the weighted sum in f64 two lanes at a time; gaps over 120° halved (`slerpHalvedSoa`).
    const c = slot + SLERP4_AT;
    const x2 = f32x4.mul(xm1, xm1);
    const x4 = f32x4.mul(x2, x2);
    const beta = f32x4.mul(estrinSoa(c, xm1, x2, x4), xm1);
    const alpha = f32x4.mul(estrinSoa(c + SLERP4_D, xm1, x2, x4), xm1);
    const neg = f32x4.lt(dot, f32x4.splat(0));
    if (v128.any_true(f32x4.lt(xm1, f32x4.splat(SOA_WIDE)))) {
      rest = slerpHalvedSoa(slot, ax, ay, az, aw, bx, by, bz, bw, f32x4.abs(dot), alpha, beta, out);
    } else {
      const t = v128.load64_splat(slot), d = v128.load64_splat(slot, 8);
      rest = slerpMixedPair(t, d, promoteLow(alpha), promoteLow(beta), i64x2.extend_low_i32x4_s(neg), promoteLow(ax), promoteLow(ay), promoteLow(az), promoteLow(aw), promoteLow(bx), promoteLow(by), promoteLow(bz), promoteLow(bw), out);
      rest |= slerpMixedPair(t, d, promoteHigh(alpha), promoteHigh(beta), i64x2.extend_high_i32x4_s(neg), promoteHigh(ax), promoteHigh(ay), promoteHigh(az), promoteHigh(aw), promoteHigh(bx), promoteHigh(by), promoteHigh(bz), promoteHigh(bw), out + 8) << 2;
    }
  }
  if (rest != 0) {
    v128.store(SOA_LANES, ax);
    v128.store(SOA_LANES, ay, 16);
    v128.store(SOA_LANES, az, 32);
    v128.store(SOA_LANES, aw, 48);
    v128.store(SOA_LANES, bx, 64);
    v128.store(SOA_LANES, by, 80);
    v128.store(SOA_LANES, bz, 96);
    v128.store(SOA_LANES, bw, 112);
    slerpSoaLanes(slot, rest, out);
  }
}

/**
 * SIMD: `slerpSoa4` at t = 1, whose polynomial's coefficients are exactly (0, 1) — the slerp ends
 * at b along the shortest arc: out = ±b, the sign from the f64 dot as `slerpPrepared` takes it
 * (the f32 path's a + (b − a) may round b's last bit instead). A weight-1 layer under `priority`
 * and an additive layer of weight 1 (three.js's default for an additive action) so skip their
 * slerps. Returns false, storing nothing, where a lane needs `slerpSoa4`'s own handling: b shorter
 * than 1e-6 (identity) or a dot that is not a number.
 */
function takeEnd(a: usize, b: usize, out: usize): bool {
  const ax = v128.load(a), ay = v128.load(a, 16), az = v128.load(a, 32), aw = v128.load(a, 48);
  const bx = v128.load(b), by = v128.load(b, 16), bz = v128.load(b, 32), bw = v128.load(b, 48);
  const bb = f32x4.add(f32x4.add(f32x4.mul(bx, bx), f32x4.mul(bz, bz)), f32x4.add(f32x4.mul(by, by), f32x4.mul(bw, bw)));
  if (!i32x4.all_true(f32x4.ge(bb, f32x4.splat(MIN_LENGTH_SQ)))) return false;
  const lo = dotPair(promoteLow(ax), promoteLow(ay), promoteLow(az), promoteLow(aw), promoteLow(bx), promoteLow(by), promoteLow(bz), promoteLow(bw));
  const hi = dotPair(promoteHigh(ax), promoteHigh(ay), promoteHigh(az), promoteHigh(aw), promoteHigh(bx), promoteHigh(by), promoteHigh(bz), promoteHigh(bw));
  if (!i64x2.all_true(v128.and(f64x2.eq(lo, lo), f64x2.eq(hi, hi)))) return false;
  // i64 lane masks of dot < 0 narrowed to the four f32 lanes, then b's sign bits flipped there.
  const neg = v128.shuffle<i32>(f64x2.lt(lo, f64x2.splat(0)), f64x2.lt(hi, f64x2.splat(0)), 0, 2, 4, 6);
  const flip = v128.and(neg, f32x4.splat(-0.0));
  v128.store(out, v128.xor(bx, flip));
  v128.store(out, v128.xor(by, flip), 16);
  v128.store(out, v128.xor(bz, flip), 32);
  v128.store(out, v128.xor(bw, flip), 48);
  return true;
}

/** (ax bx + az bz) + (ay by + aw bw) on two f64 lanes: the order of `slerpPrepared`'s dot. */
// @ts-ignore: decorator
@inline
function dotPair(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.mul(ax, bx), f64x2.mul(az, bz)), f64x2.add(f64x2.mul(ay, by), f64x2.mul(aw, bw)));
}

/** f32 lanes 0 and 1 of `v` as an f64x2. */
// @ts-ignore: decorator
@inline
export function promoteLow(v: v128): v128 {
  return f64x2.promote_low_f32x4(v);
}

/** f32 lanes 2 and 3 of `v` as an f64x2. */
// @ts-ignore: decorator
@inline
export function promoteHigh(v: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 0, 1));
}

/**
 * `slerpSoa4`'s mixed path where some lanes may hold a gap over 120° (the f32 dot says over ~119°,
 * `cut`; the f64 dot decides, as `slerpPrepared` does): those are halved as `slerpHalves` does,
 * without forming the midpoint m = (a ± b) · k, k = 1 / √(2 + 2|a·b|): α and β run on cos of the half
 * gap — (a·a + |a·b|) · k for (a, m), (|a·b| + b·b) · k for (m, b) — with the half weight (the
 * slot's half), and the coefficients (c_a', c_b') on (a, m) or (m, b) become a's and b's in f64:
 * c_a' + c_b' k and c_b' k, or c_a' k and c_a' k + c_b' (b's with the sign of the shortest arc).
 * a·a, b·b, |a·b| and k are f32: measured on an f32 model of these operations (300,000 random
 * pairs per range of 110–180°), at most 7.0e-6° off the exact slerp, where the twin (its midpoint
 * rounded to f32) reaches 9.4e-6°. The other lanes as `slerpMixedPair` from `alpha`, `beta`.
 * Halved lanes whose quaternions are not unit are redone by `slerpPrepared`. Returns the lanes to redo.
 */
function slerpHalvedSoa(
  slot: usize, ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128,
  x: v128, alpha: v128, beta: v128, out: usize,
): i32 {
  const one = f32x4.splat(1);
  const aa = f32x4.add(f32x4.add(f32x4.mul(ax, ax), f32x4.mul(az, az)), f32x4.add(f32x4.mul(ay, ay), f32x4.mul(aw, aw)));
  const bb = f32x4.add(f32x4.add(f32x4.mul(bx, bx), f32x4.mul(bz, bz)), f32x4.add(f32x4.mul(by, by), f32x4.mul(bw, bw)));
  // 1 / √(2 + 2|cos θ|), as `slerpHalves` and the twin take it: equal to 1 / |a ± b| for unit keys,
  // and the same midpoint for keys that are unit only within UNIT_TOLERANCE.
  const k = f32x4.div(one, f32x4.sqrt(f32x4.add(f32x4.splat(2), f32x4.add(x, x))));
  const t = <f32>load<f64>(slot);
  const low = t <= 0.5;
  const half = slot + SLERP_HALF;
  slerpPrepare(half, low ? t * 2 : t * 2 - 1);
  prepareSoa(half);
  const xm1 = f32x4.sub(f32x4.pmin(f32x4.mul(f32x4.add(low ? aa : bb, x), k), one), one);
  const x2 = f32x4.mul(xm1, xm1);
  const x4 = f32x4.mul(x2, x2);
  const c = half + SLERP4_AT;
  const ah = f32x4.mul(estrinSoa(c + SLERP4_D, xm1, x2, x4), xm1);
  const bh = f32x4.mul(estrinSoa(c, xm1, x2, x4), xm1);
  const tf = v128.load64_splat(slot), df = v128.load64_splat(slot, 8);
  const th = v128.load64_splat(half), dh = v128.load64_splat(half, 8);
  let redo = halvedPair(low, tf, df, th, dh, promoteLow(k), promoteLow(alpha), promoteLow(beta), promoteLow(ah), promoteLow(bh),
    promoteLow(ax), promoteLow(ay), promoteLow(az), promoteLow(aw), promoteLow(bx), promoteLow(by), promoteLow(bz), promoteLow(bw), out);
  redo |= halvedPair(low, tf, df, th, dh, promoteHigh(k), promoteHigh(alpha), promoteHigh(beta), promoteHigh(ah), promoteHigh(bh),
    promoteHigh(ax), promoteHigh(ay), promoteHigh(az), promoteHigh(aw), promoteHigh(bx), promoteHigh(by), promoteHigh(bz), promoteHigh(bw), out + 8) << 2;
  return redo;
}

/**
 * Two lanes of `slerpHalvedSoa` (weights t, 1 − t of the slot and of its half as f64 splats; α, β
 * of the gap and of its half). The decisions in f64 as `slerpPrepared` makes them: whether to halve
 * (a lane near 120° with keys that are not unit takes the exact formula there, the polynomial
 * below), the unit test, and the shortest arc's sign (a gap near 180° has a dot near 0, whose sign
 * the f32 dot may get wrong — and the two arcs' slerps differ by up to 180°).
 */
// @ts-ignore: decorator
@inline
function halvedPair(
  low: bool, tf: v128, df: v128, th: v128, dh: v128, k: v128, alpha: v128, beta: v128, ah: v128, bh: v128,
  ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128, out: usize,
): i32 {
  const one = f64x2.splat(1);
  const dot = dotPair(ax, ay, az, aw, bx, by, bz, bw);
  const sign = v128.and(f64x2.lt(dot, f64x2.splat(0)), f64x2.splat(-0.0));
  const cut = f64x2.lt(f64x2.sub(f64x2.pmin(f64x2.abs(dot), one), one), f64x2.splat(SLERP_EXACT));
  const aa = f64x2.add(f64x2.add(f64x2.mul(ax, ax), f64x2.mul(az, az)), f64x2.add(f64x2.mul(ay, ay), f64x2.mul(aw, aw)));
  const bb = f64x2.add(f64x2.add(f64x2.mul(bx, bx), f64x2.mul(bz, bz)), f64x2.add(f64x2.mul(by, by), f64x2.mul(bw, bw)));
  const tolerance = f64x2.splat(UNIT_TOLERANCE);
  const unit = v128.and(f64x2.le(f64x2.abs(f64x2.sub(aa, one)), tolerance), f64x2.le(f64x2.abs(f64x2.sub(bb, one)), tolerance));
  const ca = f64x2.add(v128.bitselect(dh, df, cut), v128.bitselect(ah, alpha, cut));
  const cb = f64x2.add(v128.bitselect(th, tf, cut), v128.bitselect(bh, beta, cut));
  let ch: v128, cbh: v128;
  if (low) {
    cbh = f64x2.mul(cb, k);
    ch = f64x2.add(ca, cbh);
  } else {
    ch = f64x2.mul(ca, k);
    cbh = f64x2.add(ch, cb);
  }
  const small = combinePair(v128.bitselect(ch, ca, cut), v128.xor(v128.bitselect(cbh, cb, cut), sign), ax, ay, az, aw, bx, by, bz, bw, out);
  return v128.bitmask<i64>(v128.or(small, v128.andnot(cut, unit)));
}

/**
 * Two lanes of `slerpSoa4` for gaps from 45° up to 120°: c_a = (1 − t) + α and c_b = t + β in
 * f64 from α and β, the polynomial's part beyond the linear weights (`slerp4`'s α, β with all eight
 * terms, by Estrin's scheme in f32 on four lanes); then c_a·a + c_b·b in f64, rounded once, as the
 * f64 path. α and β are small beside the linear weights, so their f32 rounding moves the result by
 * far less than its own rounding, which f32 sums of c_a·a + c_b·b would not (1.07e-5° at 90°).
 * Measured on an f32 model of these operations (a million random pairs per range): at most
 * 5.9e-6° off the exact slerp for gaps up to 90° (correct rounding alone: 5.6e-6°); for 90–119°
 * the formula's own error, 2.9e-5° (the twin's; the bound there is 1e-3°). `neg`: i64 lanes set
 * where dot < 0 (b's sign along the shortest arc). Returns the lanes to redo (a result shorter than 1e-6).
 */
// @ts-ignore: decorator
@inline
function slerpMixedPair(
  t: v128, d: v128, alpha: v128, beta: v128, neg: v128, ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128, out: usize,
): i32 {
  const cb = v128.xor(f64x2.add(t, beta), v128.and(neg, f64x2.splat(-0.0)));
  return v128.bitmask<i64>(combinePair(f64x2.add(d, alpha), cb, ax, ay, az, aw, bx, by, bz, bw, out));
}

/**
 * ca·a + cb·b on two f64 lanes (components as f64x2), stored as f32 pairs at out, out + 16,
 * out + 32, out + 48 (structure of arrays); returns the lanes whose result is shorter than 1e-6.
 */
// @ts-ignore: decorator
@inline
function combinePair(ca: v128, cb: v128, ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128, out: usize): v128 {
  const rx = f64x2.add(f64x2.mul(ca, ax), f64x2.mul(cb, bx));
  const ry = f64x2.add(f64x2.mul(ca, ay), f64x2.mul(cb, by));
  const rz = f64x2.add(f64x2.mul(ca, az), f64x2.mul(cb, bz));
  const rw = f64x2.add(f64x2.mul(ca, aw), f64x2.mul(cb, bw));
  const sq = f64x2.add(f64x2.add(f64x2.mul(rx, rx), f64x2.mul(rz, rz)), f64x2.add(f64x2.mul(ry, ry), f64x2.mul(rw, rw)));
  v128.store64_lane(out, f32x4.demote_f64x2_zero(rx), 0);
  v128.store64_lane(out, f32x4.demote_f64x2_zero(ry), 0, 16);
  v128.store64_lane(out, f32x4.demote_f64x2_zero(rz), 0, 32);
  v128.store64_lane(out, f32x4.demote_f64x2_zero(rw), 0, 48);
  return f64x2.lt(sq, f64x2.splat(<f64>MIN_LENGTH_SQ));
}

/** The lanes of `rest` (bit i: quaternion i) of a `slerpSoa4` call, from SOA_LANES, by `slerpPrepared`. Out of line: rare. */
function slerpSoaLanes(slot: usize, rest: i32, out: usize): void {
  for (let i: usize = 0; i < 4; i++) {
    if ((rest & (1 << <i32>i)) == 0) continue;
    for (let c: usize = 0; c < 4; c++) {
      store<f32>(LANE_PAIR + (c << 2), load<f32>(SOA_LANES + (c << 4) + (i << 2)));
      store<f32>(LANE_PAIR + 16 + (c << 2), load<f32>(SOA_LANES + 64 + (c << 4) + (i << 2)));
    }
    slerpPrepared(slot, LANE_PAIR, LANE_PAIR + 16, LANE_PAIR);
    for (let c: usize = 0; c < 4; c++) store<f32>(out + (c << 4) + (i << 2), load<f32>(LANE_PAIR + (c << 2)));
  }
}

/**
 * Slerp of the float4 quaternions at `a` and `b` into `out` with the weight `slot` was prepared
 * for (`slerpPrepare`), along the shortest arc (b's coefficient negated when dot < 0); a result
 * shorter than 1e-6 (only reached from zero keys) is identity, as under nlerp.
 */
// @ts-ignore: decorator
@inline
export function slerpPrepared(slot: usize, a: usize, b: usize, out: usize): void {
  slerpPolynomial(slot, a, b, out, true);
}

/** `slerpPrepared`; with `halve` false (a half gap already), a gap over 120° takes the exact formula. */
// @ts-ignore: decorator
@inline
function slerpPolynomial(slot: usize, a: usize, b: usize, out: usize, halve: bool): void {
  if (ASC_FEATURE_SIMD) {
    // Branch-free in the vector registers: lanes (x, y) and (z, w) in f64; coefficients as (t, 1 − t).
    const qa = v128.load(a);
    const qb = v128.load(b);
    const alo = f64x2.promote_low_f32x4(qa);
    const ahi = f64x2.promote_low_f32x4(v128.shuffle<f32>(qa, qa, 2, 3, 0, 1));
    const blo = f64x2.promote_low_f32x4(qb);
    const bhi = f64x2.promote_low_f32x4(v128.shuffle<f32>(qb, qb, 2, 3, 0, 1));
    // (ax bx + az bz) + (ay by + aw bw): the scalar build and the twin sum in this order.
    const prod = f64x2.add(f64x2.mul(alo, blo), f64x2.mul(ahi, bhi));
    const dot = f64x2.add(prod, v128.shuffle<f64>(prod, prod, 1, 0));
    const one = f64x2.splat(1);
    // cos θ above 1 (keys longer than unit) is 1: linear weights, as DirectXMath's fallback.
    const xm1 = f64x2.sub(f64x2.pmin(f64x2.abs(dot), one), one);
    // 1 + Σ P_j xm1^j: for key gaps up to ~20° (xm1 ≥ SLERP_SMALL, every gap of 30 Hz motion)
    // the terms beyond the third are below 4e-9; otherwise all eight, by Estrin's scheme (short
    // dependency chains).
    const xm1s = f64x2.extract_lane(xm1, 0);
    if (xm1s < SLERP_EXACT) {
      if (halve) slerpHalves(slot, a, b, out);
      else slerpExact(a, b, <f32>load<f64>(slot), out);
      return;
    }
    let acc: v128;
    if (xm1s >= SLERP_SMALL) {
      acc = f64x2.add(f64x2.mul(v128.load(slot, 48), xm1), v128.load(slot, 32));
      acc = f64x2.add(f64x2.mul(acc, xm1), v128.load(slot, 16));
      acc = f64x2.add(f64x2.mul(acc, xm1), one);
    } else {
      const x2 = f64x2.mul(xm1, xm1);
      const x4 = f64x2.mul(x2, x2);
      const e01 = f64x2.add(one, f64x2.mul(v128.load(slot, 16), xm1));
      const e23 = f64x2.add(v128.load(slot, 32), f64x2.mul(v128.load(slot, 48), xm1));
      const e45 = f64x2.add(v128.load(slot, 64), f64x2.mul(v128.load(slot, 80), xm1));
      const e67 = f64x2.add(v128.load(slot, 96), f64x2.mul(v128.load(slot, 112), xm1));
      const f03 = f64x2.add(e01, f64x2.mul(e23, x2));
      const f47 = f64x2.add(e45, f64x2.mul(e67, x2));
      acc = f64x2.add(f03, f64x2.mul(f64x2.add(f47, f64x2.mul(v128.load(slot, 128), x4)), x4));
    }
    // (b's coefficient, a's coefficient), b's negated when dot < 0 (the shortest arc).
    const c = v128.xor(f64x2.mul(acc, v128.load(slot)), v128.and(f64x2.lt(dot, f64x2.splat(0)), f64x2(-0.0, 0.0)));
    const cb = v128.shuffle<f64>(c, c, 0, 0);
    const ca = v128.shuffle<f64>(c, c, 1, 1);
    const lo = f64x2.add(f64x2.mul(ca, alo), f64x2.mul(cb, blo));
    const hi = f64x2.add(f64x2.mul(ca, ahi), f64x2.mul(cb, bhi));
    const sq = f64x2.add(f64x2.mul(lo, lo), f64x2.mul(hi, hi));
    if (f64x2.extract_lane(sq, 0) + f64x2.extract_lane(sq, 1) < <f64>MIN_LENGTH_SQ) {
      storeIdentity(out);
      return;
    }
    v128.store(out, v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
  } else {
    const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
    const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
    let x = (ax * bx + az * bz) + (ay * by + aw * bw);
    let sign: f64 = 1;
    if (x < 0) {
      x = -x;
      sign = -1;
    }
    const xm1 = min(x, 1) - 1;
    if (xm1 < SLERP_EXACT) {
      if (halve) slerpHalves(slot, a, b, out);
      else slerpExact(a, b, <f32>load<f64>(slot), out);
      return;
    }
    let at: f64, ad: f64;
    if (xm1 >= SLERP_SMALL) {
      at = ((load<f64>(slot, 48) * xm1 + load<f64>(slot, 32)) * xm1 + load<f64>(slot, 16)) * xm1 + 1;
      ad = ((load<f64>(slot, 56) * xm1 + load<f64>(slot, 40)) * xm1 + load<f64>(slot, 24)) * xm1 + 1;
    } else {
      // Estrin's scheme, in the SIMD build's order.
      const x2 = xm1 * xm1;
      const x4 = x2 * x2;
      at = estrin(slot, xm1, x2, x4);
      ad = estrin(slot + 8, xm1, x2, x4);
    }
    const cb = sign * (at * load<f64>(slot));
    const ca = ad * load<f64>(slot, 8);
    const x0 = ca * ax + cb * bx, y0 = ca * ay + cb * by, z0 = ca * az + cb * bz, w0 = ca * aw + cb * bw;
    if ((x0 * x0 + z0 * z0) + (y0 * y0 + w0 * w0) < <f64>MIN_LENGTH_SQ) {
      storeIdentity(out);
      return;
    }
    store<f32>(out, <f32>x0);
    store<f32>(out, <f32>y0, 4);
    store<f32>(out, <f32>z0, 8);
    store<f32>(out, <f32>w0, 12);
  }
}

/**
 * A gap over 120° with the weight t of `slot`: the polynomial from a to the midpoint m with weight
 * 2t (t ≤ ½), else from m to b with 2t − 1 (both exact in f32); m rounded to f32 as the keys are.
 * The exact formula for quaternions that are not unit.
 */
function slerpHalves(slot: usize, a: usize, b: usize, out: usize): void {
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
  const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
  const t = <f32>load<f64>(slot);
  const aa = (ax * ax + az * az) + (ay * ay + aw * aw);
  const bb = (bx * bx + bz * bz) + (by * by + bw * bw);
  if (!(abs(aa - 1) <= UNIT_TOLERANCE && abs(bb - 1) <= UNIT_TOLERANCE)) {
    slerpExact(a, b, t, out);
    return;
  }
  const x = (ax * bx + az * bz) + (ay * by + aw * bw);
  // b's sign along the shortest arc, and 1 / |a ± b| for unit a, b.
  const s: f64 = x < 0 ? -1 : 1;
  const k = 1 / Math.sqrt(2 + 2 * abs(x));
  const mx = <f32>((ax + s * bx) * k), my = <f32>((ay + s * by) * k), mz = <f32>((az + s * bz) * k), mw = <f32>((aw + s * bw) * k);
  if (ASC_FEATURE_SIMD) {
    // One store: the polynomial loads the midpoint as one vector (four stores would stall it).
    v128.store(MIDPOINT, f32x4.replace_lane(f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(mx), 1, my), 2, mz), 3, mw));
  } else {
    store<f32>(MIDPOINT, mx);
    store<f32>(MIDPOINT, my, 4);
    store<f32>(MIDPOINT, mz, 8);
    store<f32>(MIDPOINT, mw, 12);
  }
  const half = slot + SLERP_HALF;
  if (t <= 0.5) {
    slerpPrepare(half, t * 2);
    slerpPolynomial(half, a, MIDPOINT, out, false);
  } else {
    slerpPrepare(half, t * 2 - 1);
    slerpPolynomial(half, MIDPOINT, b, out, false);
  }
}

/** 1 + Σ P_j xm1^j by Estrin's scheme for one lane of a coefficient slot (`p`: the slot's t or 1 − t lane). */
// @ts-ignore: decorator
@inline
function estrin(p: usize, xm1: f64, x2: f64, x4: f64): f64 {
  const e01 = 1 + load<f64>(p, 16) * xm1;
  const e23 = load<f64>(p, 32) + load<f64>(p, 48) * xm1;
  const e45 = load<f64>(p, 64) + load<f64>(p, 80) * xm1;
  const e67 = load<f64>(p, 96) + load<f64>(p, 112) * xm1;
  return e01 + e23 * x2 + (e45 + e67 * x2 + load<f64>(p, 128) * x4) * x4;
}

/**
 * Slerp with its own weight `w` (b's share): the polynomial for w in [0, 1] with the coefficients
 * of `slot` (prepared when it holds another weight), else the exact formula (`slerpExact`).
 */
export function slerpShortest(slot: usize, a: usize, b: usize, w: f32, out: usize): void {
  if (w >= 0 && w <= 1) {
    slerpPrepare(slot, w);
    slerpPrepared(slot, a, b, out);
  } else {
    slerpExact(a, b, w, out);
  }
}

/**
 * The exact DirectXMath slerp in f64 (linear weights when cos >= 1 − 1e-5), for weights outside
 * [0, 1] and gaps over 120° between quaternions that are not unit.
 */
function slerpExact(a: usize, b: usize, w: f32, out: usize): void {
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
  const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
  const t = <f64>w;
  let c = (ax * bx + az * bz) + (ay * by + aw * bw);
  let sign: f64 = 1;
  if (c < 0) {
    c = -c;
    sign = -1;
  }
  let s0: f64, s1: f64;
  if (c < 1 - 1e-5) {
    const omega = Math.atan2(Math.sqrt(1 - c * c), c);
    const so = Math.sin(omega);
    s0 = Math.sin((1 - t) * omega) / so;
    s1 = (sign * Math.sin(t * omega)) / so;
  } else {
    s0 = 1 - t;
    s1 = sign * t;
  }
  const x = s0 * ax + s1 * bx, y = s0 * ay + s1 * by, z = s0 * az + s1 * bz, qw = s0 * aw + s1 * bw;
  if ((x * x + z * z) + (y * y + qw * qw) < <f64>MIN_LENGTH_SQ) {
    storeIdentity(out);
    return;
  }
  store<f32>(out, <f32>x);
  store<f32>(out, <f32>y, 4);
  store<f32>(out, <f32>z, 8);
  store<f32>(out, <f32>qw, 12);
}

/** The float4 at `src` normalised into `out` (`out` may be `src`); a zero rotation becomes identity, as under nlerp. */
// @ts-ignore: decorator
@inline
export function normalize4(src: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) normalizeStore(v128.load(src), out);
  else normalizeStore4(load<f32>(src), load<f32>(src, 4), load<f32>(src, 8), load<f32>(src, 12), out);
}

/**
 * SIMD: `normalize4` of the four float4s `q0` … `q3` (held in registers) into `d0` … `d3`. Their
 * squared lengths are gathered into one vector (per quaternion (xx + yy) + (zz + ww), dot4's sums),
 * one square root serves the four, and each quaternion is divided by its own length: the same f32
 * operations per quaternion as `normalize4`, so bit for bit its results, with a quarter of the
 * square roots and no horizontal sum per quaternion. A group holding a squared length outside
 * [1e-12, f32 max] (a zero rotation, an overflow, NaN) takes `normalize4`'s path per quaternion.
 */
// @ts-ignore: decorator
@inline
export function normalizeLanes4(q0: v128, q1: v128, q2: v128, q3: v128, d0: usize, d1: usize, d2: usize, d3: usize): void {
  const s0 = f32x4.mul(q0, q0), s1 = f32x4.mul(q1, q1), s2 = f32x4.mul(q2, q2), s3 = f32x4.mul(q3, q3);
  // (xx yy) of quaternions 0 and 1, (zz ww) of 0 and 1; likewise 2 and 3; then xx, yy, zz, ww of the four.
  const xy01 = v128.shuffle<f32>(s0, s1, 0, 1, 4, 5), zw01 = v128.shuffle<f32>(s0, s1, 2, 3, 6, 7);
  const xy23 = v128.shuffle<f32>(s2, s3, 0, 1, 4, 5), zw23 = v128.shuffle<f32>(s2, s3, 2, 3, 6, 7);
  const len2 = f32x4.add(
    f32x4.add(v128.shuffle<f32>(xy01, xy23, 0, 2, 4, 6), v128.shuffle<f32>(xy01, xy23, 1, 3, 5, 7)),
    f32x4.add(v128.shuffle<f32>(zw01, zw23, 0, 2, 4, 6), v128.shuffle<f32>(zw01, zw23, 1, 3, 5, 7)),
  );
  if (!i32x4.all_true(normalRange(len2))) {
    normalizeLane(q0, d0);
    normalizeLane(q1, d1);
    normalizeLane(q2, d2);
    normalizeLane(q3, d3);
    return;
  }
  const len = f32x4.sqrt(len2);
  v128.store(d0, f32x4.div(q0, v128.shuffle<f32>(len, len, 0, 0, 0, 0)));
  v128.store(d1, f32x4.div(q1, v128.shuffle<f32>(len, len, 1, 1, 1, 1)));
  v128.store(d2, f32x4.div(q2, v128.shuffle<f32>(len, len, 2, 2, 2, 2)));
  v128.store(d3, f32x4.div(q3, v128.shuffle<f32>(len, len, 3, 3, 3, 3)));
}

/**
 * SIMD: `normalize4` of a float4 held in a register, into `out`. Out of line, one copy for every
 * caller (the module's size): the rare lanes of `normalizeLanes4`, the rotations past a sampler's
 * last four.
 */
export function normalizeLane(q: v128, out: usize): void {
  normalizeStore(q, out);
}

/** dot(a, b) in all four lanes. */
// @ts-ignore: decorator
@inline
function dot4(a: v128, b: v128): v128 {
  let d = f32x4.mul(a, b);
  d = f32x4.add(d, v128.shuffle<f32>(d, d, 1, 0, 3, 2));
  return f32x4.add(d, v128.shuffle<f32>(d, d, 2, 3, 0, 1));
}

// @ts-ignore: decorator
@inline
function normalizeStore(q: v128, out: usize): void {
  const d = dot4(q, q);
  const len2 = f32x4.extract_lane(d, 0);
  if (len2 >= MIN_LENGTH_SQ && len2 <= F32.MAX_VALUE) v128.store(out, f32x4.div(q, f32x4.sqrt(d)));
  else normalizeOutOfRange(f32x4.extract_lane(q, 0), f32x4.extract_lane(q, 1), f32x4.extract_lane(q, 2), f32x4.extract_lane(q, 3), len2, out);
}

// @ts-ignore: decorator
@inline
function normalizeStore4(x: f32, y: f32, z: f32, w: f32, out: usize): void {
  // (xx + yy) + (zz + ww): the order of dot4, so both builds round alike.
  const len2 = x * x + y * y + (z * z + w * w);
  if (len2 >= MIN_LENGTH_SQ && len2 <= F32.MAX_VALUE) {
    const len = Mathf.sqrt(len2);
    store<f32>(out, x / len);
    store<f32>(out, y / len, 4);
    store<f32>(out, z / len, 8);
    store<f32>(out, w / len, 12);
  } else {
    normalizeOutOfRange(x, y, z, w, len2, out);
  }
}

/**
 * The rare cases of normalising (x, y, z, w) with |q|² = `len2`: a zero rotation (len2 < 1e-12)
 * becomes identity; an overflowed len2 (+Inf from finite components) is redone after dividing by
 * the largest magnitude; NaN stays NaN. Kept out of line: the hot loops never come here with
 * real data.
 */
function normalizeOutOfRange(x: f32, y: f32, z: f32, w: f32, len2: f32, out: usize): void {
  if (len2 < MIN_LENGTH_SQ) {
    storeIdentity(out);
    return;
  }
  const m = max(max(abs(x), abs(y)), max(abs(z), abs(w)));
  const sx = x / m, sy = y / m, sz = z / m, sw = w / m;
  const len = Mathf.sqrt(sx * sx + sy * sy + (sz * sz + sw * sw));
  store<f32>(out, sx / len);
  store<f32>(out, sy / len, 4);
  store<f32>(out, sz / len, 8);
  store<f32>(out, sw / len, 12);
}

// @ts-ignore: decorator
@inline
function storeIdentity(out: usize): void {
  store<f32>(out, 0);
  store<f32>(out, 0, 4);
  store<f32>(out, 0, 8);
  store<f32>(out, 1, 12);
}

/** out = a + (b - a) * w on all four lanes. */
// @ts-ignore: decorator
@inline
export function lerp4(a: usize, b: usize, w: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    lerp4Lanes(a, b, f32x4.splat(w), out);
  } else {
    const ax = load<f32>(a), ay = load<f32>(a, 4), az = load<f32>(a, 8), aw = load<f32>(a, 12);
    store<f32>(out, ax + (load<f32>(b) - ax) * w);
    store<f32>(out, ay + (load<f32>(b, 4) - ay) * w, 4);
    store<f32>(out, az + (load<f32>(b, 8) - az) * w, 8);
    store<f32>(out, aw + (load<f32>(b, 12) - aw) * w, 12);
  }
}

/** `lerp4` with the weight in every lane of `ws` (SIMD build). */
// @ts-ignore: decorator
@inline
export function lerp4Lanes(a: usize, b: usize, ws: v128, out: usize): void {
  const va = v128.load(a);
  v128.store(out, f32x4.add(va, f32x4.mul(f32x4.sub(v128.load(b), va), ws)));
}

/** Copies one float4. */
// @ts-ignore: decorator
@inline
export function copy4(src: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    v128.store(out, v128.load(src));
  } else {
    store<u64>(out, load<u64>(src));
    store<u64>(out, load<u64>(src, 8), 8);
  }
}
