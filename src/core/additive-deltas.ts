import type { AnimClip, AnimCurve, CurveKeys } from '../anim/index.js';
import { DELTA_LENGTH_SQ } from '../anim/blend-options.js';
import { quatInverse, quatMultiply } from '../anim/quaternion.js';
import { DROPPED_REST } from '../anim/rest-value.js';

/**
 * |q|² within this of 1: a reference rotation whose inverse is a rotation, so that multiplying by
 * it keeps dot products (f32 unit quaternions are within ~5e-7).
 */
const UNIT_TOLERANCE = 1e-6;

/**
 * `clip` with its keys as deltas against its reference pose, as three.js
 * `AnimationUtils.makeClipAdditive` rewrites an additive clip (spec sequencer.md §4): rotation
 * keys ref⁻¹ ⊗ key, every other curve's keys key − ref, computed in f64 and rounded to f32 once;
 * curves whose reference count is 0 (to which the layer adds nothing) keep their keys. Sampling
 * the result equals the delta of sampling `clip`, up to that rounding: multiplying by a unit
 * quaternion is an orthogonal linear map — it keeps the dots that pick the shortest arc, and
 * commutes with slerp, nlerp and step — and lerp commutes with a translation.
 *
 * @param reference `4 × curveCount` floats: `clip` sampled at its reference time
 * @param counts the reference's sample counts, one per curve
 * @returns null where that does not hold or the keys are not at hand (a layer then takes its
 *   deltas per sample): curves other than uniform, keyed or static (cubic tangents, Unity
 *   curves), a reference rotation that is not unit, a rotation delta far from unit length (which
 *   the kernel normalises per sample: `DELTA_LENGTH_SQ`), keys dropped after loading
 */
export function additiveDeltaClip(clip: AnimClip, reference: Float32Array, counts: Uint8Array): AnimClip | null {
  const curves: AnimCurve[] = [];
  for (let i = 0; i < clip.curves.length; i++) {
    const curve = clip.curves[i]!;
    const keys = curve.keys;
    if (counts[i] === 0) {
      curves.push(curve);
      continue;
    }
    if (DROPPED_REST in keys || (keys.encoding !== 'uniform' && keys.encoding !== 'keyed' && keys.encoding !== 'static')) return null;
    const r = reference.subarray(4 * i, 4 * i + 4);
    const values = keys.encoding === 'static' ? keys.value : keys.values;
    const deltas = new Float32Array(values.length);
    if (curve.curveType === 'rotation') {
      const n = r[0]! * r[0]! + r[1]! * r[1]! + r[2]! * r[2]! + r[3]! * r[3]!;
      if (!(Math.abs(n - 1) <= UNIT_TOLERANCE)) return null;
      const inverse = quatInverse(r);
      for (let o = 0; o < values.length; o += 4) {
        const d = quatMultiply(inverse, values.subarray(o, o + 4));
        const length = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3];
        if (!(length >= DELTA_LENGTH_SQ[0] && length <= DELTA_LENGTH_SQ[1])) return null;
        deltas.set(d, o);
      }
    } else {
      for (let k = 0; k < values.length; k++) deltas[k] = values[k]! - r[k & 3]!;
    }
    const rewritten: CurveKeys = keys.encoding === 'static' ? { ...keys, value: deltas } : { ...keys, values: deltas };
    curves.push({ ...curve, keys: rewritten });
  }
  return clip.withCurves(curves);
}
