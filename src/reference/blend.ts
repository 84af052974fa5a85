import type { BlendLayer, BlendOptions, CurveType, SampleArrays } from '../anim/index.js';
import { quatInverse, quatMultiply } from '../anim/quaternion.js';
import { checkWeight, DELTA_LENGTH_SQ } from '../anim/blend-options.js';
import { UsageError } from '../errors.js';
import { type F4, lerp4, nlerp, normalize, slerp } from './quat.js';
import { QUAT_MIN_LENGTH } from './sample-unity.js';

/**
 * Plain-TypeScript twin of the blend kernel (spec sequencer.md §3–§4): blends `layers`, in list
 * order, into `out`, per curve.
 *
 * - `priority` (Nebula3 `AnimSequencer` + `AnimMixer`): the first layer whose sample is active
 *   (count > 0 and mask ≠ 0) is taken as is; each following active one is mixed in with share
 *   w = weight × mask (rotations nlerp / slerp along the shortest arc, the rest lerp). Counts add
 *   up (saturating at 255).
 * - `weighted` (ozz `BlendingJob`, three.js `PropertyMixer`): samples with w ≤ 0 are skipped;
 *   W = Σ w; the rest value fills with weight max(0, τ − W) (W rounded to float32 there); linear values are the weighted mean;
 *   rotations `nlerp`: normalize(Σ ±w q + fill · ±rest), each sign making the term's dot with the
 *   running sum ≥ 0; `slerp`: three.js's running slerp, then a slerp towards rest by (τ − W) / τ.
 *   Count = the number of contributing layers.
 * - `additive` layers (three.js `makeClipAdditive` deltas against `reference`), after the normal
 *   ones, on curves the result has defined: Δ = v − v_ref and v += w Δ; rotations Δq = q_ref⁻¹ ⊗ q,
 *   normalised where |Δq|² is outside `DELTA_LENGTH_SQ` (zero: identity), and
 *   q = q ⊗ interp(identity, Δq, w). Counts unchanged.
 *
 * A curve left undefined (count 0, and not filled by the rest) gets its rest value and count 0.
 * Arithmetic in float64.
 * @param curveTypes the pose layout's curve types (rotations are quaternions x y z w)
 * @param rest `4 × curveCount` rest values
 * @throws UsageError when a buffer is too small, a weight is negative or beyond float32, a mask value
 *   is outside [0, 1], an additive layer has no reference, or τ is negative or not finite
 */
export function referenceBlend(
  curveTypes: readonly CurveType[],
  rest: ArrayLike<number>,
  layers: readonly BlendLayer[],
  out: SampleArrays,
  options: BlendOptions = {},
): void {
  const n = curveTypes.length;
  const rule = options.rule ?? 'priority';
  const tau = options.threshold ?? 1;
  checkWeight('threshold', tau, 0);
  // τ and each w = weight × mask are decided on in float32, as the kernel stores them.
  const tau32 = Math.fround(tau);
  const useSlerp = options.rotation === 'slerp';
  if (rest.length < 4 * n) throw new UsageError(`rest holds fewer than ${n} curves`);
  checkArrays(out, n, 'out');
  layers.forEach((l, j) => {
    checkArrays(l.samples, n, `layer ${j}`);
    checkWeight(`layer ${j}: weight`, l.weight, 0);
    if (l.mask && l.mask.length < n) throw new UsageError(`layer ${j}: mask holds fewer than ${n} curves`);
    if (l.mode === 'additive') {
      if (!l.reference) throw new UsageError(`layer ${j}: an additive layer needs its reference samples`);
      checkArrays(l.reference, n, `layer ${j} reference`);
    }
  });
  const normal = layers.filter((l) => l.mode !== 'additive');
  const additive = layers.filter((l) => l.mode === 'additive');
  for (let i = 0; i < n; i++) {
    const rotation = curveTypes[i] === 'rotation';
    const blended =
      rule === 'priority' ? blendPriority(normal, i, rotation, useSlerp) : blendWeighted(normal, i, rotation, useSlerp, rest, tau32);
    let v: F4;
    let count = 0;
    if (blended === null) {
      v = [rest[4 * i]!, rest[4 * i + 1]!, rest[4 * i + 2]!, rest[4 * i + 3]!];
    } else {
      v = blended.value;
      count = blended.count;
      for (const layer of additive) v = addLayer(v, layer, i, rotation, useSlerp);
    }
    out.samples.set(v, 4 * i);
    out.counts[i] = count;
  }
}

function checkArrays(a: SampleArrays, n: number, what: string): void {
  if (a.counts.length < n || a.samples.length < 4 * n) throw new UsageError(`${what} holds fewer than ${n} curves`);
}

interface Blended {
  value: F4;
  count: number;
}

function maskAt(layer: BlendLayer, i: number): number {
  const m = layer.mask ? layer.mask[i]! : 1;
  if (!(m >= 0 && m <= 1)) throw new UsageError(`mask value ${m} at curve ${i} is outside [0, 1]`);
  return m;
}

function sampleOf(a: SampleArrays, i: number): F4 {
  return [a.samples[4 * i]!, a.samples[4 * i + 1]!, a.samples[4 * i + 2]!, a.samples[4 * i + 3]!];
}

/** Spec §3 `priority`; null when no layer is active on the curve. */
function blendPriority(layers: readonly BlendLayer[], i: number, rotation: boolean, useSlerp: boolean): Blended | null {
  let value: F4 | null = null;
  let count = 0;
  for (const layer of layers) {
    const c = layer.samples.counts[i]!;
    const m = maskAt(layer, i);
    if (c === 0 || m === 0) continue;
    const s = layer.samples.samples;
    if (value === null) {
      value = sampleOf(layer.samples, i);
    } else {
      const w = Math.fround(layer.weight * m);
      value = !rotation ? lerp4(value, 0, s, 4 * i, w) : useSlerp ? slerp(value, 0, s, 4 * i, w) : nlerp(value, 0, s, 4 * i, w, true);
    }
    count = Math.min(count + c, 255);
  }
  return value === null ? null : { value, count };
}

/** Spec §3 `weighted`; null when the curve stays undefined (no contribution and τ = 0). */
function blendWeighted(
  layers: readonly BlendLayer[],
  i: number,
  rotation: boolean,
  useSlerp: boolean,
  rest: ArrayLike<number>,
  tau: number,
): Blended | null {
  const terms: { w: number; v: F4 }[] = [];
  for (const layer of layers) {
    const w = Math.fround(layer.weight * maskAt(layer, i));
    if (layer.samples.counts[i]! === 0 || w <= 0) continue;
    terms.push({ w, v: sampleOf(layer.samples, i) });
  }
  let total = 0;
  for (const t of terms) total += t.w;
  // W compared with τ in float32, as the kernel does (weights of 1 − f and f fill nothing).
  const fill = Math.max(0, tau - Math.fround(total));
  if (total + fill === 0) return null;
  const r: F4 = [rest[4 * i]!, rest[4 * i + 1]!, rest[4 * i + 2]!, rest[4 * i + 3]!];
  const count = Math.min(terms.length, 255);
  if (!rotation) {
    const sum: F4 = [0, 0, 0, 0];
    for (const t of terms) for (let k = 0; k < 4; k++) sum[k] = sum[k]! + t.w * t.v[k]!;
    for (let k = 0; k < 4; k++) sum[k] = (sum[k]! + fill * r[k]!) / (total + fill);
    return { value: sum, count };
  }
  if (useSlerp) {
    if (terms.length === 0) return { value: r, count };
    let acc = terms[0]!.v;
    let accWeight = terms[0]!.w;
    for (const t of terms.slice(1)) {
      accWeight += t.w;
      acc = slerp(acc, 0, t.v, 0, t.w / accWeight);
    }
    if (fill > 0) acc = slerp(acc, 0, r, 0, fill / tau);
    return { value: acc, count };
  }
  const sum: F4 = [0, 0, 0, 0];
  const addTerm = (w: number, v: F4): void => {
    const s = sum[0] * v[0] + sum[1] * v[1] + sum[2] * v[2] + sum[3] * v[3] < 0 ? -w : w;
    for (let k = 0; k < 4; k++) sum[k] = sum[k]! + s * v[k]!;
  };
  for (const t of terms) addTerm(t.w, t.v);
  if (fill > 0) addTerm(fill, r);
  // The mean (sum / (W + fill)) shorter than QUAT_MIN_LENGTH (zero keys) is identity, as everywhere
  // in the kernels; testing the mean, not the sum, keeps the rule independent of the weights' scale.
  const len = Math.hypot(...sum);
  if (len / (total + fill) < QUAT_MIN_LENGTH) return { value: [...IDENTITY], count };
  return { value: [sum[0] / len, sum[1] / len, sum[2] / len, sum[3] / len], count };
}

const IDENTITY: F4 = [0, 0, 0, 1];

/** Spec §4: one additive layer on top of `v` (unchanged where the layer is inactive or w ≤ 0). */
function addLayer(v: F4, layer: BlendLayer, i: number, rotation: boolean, useSlerp: boolean): F4 {
  const w = Math.fround(layer.weight * maskAt(layer, i));
  const ref = layer.reference!;
  if (layer.samples.counts[i]! === 0 || ref.counts[i]! === 0 || w <= 0) return v;
  const q = sampleOf(layer.samples, i);
  const q0 = sampleOf(ref, i);
  if (!rotation) return [v[0] + w * (q[0] - q0[0]), v[1] + w * (q[1] - q0[1]), v[2] + w * (q[2] - q0[2]), v[3] + w * (q[3] - q0[3])];
  const d = quatMultiply(quatInverse(q0), q);
  const n = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3];
  const delta: F4 = n >= DELTA_LENGTH_SQ[0] && n <= DELTA_LENGTH_SQ[1] ? d : normalize(d);
  const part = useSlerp ? slerp(IDENTITY, 0, delta, 0, w) : nlerp(IDENTITY, 0, delta, 0, w, true);
  return quatMultiply(v, part);
}
