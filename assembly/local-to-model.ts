// Local-to-model transforms (as ozz-animation's LocalToModelJob): per joint a local T·R·S from
// the sampled curves (or the rest pose where no curve drives it), composed down the hierarchy
// into model-space 4×4 matrices, column-major (WebGL/glTF), 16 f32 per joint. Parents precede
// children (the Skeleton checks it), so one pass in joint order suffices.
//
// A job block (see `localToModelJobCreate`):
//   +0 jointCount u32
//   +4 parents ptr   (i32 per joint, -1 for roots)
//   +8 bindings ptr  (u32 per joint × 3: byte offset of the T, R, S curve in the samples, or NONE)
//  +12 rest ptr      (float4 × 3 per joint: T xyz 0, R xyzw, S xyz 0)
import { alloc } from './memory';
import { align16 } from './clip-header';

const NONE: u32 = 0xffffffff;
const HEADER: usize = 16;

/** Allocates a job block for `jointCount` joints; the caller fills parents, bindings and rest. */
export function localToModelJobCreate(jointCount: u32): usize {
  const n = <usize>jointCount;
  const parentsSize = align16(n * 4);
  const bindingsSize = align16(n * 12);
  const p = alloc(HEADER + parentsSize + bindingsSize + n * 48);
  store<u32>(p, jointCount);
  store<usize>(p, p + HEADER, 4);
  store<usize>(p, p + HEADER + parentsSize, 8);
  store<usize>(p, p + HEADER + parentsSize + bindingsSize, 12);
  return p;
}

/** Address of a job array: 4 parents, 8 bindings, 12 rest. */
export function localToModelJobArray(p: usize, field: u32): usize {
  return load<usize>(p + <usize>field);
}

/** The float4 a joint property reads: the bound curve's sample if its count is > 0, else the rest value. */
// @ts-ignore: decorator
@inline
function source(binding: u32, samples: usize, counts: usize, rest: usize): usize {
  return binding != NONE && load<u8>(counts + (<usize>binding >> 4)) != 0 ? samples + <usize>binding : rest;
}

/**
 * Writes the model-space matrix of every joint of job `p` to `out` (16 f32 per joint,
 * column-major), reading samples (float4 per curve) and counts (u8 per curve) of one buffer.
 */
export function localToModel(p: usize, samples: usize, counts: usize, out: usize): void {
  const n = load<u32>(p);
  const parents = load<usize>(p, 4);
  const bindings = load<usize>(p, 8);
  const rest = load<usize>(p, 12);
  for (let i: u32 = 0; i < n; i++) {
    const b = bindings + <usize>i * 12;
    const r = rest + <usize>i * 48;
    const t = source(load<u32>(b), samples, counts, r);
    const q = source(load<u32>(b, 4), samples, counts, r + 16);
    const s = source(load<u32>(b, 8), samples, counts, r + 32);
    const m = out + (<usize>i << 6);
    localMatrix(t, q, s, m);
    const parent = load<i32>(parents + (<usize>i << 2));
    if (parent >= 0) multiplyInPlace(out + (<usize>parent << 6), m);
  }
}

/** Column-major T·R·S from translation `t` (xyz), quaternion `q` (xyzw) and scale `s` (xyz). */
// @ts-ignore: decorator
@inline
function localMatrix(t: usize, q: usize, s: usize, m: usize): void {
  const x = load<f32>(q), y = load<f32>(q, 4), z = load<f32>(q, 8), w = load<f32>(q, 12);
  const sx = load<f32>(s), sy = load<f32>(s, 4), sz = load<f32>(s, 8);
  const xx = x * x, yy = y * y, zz = z * z;
  const xy = x * y, xz = x * z, yz = y * z;
  const wx = w * x, wy = w * y, wz = w * z;
  store<f32>(m, (1 - 2 * (yy + zz)) * sx, 0);
  store<f32>(m, 2 * (xy + wz) * sx, 4);
  store<f32>(m, 2 * (xz - wy) * sx, 8);
  store<f32>(m, 0, 12);
  store<f32>(m, 2 * (xy - wz) * sy, 16);
  store<f32>(m, (1 - 2 * (xx + zz)) * sy, 20);
  store<f32>(m, 2 * (yz + wx) * sy, 24);
  store<f32>(m, 0, 28);
  store<f32>(m, 2 * (xz + wy) * sz, 32);
  store<f32>(m, 2 * (yz - wx) * sz, 36);
  store<f32>(m, (1 - 2 * (xx + yy)) * sz, 40);
  store<f32>(m, 0, 44);
  store<f32>(m, load<f32>(t), 48);
  store<f32>(m, load<f32>(t, 4), 52);
  store<f32>(m, load<f32>(t, 8), 56);
  store<f32>(m, 1, 60);
}

/** m = a · m for column-major 4×4 matrices (`a` is never `m`): a parent's model matrix, or a model matrix times an inverse bind matrix. */
// @ts-ignore: decorator
@inline
export function multiplyInPlace(a: usize, m: usize): void {
  if (ASC_FEATURE_SIMD) {
    const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
    for (let c: usize = 0; c < 64; c += 16) {
      const col = m + c;
      let r = f32x4.mul(a0, f32x4.splat(load<f32>(col)));
      r = f32x4.add(r, f32x4.mul(a1, f32x4.splat(load<f32>(col, 4))));
      r = f32x4.add(r, f32x4.mul(a2, f32x4.splat(load<f32>(col, 8))));
      r = f32x4.add(r, f32x4.mul(a3, f32x4.splat(load<f32>(col, 12))));
      v128.store(col, r);
    }
  } else {
    for (let c: usize = 0; c < 64; c += 16) {
      const col = m + c;
      const b0 = load<f32>(col), b1 = load<f32>(col, 4), b2 = load<f32>(col, 8), b3 = load<f32>(col, 12);
      for (let row: usize = 0; row < 16; row += 4) {
        store<f32>(
          col + row,
          load<f32>(a + row) * b0 + load<f32>(a + row + 16) * b1 + load<f32>(a + row + 32) * b2 + load<f32>(a + row + 48) * b3,
        );
      }
    }
  }
}
