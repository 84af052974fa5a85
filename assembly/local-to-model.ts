// Local-to-model transforms (as ozz-animation's LocalToModelJob): per joint a local T·R·S from
// the sampled curves (or the rest pose where no curve drives it), composed down the hierarchy
// into model-space 4×4 matrices, column-major (WebGL/glTF), 16 f32 per joint. Joints are visited
// in the job's order (every parent before its children), so one pass suffices. The job block is
// laid out by the host (assembly/layout.ts, LTM_*).
//
// Overflow rule (issue 13): a model matrix is the float32 rounding of the exact T·R·S product, so
// an entry is ±Inf only where the exact value is beyond float32 (or the parent's matrix already
// was), never because an intermediate overflowed. The float32 path can overflow where the result
// fits: a non-unit rotation's 2·x²·s (slerp and raw samples are not renormalised, and file values
// reach ±1e38), or a product's term that a later term cancels. Such a joint comes out ±Inf or NaN
// (an overflow never turns finite again: no division, no comparison), so a joint whose matrix is
// not finite is composed again in f64 from the same inputs (its parent's float32 matrix), where
// no product of float32 values overflows. Real poses never take that path. Twin:
// `referenceLocalToModel` (f64 throughout).
//
// The SIMD build first composes every joint without the per-joint check (`composeFast`: the local
// matrices of four joints at a time in structure-of-arrays form, as ozz's SoaTransform →
// SoaFloat4x4, then the per-joint parent products) and sums the matrices it writes: a sum is
// finite when every entry is (an Inf or NaN never turns finite again in a sum), so a finite sum
// proves that no joint needed the wide path, and the results are bit for bit those of the
// per-joint path, which uses the same operations in the same order. A non-finite sum (an overflow,
// or a sum of finite entries beyond float32) composes the whole pose again on the checked path.
//
// An affine matrix's last row is written as exactly (+0, +0, +0, 1), as in the exact product (not
// the ±0 that the float32 products of the parent's last row would give by the signs of their
// terms): one mask per column here, and the four-instance pass (assembly/skinning-four.ts) need
// not compute the row at all. The translation column's last entry stays the product's (1, or NaN
// where the translation is not finite).
import { LTM_BINDINGS, LTM_CONSTANT_COUNT, LTM_JOINT_COUNT, LTM_ORDER, LTM_PARENTS, LTM_REST, LTM_UNBOUND } from './layout';

/**
 * The float4 a joint property reads: the bound curve's sample if its count is > 0 (or there are no
 * counts), else the rest value.
 */
// @ts-ignore: decorator
@inline
function source(binding: u32, samples: usize, counts: usize, rest: usize): usize {
  if (binding == <u32>LTM_UNBOUND) return rest;
  return counts == 0 || load<u8>(counts + (<usize>binding >> 4)) != 0 ? samples + <usize>binding : rest;
}

/**
 * Writes the model-space matrix of every joint of job `p` to `out` (16 f32 per joint,
 * column-major, in joint order), reading samples (float4 per curve) and counts (u8 per curve) of
 * one buffer. `counts` 0: every bound curve's sample is read whatever its count — for blend
 * results, where a curve of count 0 holds its rest value or, under the weighted rule, the rest
 * plus an additive delta (spec sequencer.md §3–§4).
 */
export function localToModel(p: usize, samples: usize, counts: usize, out: usize): void {
  localToModelFrom(p, samples, counts, out, 0);
}

/**
 * `localToModel` for the joints `order[first …]` only: the matrices of the joints before them in
 * the job's order must already be at `out`. The job's first LTM_CONSTANT_COUNT joints are driven
 * by no curve, nor are their ancestors: the same matrices for every pose, so a batch composes them
 * for its first instance only.
 */
export function localToModelFrom(p: usize, samples: usize, counts: usize, out: usize, first: u32): void {
  if (ASC_FEATURE_SIMD && (counts == 0 ? composeFastUncounted(p, samples, out, first) : composeFastCounted(p, samples, counts, out, first))) return;
  composeChecked(p, samples, counts, out, first);
}

/** `composeFast` reading every bound curve's sample: the count tests fold away. */
function composeFastUncounted(p: usize, samples: usize, out: usize, first: u32): bool {
  return composeFast(p, samples, 0, out, first, true);
}

/** `composeFast` with counts (a curve of count 0 reads the rest value). */
function composeFastCounted(p: usize, samples: usize, counts: usize, out: usize, first: u32): bool {
  return composeFast(p, samples, counts, out, first, true);
}

/**
 * SIMD: `localToModelFrom` (counts 0) on the fast path without its check, for a caller whose next
 * step checks for it: every skinning matrix that a non-finite model entry enters is not finite
 * (an Inf or NaN entry times an inverse bind entry is Inf or NaN in every column of its row), so
 * `skinningFast` failing is the sign to compose again with `localToModelFrom`. Where every entry
 * is finite, the same matrices as `localToModelFrom`.
 */
export function composeUnchecked(p: usize, samples: usize, out: usize, first: u32): void {
  composeFast(p, samples, 0, out, first, false);
}

/** Copies the matrices of the job's first LTM_CONSTANT_COUNT joints (in its order) from `from` to `to`. */
export function copyConstantJoints(p: usize, from: usize, to: usize): void {
  const order = load<usize>(p, LTM_ORDER);
  for (let k: usize = 0, n = <usize>load<u32>(p, LTM_CONSTANT_COUNT); k < n; k++) {
    const o = <usize>load<u32>(order + (k << 2)) << 6;
    memory.copy(to + o, from + o, 64);
  }
}

/** Every joint composed by `composeLocal`, each checked and, where not finite, composed again wide. */
function composeChecked(p: usize, samples: usize, counts: usize, out: usize, first: u32): void {
  const n = load<u32>(p, LTM_JOINT_COUNT);
  const parents = load<usize>(p, LTM_PARENTS);
  const bindings = load<usize>(p, LTM_BINDINGS);
  const rest = load<usize>(p, LTM_REST);
  const order = load<usize>(p, LTM_ORDER);
  for (let k: u32 = first; k < n; k++) {
    const i = <usize>load<u32>(order + (<usize>k << 2));
    const b = bindings + i * 12;
    const r = rest + i * 48;
    const t = source(load<u32>(b), samples, counts, r);
    const q = source(load<u32>(b, 4), samples, counts, r + 16);
    const s = source(load<u32>(b, 8), samples, counts, r + 32);
    const m = out + (i << 6);
    const parent = load<i32>(parents + (i << 2));
    const a: usize = parent >= 0 ? out + (<usize>parent << 6) : 0;
    composeLocal(t, q, s, a, m);
    if (nonFinite(m)) {
      localMatrixWide(t, q, s);
      productWide(a, m);
    }
  }
}

/**
 * The local matrices of four joints (12 f32x4: m00 m01 m02 m10 m11 m12 m20 m21 m22 tx ty tz, the
 * entries of `composeLocal`, lane l for the group's l-th joint), read back one entry at a time.
 */
const LOCALS = memory.data(12 * 16, 16);

/**
 * SIMD: composes the joints `order[first …]` of job `p` as `composeLocal` does, unchecked, the local matrices four
 * joints (in job order) at a time; returns whether the sum of every entry written is finite (then
 * no joint needed the wide path; otherwise the caller composes again on the checked path).
 */
// @ts-ignore: decorator
@inline
function composeFast(p: usize, samples: usize, counts: usize, out: usize, first: u32, check: bool): bool {
  const n = load<u32>(p, LTM_JOINT_COUNT);
  const parents = load<usize>(p, LTM_PARENTS);
  const bindings = load<usize>(p, LTM_BINDINGS);
  const rest = load<usize>(p, LTM_REST);
  const order = load<usize>(p, LTM_ORDER);
  let sum = f32x4.splat(0);
  // The last joint composed and its columns: a chain's next joint takes them from registers.
  let prev: i32 = -1;
  let p0 = sum, p1 = sum, p2 = sum, p3 = sum;
  for (let k: u32 = first; k < n; k += 4) {
    const last = n - k < 4 ? n - k - 1 : 3;
    localsOfFour(order + (<usize>k << 2), last, bindings, rest, samples, counts);
    for (let l: u32 = 0; l <= last; l++) {
      const i = <usize>load<u32>(order + (<usize>(k + l) << 2));
      const m = out + (i << 6);
      const e = LOCALS + (<usize>l << 2);
      const parent = load<i32>(parents + (i << 2));
      if (parent < 0) {
        storeAffine(m, load<f32>(e), load<f32>(e, 16), load<f32>(e, 32), load<f32>(e, 48), load<f32>(e, 64), load<f32>(e, 80), load<f32>(e, 96), load<f32>(e, 112), load<f32>(e, 128), load<f32>(e, 144), load<f32>(e, 160), load<f32>(e, 176));
        if (check) sum = f32x4.add(sum, f32x4.add(f32x4.add(v128.load(m), v128.load(m, 16)), f32x4.add(v128.load(m, 32), v128.load(m, 48))));
        prev = -1;
        continue;
      }
      let a0 = p0, a1 = p1, a2 = p2, a3 = p3;
      if (parent != prev) {
        const a = out + (<usize>parent << 6);
        a0 = v128.load(a);
        a1 = v128.load(a, 16);
        a2 = v128.load(a, 32);
        a3 = v128.load(a, 48);
      }
      let c0 = f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(e)), f32x4.mul(a1, v128.load32_splat(e, 16))), f32x4.mul(a2, v128.load32_splat(e, 32)));
      let c1 = f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(e, 48)), f32x4.mul(a1, v128.load32_splat(e, 64))), f32x4.mul(a2, v128.load32_splat(e, 80)));
      let c2 = f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(e, 96)), f32x4.mul(a1, v128.load32_splat(e, 112))), f32x4.mul(a2, v128.load32_splat(e, 128)));
      const c3 = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(e, 144)), f32x4.mul(a1, v128.load32_splat(e, 160))), f32x4.mul(a2, v128.load32_splat(e, 176))), a3);
      c0 = v128.and(c0, ROWS_0_2);
      c1 = v128.and(c1, ROWS_0_2);
      c2 = v128.and(c2, ROWS_0_2);
      if (check) sum = storeColumns(m, c0, c1, c2, c3, sum);
      else storeColumns(m, c0, c1, c2, c3, sum);
      prev = <i32>i;
      p0 = c0;
      p1 = c1;
      p2 = c2;
      p3 = c3;
    }
  }
  return allFinite(sum);
}

/** SIMD: rows 0–2 of a column kept, row 3 made +0 (`v128.and`): an affine matrix's last row. */
// @ts-ignore: decorator
@lazy
const ROWS_0_2 = i32x4(-1, -1, -1, 0);

/** Stores the four columns of a matrix at `m` and returns `sum` plus their sum (the per-pose check). */
// @ts-ignore: decorator
@inline
function storeColumns(m: usize, c0: v128, c1: v128, c2: v128, c3: v128, sum: v128): v128 {
  v128.store(m, c0);
  v128.store(m, c1, 16);
  v128.store(m, c2, 32);
  v128.store(m, c3, 48);
  return f32x4.add(sum, f32x4.add(f32x4.add(c0, c1), f32x4.add(c2, c3)));
}

/** Stores the affine matrix of columns (m00 m01 m02), (m10 m11 m12), (m20 m21 m22), (tx ty tz) at `m` (16 f32, column-major, last row 0 0 0 1). */
// @ts-ignore: decorator
@inline
function storeAffine(m: usize, m00: f32, m01: f32, m02: f32, m10: f32, m11: f32, m12: f32, m20: f32, m21: f32, m22: f32, tx: f32, ty: f32, tz: f32): void {
  store<f32>(m, m00, 0);
  store<f32>(m, m01, 4);
  store<f32>(m, m02, 8);
  store<f32>(m, 0, 12);
  store<f32>(m, m10, 16);
  store<f32>(m, m11, 20);
  store<f32>(m, m12, 24);
  store<f32>(m, 0, 28);
  store<f32>(m, m20, 32);
  store<f32>(m, m21, 36);
  store<f32>(m, m22, 40);
  store<f32>(m, 0, 44);
  store<f32>(m, tx, 48);
  store<f32>(m, ty, 52);
  store<f32>(m, tz, 56);
  store<f32>(m, 1, 60);
}

/** Whether every lane of `sum` is finite (x − x is 0 for finite x, NaN for ±Inf and NaN). */
// @ts-ignore: decorator
@inline
export function allFinite(sum: v128): bool {
  const d = f32x4.sub(sum, sum);
  return !v128.any_true(f32x4.ne(d, d));
}

/**
 * Writes LOCALS for the joints `order[0 … last]` (last ≤ 3; lanes past it repeat joint
 * `order[last]`): their T, R, S sources transposed into lanes, then `composeLocal`'s arithmetic
 * on four lanes at once (the same operations in the same order, so each lane is bit for bit the
 * scalar entry).
 */
// @ts-ignore: decorator
@inline
function localsOfFour(order: usize, last: u32, bindings: usize, rest: usize, samples: usize, counts: usize): void {
  const i0 = <usize>load<u32>(order);
  const i1 = <usize>load<u32>(order + (<usize>min<u32>(1, last) << 2));
  const i2 = <usize>load<u32>(order + (<usize>min<u32>(2, last) << 2));
  const i3 = <usize>load<u32>(order + (<usize>last << 2));
  const b0 = bindings + i0 * 12, b1 = bindings + i1 * 12, b2 = bindings + i2 * 12, b3 = bindings + i3 * 12;
  const r0 = rest + i0 * 48, r1 = rest + i1 * 48, r2 = rest + i2 * 48, r3 = rest + i3 * 48;
  // Rotations: x, y, z, w of the four joints.
  const q0 = v128.load(source(load<u32>(b0, 4), samples, counts, r0 + 16));
  const q1 = v128.load(source(load<u32>(b1, 4), samples, counts, r1 + 16));
  const q2 = v128.load(source(load<u32>(b2, 4), samples, counts, r2 + 16));
  const q3 = v128.load(source(load<u32>(b3, 4), samples, counts, r3 + 16));
  const qxy01 = i32x4.shuffle(q0, q1, 0, 4, 1, 5), qxy23 = i32x4.shuffle(q2, q3, 0, 4, 1, 5);
  const qzw01 = i32x4.shuffle(q0, q1, 2, 6, 3, 7), qzw23 = i32x4.shuffle(q2, q3, 2, 6, 3, 7);
  const x = i32x4.shuffle(qxy01, qxy23, 0, 1, 4, 5), y = i32x4.shuffle(qxy01, qxy23, 2, 3, 6, 7);
  const z = i32x4.shuffle(qzw01, qzw23, 0, 1, 4, 5), w = i32x4.shuffle(qzw01, qzw23, 2, 3, 6, 7);
  // Scales.
  const s0 = v128.load(source(load<u32>(b0, 8), samples, counts, r0 + 32));
  const s1 = v128.load(source(load<u32>(b1, 8), samples, counts, r1 + 32));
  const s2 = v128.load(source(load<u32>(b2, 8), samples, counts, r2 + 32));
  const s3 = v128.load(source(load<u32>(b3, 8), samples, counts, r3 + 32));
  const sxy01 = i32x4.shuffle(s0, s1, 0, 4, 1, 5), sxy23 = i32x4.shuffle(s2, s3, 0, 4, 1, 5);
  const sz01 = i32x4.shuffle(s0, s1, 2, 6, 3, 7), sz23 = i32x4.shuffle(s2, s3, 2, 6, 3, 7);
  const sx = i32x4.shuffle(sxy01, sxy23, 0, 1, 4, 5), sy = i32x4.shuffle(sxy01, sxy23, 2, 3, 6, 7);
  const sz = i32x4.shuffle(sz01, sz23, 0, 1, 4, 5);
  const one = f32x4.splat(1), two = f32x4.splat(2);
  const xx = f32x4.mul(x, x), yy = f32x4.mul(y, y), zz = f32x4.mul(z, z);
  const xy = f32x4.mul(x, y), xz = f32x4.mul(x, z), yz = f32x4.mul(y, z);
  const wx = f32x4.mul(w, x), wy = f32x4.mul(w, y), wz = f32x4.mul(w, z);
  v128.store(LOCALS, f32x4.mul(f32x4.sub(one, f32x4.mul(two, f32x4.add(yy, zz))), sx));
  v128.store(LOCALS, f32x4.mul(f32x4.mul(two, f32x4.add(xy, wz)), sx), 16);
  v128.store(LOCALS, f32x4.mul(f32x4.mul(two, f32x4.sub(xz, wy)), sx), 32);
  v128.store(LOCALS, f32x4.mul(f32x4.mul(two, f32x4.sub(xy, wz)), sy), 48);
  v128.store(LOCALS, f32x4.mul(f32x4.sub(one, f32x4.mul(two, f32x4.add(xx, zz))), sy), 64);
  v128.store(LOCALS, f32x4.mul(f32x4.mul(two, f32x4.add(yz, wx)), sy), 80);
  v128.store(LOCALS, f32x4.mul(f32x4.mul(two, f32x4.add(xz, wy)), sz), 96);
  v128.store(LOCALS, f32x4.mul(f32x4.mul(two, f32x4.sub(yz, wx)), sz), 112);
  v128.store(LOCALS, f32x4.mul(f32x4.sub(one, f32x4.mul(two, f32x4.add(xx, yy))), sz), 128);
  // Translations.
  const t0 = v128.load(source(load<u32>(b0), samples, counts, r0));
  const t1 = v128.load(source(load<u32>(b1), samples, counts, r1));
  const t2 = v128.load(source(load<u32>(b2), samples, counts, r2));
  const t3 = v128.load(source(load<u32>(b3), samples, counts, r3));
  const txy01 = i32x4.shuffle(t0, t1, 0, 4, 1, 5), txy23 = i32x4.shuffle(t2, t3, 0, 4, 1, 5);
  const tz01 = i32x4.shuffle(t0, t1, 2, 6, 3, 7), tz23 = i32x4.shuffle(t2, t3, 2, 6, 3, 7);
  v128.store(LOCALS, i32x4.shuffle(txy01, txy23, 0, 1, 4, 5), 144);
  v128.store(LOCALS, i32x4.shuffle(txy01, txy23, 2, 3, 6, 7), 160);
  v128.store(LOCALS, i32x4.shuffle(tz01, tz23, 0, 1, 4, 5), 176);
}

/** One joint's local matrix in f64 on the wide path (16 f64, column-major). */
const WIDE = memory.data(16 * 8, 16);

/** Whether any of the 16 f32 at `m` is ±Inf or NaN (x − x is 0 for finite x, NaN otherwise). */
// @ts-ignore: decorator
@inline
export function nonFinite(m: usize): bool {
  if (ASC_FEATURE_SIMD) {
    const c0 = v128.load(m), c1 = v128.load(m, 16), c2 = v128.load(m, 32), c3 = v128.load(m, 48);
    const d = f32x4.add(f32x4.add(f32x4.sub(c0, c0), f32x4.sub(c1, c1)), f32x4.add(f32x4.sub(c2, c2), f32x4.sub(c3, c3)));
    return v128.any_true(f32x4.ne(d, d));
  } else {
    let d: f32 = 0;
    for (let o: usize = 0; o < 64; o += 4) {
      const v = load<f32>(m + o);
      d += v - v;
    }
    return d != d;
  }
}

/** The local T·R·S matrix in f64 into WIDE (the reference's order of operations). */
function localMatrixWide(t: usize, q: usize, s: usize): void {
  const x = <f64>load<f32>(q), y = <f64>load<f32>(q, 4), z = <f64>load<f32>(q, 8), w = <f64>load<f32>(q, 12);
  const sx = <f64>load<f32>(s), sy = <f64>load<f32>(s, 4), sz = <f64>load<f32>(s, 8);
  store<f64>(WIDE, (1 - 2 * (y * y + z * z)) * sx, 0);
  store<f64>(WIDE, 2 * (x * y + w * z) * sx, 8);
  store<f64>(WIDE, 2 * (x * z - w * y) * sx, 16);
  store<f64>(WIDE, 0, 24);
  store<f64>(WIDE, 2 * (x * y - w * z) * sy, 32);
  store<f64>(WIDE, (1 - 2 * (x * x + z * z)) * sy, 40);
  store<f64>(WIDE, 2 * (y * z + w * x) * sy, 48);
  store<f64>(WIDE, 0, 56);
  store<f64>(WIDE, 2 * (x * z + w * y) * sz, 64);
  store<f64>(WIDE, 2 * (y * z - w * x) * sz, 72);
  store<f64>(WIDE, (1 - 2 * (x * x + y * y)) * sz, 80);
  store<f64>(WIDE, 0, 88);
  store<f64>(WIDE, <f64>load<f32>(t), 96);
  store<f64>(WIDE, <f64>load<f32>(t, 4), 104);
  store<f64>(WIDE, <f64>load<f32>(t, 8), 112);
  store<f64>(WIDE, 1, 120);
}

/** m = a · WIDE (m = WIDE when `a` is 0), summed in f64 and rounded to f32 once per entry. */
function productWide(a: usize, m: usize): void {
  if (a == 0) {
    for (let e: usize = 0; e < 16; e++) store<f32>(m + (e << 2), <f32>load<f64>(WIDE + (e << 3)));
    return;
  }
  for (let c: usize = 0; c < 16; c += 4) {
    const col = WIDE + (c << 3);
    const b0 = load<f64>(col), b1 = load<f64>(col, 8), b2 = load<f64>(col, 16), b3 = load<f64>(col, 24);
    for (let row: usize = 0; row < 4; row++) {
      const r = a + (row << 2);
      store<f32>(
        m + ((c + row) << 2),
        row == 3 && c < 12 ? <f32>0 : <f32>(<f64>load<f32>(r) * b0 + <f64>load<f32>(r, 16) * b1 + <f64>load<f32>(r, 32) * b2 + <f64>load<f32>(r, 48) * b3),
      );
    }
  }
}

/**
 * m = a · b for column-major float32 4×4 matrices, summed in f64 (the wide path of a skinning
 * matrix, model · inverse bind, whose float32 product overflowed; see the overflow rule above).
 */
function multiplyWide(a: usize, b: usize, m: usize): void {
  for (let e: usize = 0; e < 16; e++) store<f64>(WIDE + (e << 3), <f64>load<f32>(b + (e << 2)));
  productWide(a, m);
}

/**
 * Writes parent · T·R·S to `m` (column-major; the parent's model matrix at `a`, or 0 for a root)
 * from translation `t` (xyz), quaternion `q` (xyzw) and scale `s` (xyz). The local matrix stays in
 * registers: its last row is (0, 0, 0, 1), so each column of the product takes three (the
 * translation column four) products of a parent column and a local entry, the same sums as the
 * full 4×4 product without its terms in 0 and with a3 · 1 exact. A dropped term only hides an
 * Inf · 0 where the parent's translation column is not finite, which the translation column
 * shows, so the overflow check after it sees every joint it saw with the full product.
 */
// @ts-ignore: decorator
@inline
function composeLocal(t: usize, q: usize, s: usize, a: usize, m: usize): void {
  const x = load<f32>(q), y = load<f32>(q, 4), z = load<f32>(q, 8), w = load<f32>(q, 12);
  const sx = load<f32>(s), sy = load<f32>(s, 4), sz = load<f32>(s, 8);
  const xx = x * x, yy = y * y, zz = z * z;
  const xy = x * y, xz = x * z, yz = y * z;
  const wx = w * x, wy = w * y, wz = w * z;
  const m00: f32 = (1 - 2 * (yy + zz)) * sx, m01: f32 = 2 * (xy + wz) * sx, m02: f32 = 2 * (xz - wy) * sx;
  const m10: f32 = 2 * (xy - wz) * sy, m11: f32 = (1 - 2 * (xx + zz)) * sy, m12: f32 = 2 * (yz + wx) * sy;
  const m20: f32 = 2 * (xz + wy) * sz, m21: f32 = 2 * (yz - wx) * sz, m22: f32 = (1 - 2 * (xx + yy)) * sz;
  const tx = load<f32>(t), ty = load<f32>(t, 4), tz = load<f32>(t, 8);
  if (a == 0) {
    storeAffine(m, m00, m01, m02, m10, m11, m12, m20, m21, m22, tx, ty, tz);
  } else if (ASC_FEATURE_SIMD) {
    const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
    v128.store(m, v128.and(f32x4.add(f32x4.add(f32x4.mul(a0, f32x4.splat(m00)), f32x4.mul(a1, f32x4.splat(m01))), f32x4.mul(a2, f32x4.splat(m02))), ROWS_0_2));
    v128.store(m, v128.and(f32x4.add(f32x4.add(f32x4.mul(a0, f32x4.splat(m10)), f32x4.mul(a1, f32x4.splat(m11))), f32x4.mul(a2, f32x4.splat(m12))), ROWS_0_2), 16);
    v128.store(m, v128.and(f32x4.add(f32x4.add(f32x4.mul(a0, f32x4.splat(m20)), f32x4.mul(a1, f32x4.splat(m21))), f32x4.mul(a2, f32x4.splat(m22))), ROWS_0_2), 32);
    v128.store(m, f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, f32x4.splat(tx)), f32x4.mul(a1, f32x4.splat(ty))), f32x4.mul(a2, f32x4.splat(tz))), a3), 48);
  } else {
    for (let row: usize = 0; row < 16; row += 4) {
      const a0 = load<f32>(a + row), a1 = load<f32>(a + row, 16), a2 = load<f32>(a + row, 32);
      const last = row == 12;
      store<f32>(m + row, last ? <f32>0 : a0 * m00 + a1 * m01 + a2 * m02);
      store<f32>(m + row, last ? <f32>0 : a0 * m10 + a1 * m11 + a2 * m12, 16);
      store<f32>(m + row, last ? <f32>0 : a0 * m20 + a1 * m21 + a2 * m22, 32);
      store<f32>(m + row, a0 * tx + a1 * ty + a2 * tz + load<f32>(a + row, 48), 48);
    }
  }
}

/**
 * Whether each of the `c` sample counts at `counts` is > 0: then `localToModel` may take counts 0
 * (read every bound curve's sample), which gives the same matrices without a count test per joint.
 */
export function allCounted(counts: usize, c: usize): bool {
  let o: usize = 0;
  if (ASC_FEATURE_SIMD) {
    const zero = i8x16.splat(0);
    for (; o + 16 <= c; o += 16) if (v128.any_true(i8x16.eq(v128.load(counts + o), zero))) return false;
  }
  for (; o < c; o++) if (load<u8>(counts + o) == 0) return false;
  return true;
}

/**
 * Whether every one of the `j` matrices at `b` (16 f32 each, column-major) is affine: last row
 * exactly (0, 0, 0, 1) (±0 counts as 0). Read once per call over the matrices the call reads, so
 * no promise of the caller's is needed.
 */
export function allAffine(b: usize, j: usize): bool {
  for (let e = b, end = b + (j << 6); e < end; e += 64) {
    if (load<f32>(e, 12) != 0 || load<f32>(e, 28) != 0 || load<f32>(e, 44) != 0 || load<f32>(e, 60) != 1) return false;
  }
  return true;
}

/**
 * SIMD: writes the twelve entries of each of the `j` affine matrices at `inverseBind` (rows 0–2)
 * to `splat`, each in four lanes (12 f32x4 per joint, in the order m00 m01 m02 m10 … m32), for
 * `skinningMatrices`. Once per call: the inverse bind matrices are the same for every instance, and
 * a skinning product then reads each entry as a vector load where it would broadcast it (V8 adds
 * each broadcast's offset in an instruction of its own; a vector load takes it in its address).
 */
export function splatAffine(inverseBind: usize, j: usize, splat: usize): void {
  for (let b = inverseBind, d = splat, end = inverseBind + (j << 6); b < end; b += 64, d += 192) {
    for (let c: usize = 0; c < 4; c++) {
      v128.store(d + c * 48, v128.load32_splat(b + (c << 4)));
      v128.store(d + c * 48, v128.load32_splat(b + (c << 4), 4), 16);
      v128.store(d + c * 48, v128.load32_splat(b + (c << 4), 8), 32);
    }
  }
}

/**
 * Writes the `j` skinning matrices model · inverse bind (16 f32 each, column-major) from `model`
 * and `inverseBind` to `out`, under the overflow rule above. With `affine` (every inverse bind
 * matrix affine, `allAffine`), each column takes three products (the translation column three and
 * the model's translation column, times 1, exact): the full product's sums without their terms
 * a3 · 0, which change a result only in the sign of a zero, or to NaN where the model's
 * translation column is not finite — which the translation column shows, so the check sees every
 * matrix the full product's check saw; the SIMD build reads the entries from `splat`
 * (`splatAffine`). The SIMD build checks the sum of all entries once (see `composeFast`) and,
 * when it is not finite, writes every matrix again on the checked path.
 */
export function skinningMatrices(model: usize, inverseBind: usize, splat: usize, j: usize, affine: bool, out: usize): void {
  if (ASC_FEATURE_SIMD && skinningFast(model, inverseBind, splat, j, affine, out)) return;
  for (let o: usize = 0, end = j << 6; o < end; o += 64) {
    const m = out + o;
    if (affine) multiplyAffine(model + o, inverseBind + o, m);
    else multiply(model + o, inverseBind + o, m);
    if (nonFinite(m)) multiplyWide(model + o, inverseBind + o, m);
  }
}

/**
 * SIMD: the fast path of `skinningMatrices` (every product in f32, unchecked); returns whether the
 * sum of every entry written is finite (else the caller writes them again on the checked path).
 */
export function skinningFast(model: usize, inverseBind: usize, splat: usize, j: usize, affine: bool, out: usize): bool {
  let sum = f32x4.splat(0);
  if (affine) {
    for (let o: usize = 0, d = splat, end = j << 6; o < end; o += 64, d += 192) {
      const a = model + o;
      const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32);
      const c0 = v128.and(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load(d)), f32x4.mul(a1, v128.load(d, 16))), f32x4.mul(a2, v128.load(d, 32))), ROWS_0_2);
      const c1 = v128.and(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load(d, 48)), f32x4.mul(a1, v128.load(d, 64))), f32x4.mul(a2, v128.load(d, 80))), ROWS_0_2);
      const c2 = v128.and(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load(d, 96)), f32x4.mul(a1, v128.load(d, 112))), f32x4.mul(a2, v128.load(d, 128))), ROWS_0_2);
      const c3 = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load(d, 144)), f32x4.mul(a1, v128.load(d, 160))), f32x4.mul(a2, v128.load(d, 176))), v128.load(a, 48));
      sum = storeColumns(out + o, c0, c1, c2, c3, sum);
    }
  } else {
    for (let o: usize = 0, end = j << 6; o < end; o += 64) {
      const a = model + o, b = inverseBind + o;
      const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
      const c0 = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(b)), f32x4.mul(a1, v128.load32_splat(b, 4))), f32x4.mul(a2, v128.load32_splat(b, 8))), f32x4.mul(a3, v128.load32_splat(b, 12)));
      const c1 = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(b, 16)), f32x4.mul(a1, v128.load32_splat(b, 20))), f32x4.mul(a2, v128.load32_splat(b, 24))), f32x4.mul(a3, v128.load32_splat(b, 28)));
      const c2 = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(b, 32)), f32x4.mul(a1, v128.load32_splat(b, 36))), f32x4.mul(a2, v128.load32_splat(b, 40))), f32x4.mul(a3, v128.load32_splat(b, 44)));
      const c3 = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(b, 48)), f32x4.mul(a1, v128.load32_splat(b, 52))), f32x4.mul(a2, v128.load32_splat(b, 56))), f32x4.mul(a3, v128.load32_splat(b, 60)));
      sum = storeColumns(out + o, c0, c1, c2, c3, sum);
    }
  }
  return allFinite(sum);
}

/** out = a · b (column-major 4×4, `b` affine; the scalar twin of the affine product above). */
// @ts-ignore: decorator
@inline
function multiplyAffine(a: usize, b: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
    for (let c: usize = 0; c < 64; c += 16) {
      const col = b + c;
      const r = f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(col)), f32x4.mul(a1, v128.load32_splat(col, 4))), f32x4.mul(a2, v128.load32_splat(col, 8)));
      v128.store(out + c, c == 48 ? f32x4.add(r, a3) : v128.and(r, ROWS_0_2));
    }
  } else {
    for (let c: usize = 0; c < 64; c += 16) {
      const col = b + c;
      const b0 = load<f32>(col), b1 = load<f32>(col, 4), b2 = load<f32>(col, 8);
      for (let row: usize = 0; row < 16; row += 4) {
        const r = load<f32>(a + row) * b0 + load<f32>(a + row + 16) * b1 + load<f32>(a + row + 32) * b2;
        store<f32>(out + c + row, c == 48 ? r + load<f32>(a + row + 48) : row == 12 ? <f32>0 : r);
      }
    }
  }
}

/**
 * out = a · b for column-major 4×4 matrices (`out` may be `b`, never `a`): a model matrix times an
 * inverse bind matrix.
 */
// @ts-ignore: decorator
@inline
function multiply(a: usize, b: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
    for (let c: usize = 0; c < 64; c += 16) {
      const col = b + c;
      let r = f32x4.mul(a0, f32x4.splat(load<f32>(col)));
      r = f32x4.add(r, f32x4.mul(a1, f32x4.splat(load<f32>(col, 4))));
      r = f32x4.add(r, f32x4.mul(a2, f32x4.splat(load<f32>(col, 8))));
      r = f32x4.add(r, f32x4.mul(a3, f32x4.splat(load<f32>(col, 12))));
      v128.store(out + c, r);
    }
  } else {
    for (let c: usize = 0; c < 64; c += 16) {
      const col = b + c;
      const b0 = load<f32>(col), b1 = load<f32>(col, 4), b2 = load<f32>(col, 8), b3 = load<f32>(col, 12);
      for (let row: usize = 0; row < 16; row += 4) {
        store<f32>(
          out + c + row,
          load<f32>(a + row) * b0 + load<f32>(a + row + 16) * b1 + load<f32>(a + row + 32) * b2 + load<f32>(a + row + 48) * b3,
        );
      }
    }
  }
}
