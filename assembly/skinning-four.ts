// SIMD: the skinning matrices of four instances at once, structure of arrays over instances (ozz's
// LocalToModelJob on SoaTransforms: lane l is instance l; every joint's local matrix, parent
// product and inverse bind product is then four instances' worth of plain lane arithmetic, with
// no broadcast of a local or inverse bind entry and no unused fourth row). `sampleMany` calls it
// for four instances whose samples are read whole (no count of theirs is 0) under affine inverse
// bind matrices; the results are bit for bit those of `composeUnchecked` + `skinningFast` per
// instance (assembly/local-to-model.ts): the same operations in the same order lane by lane,
// including the last row, whose ±0 entries depend on the signs of the local entries.
//
// Scratch (after the splatted inverse bind entries in SM_INVERSE_BIND_SPLAT): per joint the four
// instances' model matrices as 15 f32x4, MODEL_SOA_BYTES: entry (row r < 3, column c) at
// (3c + r)·16, then row 3 of columns 0–2 at 192 + 16c (row 3 of column 3 is 1 wherever the matrix
// is finite: ±0 + 1).
import { allFinite } from './local-to-model';
import { LTM_BINDINGS, LTM_JOINT_COUNT, LTM_ORDER, LTM_PARENTS, LTM_REST, LTM_UNBOUND, SM_MODEL_SOA_BYTES } from './layout';

const MODEL_SOA_BYTES: usize = SM_MODEL_SOA_BYTES;

/**
 * Writes the skinning matrices (model · inverse bind, 16 f32 per joint, column-major) of the four
 * instances whose samples are at `s0` … `s3` (float4 per curve, every bound curve read) to `m0` …
 * `m3`, for local-to-model job `p`, its joints `order[first …]` composed into `soa` (the scratch
 * above; the joints before `first` must be there from an earlier call) and every joint skinned
 * with the inverse bind entries at `splat` (`splatAffine`). Returns whether the sum of every
 * skinning entry is finite; otherwise the caller composes the four again on the checked paths.
 */
export function skinningFour(p: usize, s0: usize, s1: usize, s2: usize, s3: usize, soa: usize, splat: usize, first: u32, m0: usize, m1: usize, m2: usize, m3: usize): bool {
  const n = load<u32>(p, LTM_JOINT_COUNT);
  const parents = load<usize>(p, LTM_PARENTS);
  const bindings = load<usize>(p, LTM_BINDINGS);
  const rest = load<usize>(p, LTM_REST);
  const order = load<usize>(p, LTM_ORDER);
  const one = f32x4.splat(1), two = f32x4.splat(2), zero = f32x4.splat(0);
  for (let k: u32 = first; k < n; k++) {
    const i = <usize>load<u32>(order + (<usize>k << 2));
    const b = bindings + i * 12;
    const r = rest + i * 48;
    // Rotations of the four instances: x, y, z, w.
    // An unbound property reads the rest value in every lane (one test per joint, not per lane).
    const bq = <usize>load<u32>(b, 4);
    let q0: v128, q1: v128, q2: v128, q3: v128;
    if (bq == <usize>LTM_UNBOUND) q0 = q1 = q2 = q3 = v128.load(r, 16);
    else {
      q0 = v128.load(s0 + bq);
      q1 = v128.load(s1 + bq);
      q2 = v128.load(s2 + bq);
      q3 = v128.load(s3 + bq);
    }
    const qxy01 = i32x4.shuffle(q0, q1, 0, 4, 1, 5), qxy23 = i32x4.shuffle(q2, q3, 0, 4, 1, 5);
    const qzw01 = i32x4.shuffle(q0, q1, 2, 6, 3, 7), qzw23 = i32x4.shuffle(q2, q3, 2, 6, 3, 7);
    const x = i32x4.shuffle(qxy01, qxy23, 0, 1, 4, 5), y = i32x4.shuffle(qxy01, qxy23, 2, 3, 6, 7);
    const z = i32x4.shuffle(qzw01, qzw23, 0, 1, 4, 5), w = i32x4.shuffle(qzw01, qzw23, 2, 3, 6, 7);
    // Scales.
    const bs = <usize>load<u32>(b, 8);
    let c0: v128, c1: v128, c2: v128, c3: v128;
    if (bs == <usize>LTM_UNBOUND) c0 = c1 = c2 = c3 = v128.load(r, 32);
    else {
      c0 = v128.load(s0 + bs);
      c1 = v128.load(s1 + bs);
      c2 = v128.load(s2 + bs);
      c3 = v128.load(s3 + bs);
    }
    const sxy01 = i32x4.shuffle(c0, c1, 0, 4, 1, 5), sxy23 = i32x4.shuffle(c2, c3, 0, 4, 1, 5);
    const sz01 = i32x4.shuffle(c0, c1, 2, 6, 3, 7), sz23 = i32x4.shuffle(c2, c3, 2, 6, 3, 7);
    const sx = i32x4.shuffle(sxy01, sxy23, 0, 1, 4, 5), sy = i32x4.shuffle(sxy01, sxy23, 2, 3, 6, 7);
    const sz = i32x4.shuffle(sz01, sz23, 0, 1, 4, 5);
    // The local matrix, as `composeLocal` (local-to-model.ts) lane by lane.
    const xx = f32x4.mul(x, x), yy = f32x4.mul(y, y), zz = f32x4.mul(z, z);
    const xy = f32x4.mul(x, y), xz = f32x4.mul(x, z), yz = f32x4.mul(y, z);
    const wx = f32x4.mul(w, x), wy = f32x4.mul(w, y), wz = f32x4.mul(w, z);
    const l00 = f32x4.mul(f32x4.sub(one, f32x4.mul(two, f32x4.add(yy, zz))), sx);
    const l01 = f32x4.mul(f32x4.mul(two, f32x4.add(xy, wz)), sx);
    const l02 = f32x4.mul(f32x4.mul(two, f32x4.sub(xz, wy)), sx);
    const l10 = f32x4.mul(f32x4.mul(two, f32x4.sub(xy, wz)), sy);
    const l11 = f32x4.mul(f32x4.sub(one, f32x4.mul(two, f32x4.add(xx, zz))), sy);
    const l12 = f32x4.mul(f32x4.mul(two, f32x4.add(yz, wx)), sy);
    const l20 = f32x4.mul(f32x4.mul(two, f32x4.add(xz, wy)), sz);
    const l21 = f32x4.mul(f32x4.mul(two, f32x4.sub(yz, wx)), sz);
    const l22 = f32x4.mul(f32x4.sub(one, f32x4.mul(two, f32x4.add(xx, yy))), sz);
    // Translations.
    const bt = <usize>load<u32>(b);
    let t0: v128, t1: v128, t2: v128, t3: v128;
    if (bt == <usize>LTM_UNBOUND) t0 = t1 = t2 = t3 = v128.load(r);
    else {
      t0 = v128.load(s0 + bt);
      t1 = v128.load(s1 + bt);
      t2 = v128.load(s2 + bt);
      t3 = v128.load(s3 + bt);
    }
    const txy01 = i32x4.shuffle(t0, t1, 0, 4, 1, 5), txy23 = i32x4.shuffle(t2, t3, 0, 4, 1, 5);
    const tz01 = i32x4.shuffle(t0, t1, 2, 6, 3, 7), tz23 = i32x4.shuffle(t2, t3, 2, 6, 3, 7);
    const tx = i32x4.shuffle(txy01, txy23, 0, 1, 4, 5), ty = i32x4.shuffle(txy01, txy23, 2, 3, 6, 7);
    const tz = i32x4.shuffle(tz01, tz23, 0, 1, 4, 5);
    const o = soa + i * MODEL_SOA_BYTES;
    const parent = load<i32>(parents + (i << 2));
    if (parent < 0) {
      // A root's model matrix is its local matrix (last row +0 +0 +0 1, as `storeAffine`).
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
      v128.store(o, zero, 192);
      v128.store(o, zero, 208);
      v128.store(o, zero, 224);
      continue;
    }
    // parent · local: entry (row, column c) = (a_row,0 · l_0c + a_row,1 · l_1c) + a_row,2 · l_2c, plus
    // a_row,3 in the translation column; `composeFast`'s sums lane by lane.
    const a = soa + (<usize>parent) * MODEL_SOA_BYTES;
    productRow(a, 0, o, l00, l01, l02, l10, l11, l12, l20, l21, l22, tx, ty, tz);
    productRow(a, 16, o, l00, l01, l02, l10, l11, l12, l20, l21, l22, tx, ty, tz);
    productRow(a, 32, o, l00, l01, l02, l10, l11, l12, l20, l21, l22, tx, ty, tz);
    // Row 3 of columns 0–2 (its column 3 is 1).
    const a30 = v128.load(a, 192), a31 = v128.load(a, 208), a32 = v128.load(a, 224);
    v128.store(o, f32x4.add(f32x4.add(f32x4.mul(a30, l00), f32x4.mul(a31, l01)), f32x4.mul(a32, l02)), 192);
    v128.store(o, f32x4.add(f32x4.add(f32x4.mul(a30, l10), f32x4.mul(a31, l11)), f32x4.mul(a32, l12)), 208);
    v128.store(o, f32x4.add(f32x4.add(f32x4.mul(a30, l20), f32x4.mul(a31, l21)), f32x4.mul(a32, l22)), 224);
  }
  // model · inverse bind for every joint, a column at a time: entry (row, column c) =
  // (m_row,0 · b_0c + m_row,1 · b_1c) + m_row,2 · b_2c, plus m_row,3 in the translation column
  // (`skinningFast`'s sums lane by lane, b the inverse bind entries as `splatAffine` spreads them).
  let sum = zero;
  for (let o: usize = 0, a = soa, d = splat, end = <usize>n << 6; o < end; o += 64, a += MODEL_SOA_BYTES, d += 192) {
    sum = skinColumn(a, d, false, one, sum, m0 + o, m1 + o, m2 + o, m3 + o);
    sum = skinColumn(a, d + 48, false, one, sum, m0 + o + 16, m1 + o + 16, m2 + o + 16, m3 + o + 16);
    sum = skinColumn(a, d + 96, false, one, sum, m0 + o + 32, m1 + o + 32, m2 + o + 32, m3 + o + 32);
    sum = skinColumn(a, d + 144, true, one, sum, m0 + o + 48, m1 + o + 48, m2 + o + 48, m3 + o + 48);
  }
  return allFinite(sum);
}

/**
 * One skinning column of four instances from model scratch `a` and the column's inverse bind
 * entries at `b` (rows 0–2, splatted), stored at `d0` … `d3`; returns `sum` plus its rows 0–2.
 * Row 3 is computed as the per-instance product does (±0 by the signs; 1 in the translation column).
 */
// @ts-ignore: decorator
@inline
function skinColumn(a: usize, b: usize, translation: bool, one: v128, sum: v128, d0: usize, d1: usize, d2: usize, d3: usize): v128 {
  const b0 = v128.load(b), b1 = v128.load(b, 16), b2 = v128.load(b, 32);
  let e0 = f32x4.add(f32x4.add(f32x4.mul(v128.load(a), b0), f32x4.mul(v128.load(a, 48), b1)), f32x4.mul(v128.load(a, 96), b2));
  let e1 = f32x4.add(f32x4.add(f32x4.mul(v128.load(a, 16), b0), f32x4.mul(v128.load(a, 64), b1)), f32x4.mul(v128.load(a, 112), b2));
  let e2 = f32x4.add(f32x4.add(f32x4.mul(v128.load(a, 32), b0), f32x4.mul(v128.load(a, 80), b1)), f32x4.mul(v128.load(a, 128), b2));
  let e3 = one;
  if (translation) {
    e0 = f32x4.add(e0, v128.load(a, 144));
    e1 = f32x4.add(e1, v128.load(a, 160));
    e2 = f32x4.add(e2, v128.load(a, 176));
  } else {
    e3 = f32x4.add(f32x4.add(f32x4.mul(v128.load(a, 192), b0), f32x4.mul(v128.load(a, 208), b1)), f32x4.mul(v128.load(a, 224), b2));
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
