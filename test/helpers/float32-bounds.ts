// Error bounds of the float32 kernels against the float64 reference, derived from the operations
// the kernels do (Higham, "Accuracy and Stability of Numerical Algorithms", §3.1: each float32
// operation is exact times (1 + δ) with |δ| ≤ u = 2⁻²⁴; a sum of n products is off by at most
// γₙ = nu / (1 − nu) times the sum of the products' magnitudes). The tests compare within these
// bounds instead of a fixed tolerance, which cancellation can exceed (issue 13 item 14: 0.516111 vs
// 0.516125 in a skinning matrix).
import { expect } from 'vitest';
import type { AnimClip, JointBinding } from '../../src/anim/index.js';
import { referenceLocalToModel } from '../../src/reference/index.js';

/** Unit roundoff of float32. */
export const U = 2 ** -24;

/**
 * The absolute part of the error model: below the normal range a float32 result is off by up to
 * half the subnormal spacing 2⁻¹⁴⁹ rather than relatively (Higham §2.1, underflow), once per
 * operation; 64 operations cover every entry here.
 */
const UNDERFLOW = 64 * 2 ** -149;

/** γₙ: the relative error bound of n float32 operations in a row. */
export function gamma(n: number): number {
  return (n * U) / (1 - n * U);
}

/** The largest magnitude among a curve's key values (its static value, or every key of every lane). */
function keyMagnitude(clip: AnimClip, curve: number): number {
  const keys = clip.curves[curve]!.keys;
  const values = keys.encoding === 'static' ? keys.value : keys.encoding === 'unity' ? keys.lanes.flatMap((l) => Array.from(l.value)) : keys.values;
  let m = 0;
  for (const v of values) m = Math.max(m, Math.abs(v));
  return m;
}

/**
 * Samples of `instances` instances of `clip` (and a mix with itself) against the reference. A
 * sample is a lerp a + (b − a)·w of two keys (3 roundings, on terms up to |a| + |b|), or for
 * rotations an nlerp of unit keys in one hemisphere (the lerp, then |q|² in 4 and the division in
 * 2 roundings, on |q| ≥ 1/√2, so at most 2·(3 + 6) = 18u per lane); a mix repeats that on two such
 * samples and adds their errors. The weight w is rounded to float32 alike in both. So a sample is
 * within γ₂₄ · 2·max|key| of the float64 value, where cancellation (a = −8, b ≈ 0, w ≈ 1) leaves a
 * small result with the error of the large keys.
 */
export function expectSamplesWithinBound(actual: Float32Array, expected: Float32Array, clip: AnimClip, instances: number): void {
  const c = clip.curves.length;
  const bound = clip.curves.map((_, i) => gamma(24) * 2 * keyMagnitude(clip, i));
  for (let k = 0; k < 4 * c * instances; k++) {
    const curve = (k >> 2) % c;
    // Unity curves are evaluated in float64 and rounded once (Bézier overshoot may exceed the keys).
    const allowed = Math.max(bound[curve]!, gamma(2) * Math.abs(expected[k]!)) + UNDERFLOW;
    if (!(Math.abs(actual[k]! - expected[k]!) <= allowed)) {
      throw new Error(`sample ${k} (curve ${curve}): wasm ${actual[k]} vs reference ${expected[k]}, over the float32 bound ${allowed}`);
    }
  }
}

/** a · b of column-major 4×4 matrices in float64. */
function multiply(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const r = new Float64Array(16);
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      r[4 * col + row] = a[row]! * b[4 * col]! + a[4 + row]! * b[4 * col + 1]! + a[8 + row]! * b[4 * col + 2]! + a[12 + row]! * b[4 * col + 3]!;
    }
  }
  return r;
}

/**
 * Model-space (or, with `inverseBind`, skinning) matrices of `instances` instances against the
 * float64 composition of the very samples the kernel used (`samples`, `counts`: the job's own
 * output), so that only the matrix arithmetic is measured, with its bound: a local T·R·S entry
 * such as (1 − 2(yy + zz))·s is off by γ₄ of (1 + 2|q|²)·|s| (its terms' size; a sample need not
 * be a unit quaternion), the float32 rest pose by u more; each product of two matrices adds γ₄ of
 * |A|·|B| on top of their errors carried through. Entry (i, j) of a joint at depth d is then within
 * (γ₅·(d + 1) + γ₄·d [+ γ₄ for skinning]) · (|L₀|·…·|L_d| [· |IBM|])ᵢⱼ of the float64 value, where |L|
 * holds (1 + 2|q|²)·|s_j| in column j of its 3×3 block and |t| in its translation column.
 */
export function expectMatricesWithinBound(
  actual: Float32Array,
  samples: Float32Array,
  counts: Uint8Array,
  binding: JointBinding,
  instances: number,
  inverseBind?: Float32Array,
): void {
  const joints = binding.skeleton.joints;
  const c = binding.curveCount;
  for (let n = 0; n < instances; n++) {
    const s = { samples: samples.subarray(4 * c * n, 4 * c * (n + 1)), counts: counts.subarray(c * n, c * (n + 1)) };
    const model = new Float64Array(16 * joints.length);
    referenceLocalToModel(s, binding, model as unknown as Float32Array);
    const envelopes: Float64Array[] = [];
    const depths: number[] = [];
    joints.forEach((joint, j) => {
      const value = (p: number, rest: readonly number[]) => {
        const curve = binding.curves[3 * j + p]!;
        return curve >= 0 && s.counts[curve]! > 0 ? Array.from(s.samples.subarray(4 * curve, 4 * curve + 3)) : [...rest];
      };
      const t = value(0, joint.rest.translation);
      const rotation = binding.curves[3 * j + 1]! >= 0 && s.counts[binding.curves[3 * j + 1]!]! > 0 ? s.samples.subarray(4 * binding.curves[3 * j + 1]!, 4 * binding.curves[3 * j + 1]! + 4) : joint.rest.rotation;
      const q2 = rotation[0]! ** 2 + rotation[1]! ** 2 + rotation[2]! ** 2 + rotation[3]! ** 2;
      const scale = value(2, joint.rest.scale);
      const local = new Float64Array(16);
      for (let col = 0; col < 3; col++) for (let row = 0; row < 3; row++) local[4 * col + row] = (1 + 2 * q2) * Math.abs(scale[col]!);
      for (let row = 0; row < 3; row++) local[12 + row] = Math.abs(t[row]!);
      local[15] = 1;
      envelopes.push(joint.parent < 0 ? local : multiply(envelopes[joint.parent]!, local));
      depths.push(joint.parent < 0 ? 0 : depths[joint.parent]! + 1);
    });
    joints.forEach((_, j) => {
      const d = depths[j]!;
      let expected: ArrayLike<number> = model.subarray(16 * j, 16 * j + 16);
      let envelope: ArrayLike<number> = envelopes[j]!;
      let relative = gamma(5) * (d + 1) + gamma(4) * d;
      if (inverseBind) {
        const ibm = inverseBind.subarray(16 * j, 16 * j + 16);
        expected = multiply(expected, ibm);
        envelope = multiply(envelope, Array.from(ibm, Math.abs));
        relative += gamma(4);
      }
      for (let e = 0; e < 16; e++) {
        const k = 16 * (joints.length * n + j) + e;
        const allowed = relative * envelope[e]! + UNDERFLOW;
        if (!(Math.abs(actual[k]! - expected[e]!) <= allowed)) {
          throw new Error(`instance ${n} joint ${j} entry ${e}: wasm ${actual[k]} vs float64 ${expected[e]}, over the float32 bound ${allowed}`);
        }
      }
    });
  }
  expect(actual.length).toBeGreaterThanOrEqual(16 * joints.length * instances);
}
