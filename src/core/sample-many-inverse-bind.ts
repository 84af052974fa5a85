import type { CurveType, JointBinding } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { LocalToModelJob } from './local-to-model.js';
import type { RuntimeOwner } from './runtime.js';
import { AnimSampleBuffer } from './sample-buffer.js';

/**
 * The inverse of the column-major 4×4 matrix at `m[at .. at + 16]`, written to `out[outAt ..]`
 * (cofactor expansion in float64, as three.js `Matrix4.invert`; an affine matrix's inverse with
 * its fourth row exactly (0, 0, 0, 1)).
 * @throws UsageError when the matrix is singular (a joint with zero scale in its rest pose), or so
 *   nearly that its inverse is beyond float32 (a scale of 1e-46 rounds to 0 there)
 */
export function invertMatrix4(m: ArrayLike<number>, at: number, out: Float32Array, outAt: number): void {
  const [a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33] = Array.from({ length: 16 }, (_, i) => m[at + i]!) as [
    number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number,
  ];
  const b00 = a00 * a11 - a01 * a10, b01 = a00 * a12 - a02 * a10, b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11, b04 = a01 * a13 - a03 * a11, b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30, b07 = a20 * a32 - a22 * a30, b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31, b10 = a21 * a33 - a23 * a31, b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (det === 0 || !Number.isFinite(det)) throw new UsageError('a rest-pose matrix is singular; pass inverseBindMatrices');
  const d = 1 / det;
  const inverse = [
    (a11 * b11 - a12 * b10 + a13 * b09) * d, (a02 * b10 - a01 * b11 - a03 * b09) * d,
    (a31 * b05 - a32 * b04 + a33 * b03) * d, (a22 * b04 - a21 * b05 - a23 * b03) * d,
    (a12 * b08 - a10 * b11 - a13 * b07) * d, (a00 * b11 - a02 * b08 + a03 * b07) * d,
    (a32 * b02 - a30 * b05 - a33 * b01) * d, (a20 * b05 - a22 * b02 + a23 * b01) * d,
    (a10 * b10 - a11 * b08 + a13 * b06) * d, (a01 * b08 - a00 * b10 - a03 * b06) * d,
    (a30 * b04 - a31 * b02 + a33 * b00) * d, (a21 * b02 - a20 * b04 - a23 * b00) * d,
    (a11 * b07 - a10 * b09 - a12 * b06) * d, (a00 * b09 - a01 * b07 + a02 * b06) * d,
    (a31 * b01 - a30 * b03 - a32 * b00) * d, (a20 * b03 - a21 * b01 + a22 * b00) * d,
  ];
  // The inverse of an affine matrix is affine: its fourth row exactly (0, 0, 0, 1), not the cofactors'
  // rounding of it (a scale of 1e-38 left 0.67 there, which glTF refuses in inverse bind matrices).
  if (a03 === 0 && a13 === 0 && a23 === 0 && a33 === 1) {
    inverse[3] = inverse[7] = inverse[11] = 0;
    inverse[15] = 1;
  }
  if (!inverse.every((v) => Number.isFinite(Math.fround(v)))) throw new UsageError('a rest-pose matrix is singular for float32 (its inverse overflows); pass inverseBindMatrices');
  out.set(inverse, outAt);
}

/**
 * Inverse bind matrices from the skeleton's rest pose: per joint the inverse of its rest-pose
 * model-space matrix (the core's local-to-model with every sample count 0), column-major,
 * `16 × skeleton.size` floats. Skinning with them gives identity matrices in the rest pose.
 * @throws UsageError when a rest-pose matrix is singular
 */
export function restInverseBindMatrices(core: RuntimeOwner, binding: JointBinding): Float32Array {
  const job = new LocalToModelJob(core, binding);
  const atRest = new AnimSampleBuffer(core, new Array<CurveType>(binding.curveCount).fill('float4')); // counts 0
  try {
    job.run(atRest);
    const model = job.matrices;
    const out = new Float32Array(model.length);
    for (let at = 0; at < model.length; at += 16) invertMatrix4(model, at, out, at);
    return out;
  } finally {
    atRest.dispose();
    job.dispose();
  }
}
