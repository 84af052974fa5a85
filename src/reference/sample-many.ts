import type { AnimClip, JointBinding, MixOptions, SampleOptions } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { referenceLocalToModel } from './local-to-model.js';
import { referenceMix } from './mix.js';
import { referenceSample } from './sample-clip.js';

export interface ReferenceSampleManyOptions extends SampleOptions {
  /** Instance i samples `clips[i]` instead of `clip` (instances beyond them `clip`); same layout. */
  clips?: readonly AnimClip[];
  /** A second clip of the same layout mixed in with `weights[i]` as its share. */
  mixWith?: AnimClip;
  weights?: ArrayLike<number>;
  /** Times for `mixWith`; default `times`. */
  timesB?: ArrayLike<number>;
  mixRotation?: MixOptions['rotation'];
  /** With a binding, `matrices` receives model-space matrices (or skinning ones with `inverseBindMatrices`). */
  binding?: JointBinding;
  /** `16 × skeleton.size` floats: skinning matrices are model · inverse bind. */
  inverseBindMatrices?: ArrayLike<number>;
}

/**
 * Plain-TypeScript twin of the core's `SampleManyJob` (assembly/sample-many.ts): per instance i,
 * `referenceSample(clips[i] ?? clip, times[i])`, mixed with `mixWith` at `timesB[i]` by `weights[i]`
 * (`referenceMix`), then `referenceLocalToModel` and the product with the inverse bind matrix.
 * @param out `samples` `4 × curveCount × n`, `counts` `curveCount × n`, `matrices` (with a
 *   binding) `16 × jointCount × n` floats; instance-major, written
 * @throws UsageError when `weights` are missing for a mix or an output is too small
 */
export function referenceSampleMany(
  clip: AnimClip,
  times: ArrayLike<number>,
  out: { samples: Float32Array; counts: Uint8Array; matrices?: Float32Array },
  options: ReferenceSampleManyOptions = {},
): void {
  const c = clip.curves.length;
  const n = times.length;
  const { mixWith, weights, binding, inverseBindMatrices } = options;
  if (out.samples.length < 4 * c * n || out.counts.length < c * n) throw new UsageError(`outputs hold fewer than ${n} instances`);
  if (mixWith !== undefined && (weights === undefined || weights.length < n)) throw new UsageError('mixing needs a weight per instance');
  const j = binding?.skeleton.size ?? 0;
  if (binding !== undefined && (out.matrices === undefined || out.matrices.length < 16 * j * n)) {
    throw new UsageError(`matrices need ${16 * j * n} floats`);
  }
  const types = clip.curves.map((curve) => curve.curveType);
  const other = { samples: new Float32Array(4 * c), counts: new Uint8Array(c) };
  const model = new Float32Array(16 * j);
  for (let i = 0; i < n; i++) {
    const mine = { samples: out.samples.subarray(4 * c * i, 4 * c * (i + 1)), counts: out.counts.subarray(c * i, c * (i + 1)) };
    referenceSample(options.clips?.[i] ?? clip, times[i]!, mine, options);
    if (mixWith !== undefined) {
      referenceSample(mixWith, (options.timesB ?? times)[i]!, other, options);
      referenceMix(types, mine, other, weights![i]!, mine, { rotation: options.mixRotation });
    }
    if (binding === undefined) continue;
    const matrices = out.matrices!.subarray(16 * j * i, 16 * j * (i + 1));
    if (inverseBindMatrices === undefined) {
      referenceLocalToModel(mine, binding, matrices);
      continue;
    }
    referenceLocalToModel(mine, binding, model);
    for (let b = 0; b < j; b++) {
      for (let col = 0; col < 4; col++) {
        for (let row = 0; row < 4; row++) {
          let sum = 0;
          for (let k = 0; k < 4; k++) sum += model[16 * b + 4 * k + row]! * inverseBindMatrices[16 * b + 4 * col + k]!;
          matrices[16 * b + 4 * col + row] = sum;
        }
      }
    }
  }
}
