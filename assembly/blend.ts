// The blend job (spec sequencer.md §3–§4): N layers of float4 samples in one pose layout blended
// into one output in a single call; layers that name a clip are sampled first (`sampleClip`), and
// a local-to-model job, when given, composes the result's model-space matrices in the same call.
// Normal layers combine by rule `priority` (Nebula3: first active sample as is, each following one
// mixed in with its weight × mask) or `weighted` (ozz BlendingJob / three.js PropertyMixer:
// weighted mean, the rest pose filling up to τ); additive layers then add their delta against their
// reference pose (three.js makeClipAdditive) to the curves the result defines. Twin:
// `referenceBlend` (src/reference/blend.ts).
//
// Every rule is per curve, so the kernel runs curve by curve: each curve's layers, rest fill and
// additive layers in one pass, its running weight and count in locals (no per-curve scratch arrays
// and no second pass over the output). The slerp polynomial's coefficients are kept per layer:
// a layer's weight, and the running weight w / W of the weighted rule, repeat over the layer's
// curves, so each layer's slot is prepared about once per call although the layers alternate.
import {
  BLEND_CURVE_COUNT, BLEND_FLAGS, BLEND_LAYER_COUNT, BLEND_LAYERS, BLEND_LINEAR, BLEND_LINEAR_COUNT, BLEND_OUT,
  BLEND_OUT_COUNTS, BLEND_REST, BLEND_ROTATION, BLEND_ROTATION_COUNT, FLAG_SLERP, BLEND_THRESHOLD, BLEND_WEIGHTED,
  BLEND_MATRICES, BLEND_MODEL_JOB, LAYER_ADDITIVE, LAYER_CLIP, LAYER_COUNTS, LAYER_CURSORS, LAYER_FLAGS,
  LAYER_KIND, LAYER_MASK, LAYER_MODE, LAYER_REFERENCE, LAYER_REFERENCE_COUNTS, LAYER_SAMPLES, LAYER_SIZE, LAYER_TIME,
  LAYER_TIME_FACTOR, LAYER_WEIGHT,
} from './layout';
import { localToModel } from './local-to-model';
import { copy4, lerp4, nlerpAligned, nlerpShortest, SLERP_SLOT_SIZE, slerpShortest } from './quat';
import { sampleClip } from './sample-clip';

/** Two float4 slots for the additive rotation: identity, then the delta. */
const SCRATCH = memory.data(32, 16);
/** Slerp coefficient slots: one per layer (layers LAYER_SLOTS apart share one), then the rest fill's. */
const LAYER_SLOTS: usize = 8;
const SLOTS = memory.data(<i32>(SLERP_SLOT_SIZE * (LAYER_SLOTS + 1)), 16);
const FILL_SLOT = SLOTS + LAYER_SLOTS * SLERP_SLOT_SIZE;

// The job's fields, read once per call by `blend`.
let layers: usize = 0;
let layerCount: usize = 0;
let rest: usize = 0;
let slerp = false;
let weighted = false;
let tau: f32 = 0;
/** The rest pose fills up to τ (weighted, τ > 0): every curve is defined. */
let fills = false;

/** Runs the blend job block at `job` (assembly/layout.ts, BLEND_*). */
export function blend(job: usize): void {
  layers = <usize>load<u32>(job + BLEND_LAYERS);
  layerCount = <usize>load<u32>(job + BLEND_LAYER_COUNT);
  rest = <usize>load<u32>(job + BLEND_REST);
  const flags = load<u32>(job + BLEND_FLAGS);
  slerp = (flags & FLAG_SLERP) != 0;
  weighted = (flags & BLEND_WEIGHTED) != 0;
  tau = load<f32>(job + BLEND_THRESHOLD);
  fills = weighted && tau > 0;
  const out = <usize>load<u32>(job + BLEND_OUT);
  const outCounts = <usize>load<u32>(job + BLEND_OUT_COUNTS);
  sampleLayers();
  const linear = <usize>load<u32>(job + BLEND_LINEAR);
  const linearCount = <usize>load<u32>(job + BLEND_LINEAR_COUNT);
  for (let j: usize = 0; j < linearCount; j++) blendLinear(<usize>load<u32>(linear + (j << 2)), out, outCounts);
  const rotation = <usize>load<u32>(job + BLEND_ROTATION);
  const rotationCount = <usize>load<u32>(job + BLEND_ROTATION_COUNT);
  // The additive rotation interpolates from identity (SCRATCH) to the delta (SCRATCH + 16).
  store<f32>(SCRATCH, 0);
  store<f32>(SCRATCH, 0, 4);
  store<f32>(SCRATCH, 0, 8);
  store<f32>(SCRATCH, 1, 12);
  for (let j: usize = 0; j < rotationCount; j++) blendRotation(<usize>load<u32>(rotation + (j << 2)), out, outCounts);
  const model = <usize>load<u32>(job + BLEND_MODEL_JOB);
  // Every curve of the result is read: undefined ones print their rest value, and a rest-filled
  // one (count 0) may carry an additive delta.
  if (model != 0) localToModel(model, out, 0, <usize>load<u32>(job + BLEND_MATRICES));
}

/**
 * Samples every layer that names a clip into its own buffers, except layers that cannot
 * contribute: weight 0 under `weighted` or in additive mode (w ≤ 0 is skipped there, spec §3–§4;
 * under `priority` a first active layer counts whatever its weight).
 */
function sampleLayers(): void {
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    const clip = <usize>load<u32>(l + LAYER_CLIP);
    if (clip == 0) continue;
    if ((weighted || load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE) && !(load<f32>(l + LAYER_WEIGHT) > 0)) continue;
    sampleClip(
      clip,
      load<u32>(l + LAYER_KIND),
      load<f64>(l + LAYER_TIME),
      <usize>load<u32>(l + LAYER_SAMPLES),
      <usize>load<u32>(l + LAYER_COUNTS),
      <usize>load<u32>(l + LAYER_CURSORS),
      load<u32>(l + LAYER_FLAGS),
      load<f32>(l + LAYER_TIME_FACTOR),
    );
  }
}

/** The mask weight of layer record `l` at curve i (1 without a mask). */
// @ts-ignore: decorator
@inline
function maskAt(l: usize, i: usize): f32 {
  const mask = <usize>load<u32>(l + LAYER_MASK);
  return mask == 0 ? 1 : load<f32>(mask + (i << 2));
}

/** Layer k's slerp coefficient slot. */
// @ts-ignore: decorator
@inline
function slotOf(k: usize): usize {
  return SLOTS + (k & (LAYER_SLOTS - 1)) * SLERP_SLOT_SIZE;
}

/** The sample count of layer record `l` at curve i. */
// @ts-ignore: decorator
@inline
function countAt(l: usize, i: usize): u32 {
  return <u32>load<u8>(<usize>load<u32>(l + LAYER_COUNTS) + i);
}

/** Curve i (not a rotation): its normal layers, the rest fill or rest value, its additive layers. */
function blendLinear(i: usize, out: usize, outCounts: usize): void {
  const o = i << 4;
  const dst = out + o;
  let total: f32 = 0;
  let count: u32 = 0;
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE) continue;
    const c = countAt(l, i);
    const m = maskAt(l, i);
    const v = <usize>load<u32>(l + LAYER_SAMPLES) + o;
    if (weighted) {
      const w = load<f32>(l + LAYER_WEIGHT) * m;
      if (c == 0 || !(w > 0)) continue;
      total += w;
      accumulate(dst, v, w / total, count == 0, false);
      count++;
    } else {
      if (c == 0 || m == 0) continue;
      if (count == 0) copy4(v, dst);
      else lerp4(dst, v, load<f32>(l + LAYER_WEIGHT) * m, dst);
      count += c;
    }
  }
  if (weighted) {
    const fill = max<f32>(0, tau - total);
    if (fill > 0) accumulate(dst, rest + o, fill / (total + fill), total == 0, false);
  }
  if (!defined(i, o, dst, outCounts, count)) return;
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    const w = additiveWeight(l, i);
    if (w == 0) continue;
    addScaled(dst, <usize>load<u32>(l + LAYER_SAMPLES) + o, w);
    addScaled(dst, <usize>load<u32>(l + LAYER_REFERENCE) + o, -w);
  }
}

/** Rotation curve i: as `blendLinear`, with slerp or nlerp along the shortest arc. */
function blendRotation(i: usize, out: usize, outCounts: usize): void {
  const o = i << 4;
  const dst = out + o;
  let total: f32 = 0;
  let count: u32 = 0;
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE) continue;
    const c = countAt(l, i);
    const m = maskAt(l, i);
    const v = <usize>load<u32>(l + LAYER_SAMPLES) + o;
    if (weighted) {
      const w = load<f32>(l + LAYER_WEIGHT) * m;
      if (c == 0 || !(w > 0)) continue;
      total += w;
      // three.js PropertyMixer.accumulate: the first sample starts the running slerp.
      if (slerp) {
        if (count == 0) copy4(v, dst);
        else slerpShortest(slotOf(k), dst, v, w / total, dst);
      } else {
        accumulate(dst, v, w / total, count == 0, dotF32(dst, v) < 0);
      }
      count++;
    } else {
      if (c == 0 || m == 0) continue;
      const w = load<f32>(l + LAYER_WEIGHT) * m;
      if (count == 0) copy4(v, dst);
      else if (slerp) slerpShortest(slotOf(k), dst, v, w, dst);
      else nlerpShortest(dst, v, w, dst);
      count += c;
    }
  }
  if (weighted) {
    // The rest pose fills up to τ.
    const fill = max<f32>(0, tau - total);
    if (total + fill != 0) {
      if (slerp) {
        if (total == 0) copy4(rest + o, dst);
        else if (fill > 0) slerpShortest(FILL_SLOT, dst, rest + o, fill / tau, dst);
      } else {
        if (fill > 0) accumulate(dst, rest + o, fill / (total + fill), total == 0, dotF32(dst, rest + o) < 0);
        nlerpAligned(dst, dst, 0, dst); // normalises; a zero sum becomes identity
      }
    }
  }
  if (!defined(i, o, dst, outCounts, count)) return;
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    const w = additiveWeight(l, i);
    if (w == 0) continue;
    // Δ = ref⁻¹ ⊗ q into SCRATCH + 16, then interpolated from identity by w and applied.
    inverseTimes(<usize>load<u32>(l + LAYER_REFERENCE) + o, <usize>load<u32>(l + LAYER_SAMPLES) + o, SCRATCH + 16);
    if (slerp) slerpShortest(slotOf(k), SCRATCH, SCRATCH + 16, w, SCRATCH + 16);
    else nlerpShortest(SCRATCH, SCRATCH + 16, w, SCRATCH + 16);
    multiplyInto(dst, SCRATCH + 16);
  }
}

/**
 * Stores curve i's count (saturating at 255); an undefined curve (no contribution, and no rest
 * fill) prints its rest value. Returns whether the curve is defined, which is where additive
 * layers apply (spec §4).
 */
// @ts-ignore: decorator
@inline
function defined(i: usize, o: usize, dst: usize, outCounts: usize, count: u32): bool {
  store<u8>(outCounts + i, <u8>min<u32>(count, 255));
  if (count != 0 || fills) return true;
  copy4(rest + o, dst);
  return false;
}

/**
 * The weight w = weight × mask of additive layer record `l` at curve i, or 0 where it adds nothing
 * (a normal layer, an inactive sample or reference, w ≤ 0).
 */
// @ts-ignore: decorator
@inline
function additiveWeight(l: usize, i: usize): f32 {
  if (load<u32>(l + LAYER_MODE) != LAYER_ADDITIVE) return 0;
  const w = load<f32>(l + LAYER_WEIGHT) * maskAt(l, i);
  if (countAt(l, i) == 0 || load<u8>(<usize>load<u32>(l + LAYER_REFERENCE_COUNTS) + i) == 0 || !(w > 0)) return 0;
  return w;
}

/** dot(a, b) in f32 summed (xx + yy) + (zz + ww), the order of the SIMD dot in quat.ts. */
// @ts-ignore: decorator
@inline
function dotF32(a: usize, b: usize): f32 {
  return load<f32>(a) * load<f32>(b) + load<f32>(a, 4) * load<f32>(b, 4) + (load<f32>(a, 8) * load<f32>(b, 8) + load<f32>(a, 12) * load<f32>(b, 12));
}

/** acc += w · v on four lanes. */
// @ts-ignore: decorator
@inline
function addScaled(acc: usize, v: usize, w: f32): void {
  if (ASC_FEATURE_SIMD) {
    v128.store(acc, f32x4.add(v128.load(acc), f32x4.mul(v128.load(v), f32x4.splat(w))));
  } else {
    store<f32>(acc, load<f32>(acc) + load<f32>(v) * w);
    store<f32>(acc, load<f32>(acc, 4) + load<f32>(v, 4) * w, 4);
    store<f32>(acc, load<f32>(acc, 8) + load<f32>(v, 8) * w, 8);
    store<f32>(acc, load<f32>(acc, 12) + load<f32>(v, 12) * w, 12);
  }
}

/**
 * The running weighted mean of the weighted rule: mean += (±v − mean) · t with t = w / W so far
 * (three.js PropertyMixer.accumulate); the first term is copied. Equal to Σ w v / W, and free of
 * the underflow that Σ w v would suffer with tiny weights. `negate` takes −v (nlerp's shortest arc).
 */
// @ts-ignore: decorator
@inline
function accumulate(mean: usize, v: usize, t: f32, first: bool, negate: bool): void {
  if (first) {
    copy4(v, mean);
    return;
  }
  if (ASC_FEATURE_SIMD) {
    const m = v128.load(mean);
    let b = v128.load(v);
    if (negate) b = f32x4.neg(b);
    v128.store(mean, f32x4.add(m, f32x4.mul(f32x4.sub(b, m), f32x4.splat(t))));
  } else {
    const s: f32 = negate ? -1 : 1;
    store<f32>(mean, load<f32>(mean) + (s * load<f32>(v) - load<f32>(mean)) * t);
    store<f32>(mean, load<f32>(mean, 4) + (s * load<f32>(v, 4) - load<f32>(mean, 4)) * t, 4);
    store<f32>(mean, load<f32>(mean, 8) + (s * load<f32>(v, 8) - load<f32>(mean, 8)) * t, 8);
    store<f32>(mean, load<f32>(mean, 12) + (s * load<f32>(v, 12) - load<f32>(mean, 12)) * t, 12);
  }
}

/** out = a⁻¹ ⊗ b, a⁻¹ = conjugate / |a|² (identity for a zero a). In f64, stored as f32. */
function inverseTimes(a: usize, b: usize, out: usize): void {
  let ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
  const n = ax * ax + ay * ay + az * az + aw * aw;
  if (n > 0) {
    ax = -ax / n;
    ay = -ay / n;
    az = -az / n;
    aw = aw / n;
  } else {
    ax = 0;
    ay = 0;
    az = 0;
    aw = 1;
  }
  const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
  store<f32>(out, <f32>(ax * bw + aw * bx + ay * bz - az * by));
  store<f32>(out, <f32>(ay * bw + aw * by + az * bx - ax * bz), 4);
  store<f32>(out, <f32>(az * bw + aw * bz + ax * by - ay * bx), 8);
  store<f32>(out, <f32>(aw * bw - ax * bx - ay * by - az * bz), 12);
}

/** a = a ⊗ b (Hamilton product, x y z w), in f64. */
function multiplyInto(a: usize, b: usize): void {
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
  const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
  store<f32>(a, <f32>(ax * bw + aw * bx + ay * bz - az * by));
  store<f32>(a, <f32>(ay * bw + aw * by + az * bx - ax * bz), 4);
  store<f32>(a, <f32>(az * bw + aw * bz + ax * by - ay * bx), 8);
  store<f32>(a, <f32>(aw * bw - ax * bx - ay * by - az * bz), 12);
}
