import type { JointBinding, SampleArrays } from '../anim/index.js';
import { UsageError } from '../errors.js';

/**
 * Plain-TypeScript twin of the core's `localToModel` (assembly/local-to-model.ts), in float64:
 * per joint the local T·R·S from the bound curves' samples (rest pose where a joint property has
 * no curve or its sample count is 0), composed down the hierarchy (joints visited parents first,
 * `skeleton.order`) into model-space 4×4 matrices, column-major. Every intermediate is a float64,
 * so an entry written to a float32 `out` is ±Inf only where the exact value is beyond float32: the
 * kernel's overflow rule (assembly/local-to-model.ts), which the fuzz oracle checks against this.
 * @param samples float4 per curve of the binding's clip (`4 × binding.curveCount` floats)
 * @param out `16 × skeleton.size` floats, written
 * @throws UsageError when `samples` or `out` is too small
 */
export function referenceLocalToModel(samples: SampleArrays, binding: JointBinding, out: Float32Array): void {
  const joints = binding.skeleton.joints;
  if (samples.samples.length < 4 * binding.curveCount || samples.counts.length < binding.curveCount) {
    throw new UsageError(`samples hold fewer than the binding's ${binding.curveCount} curves`);
  }
  if (out.length < 16 * joints.length) throw new UsageError(`out needs ${16 * joints.length} floats, has ${out.length}`);
  const model: Float64Array[] = [];
  for (const i of binding.skeleton.order) {
    const joint = joints[i]!;
    const value = (p: number, rest: readonly number[]): number[] => {
      const c = binding.curves[3 * i + p]!;
      return c >= 0 && samples.counts[c]! > 0 ? Array.from(samples.samples.subarray(4 * c, 4 * c + 4)) : [...rest];
    };
    const [tx, ty, tz] = value(0, joint.rest.translation) as [number, number, number];
    const [x, y, z, w] = value(1, joint.rest.rotation) as [number, number, number, number];
    const [sx, sy, sz] = value(2, joint.rest.scale) as [number, number, number];
    const local = Float64Array.of(
      (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + w * z) * sx, 2 * (x * z - w * y) * sx, 0,
      2 * (x * y - w * z) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + w * x) * sy, 0,
      2 * (x * z + w * y) * sz, 2 * (y * z - w * x) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
      tx, ty, tz, 1,
    );
    const m = joint.parent < 0 ? local : multiply(model[joint.parent]!, local);
    model[i] = m;
    out.set(m, 16 * i);
  }
}

/** a · b for column-major 4×4 matrices. */
function multiply(a: Float64Array, b: Float64Array): Float64Array {
  const r = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let row = 0; row < 4; row++) {
      r[4 * c + row] = a[row]! * b[4 * c]! + a[4 + row]! * b[4 * c + 1]! + a[8 + row]! * b[4 * c + 2]! + a[12 + row]! * b[4 * c + 3]!;
    }
  }
  return r;
}
