// The blend job (spec sequencer.md §3–§4): N layers of float4 samples in one pose layout blended
// into one output in a single call; layers that name a clip are sampled first (`sampleClip`), and
// a local-to-model job, when given, composes the result's model-space matrices in the same call. Normal layers combine by rule `priority` (Nebula3: first
// active sample as is, each following one mixed in with its weight × mask) or `weighted` (ozz
// BlendingJob / three.js PropertyMixer: weighted mean, the rest pose filling up to τ); additive
// layers then add their delta against their reference pose (three.js makeClipAdditive) to the
// curves the result defines. Twin: `referenceBlend` (src/reference/blend.ts).
import {
  BLEND_CURVE_COUNT, BLEND_FLAGS, BLEND_LAYER_COUNT, BLEND_LAYERS, BLEND_LINEAR, BLEND_LINEAR_COUNT, BLEND_OUT,
  BLEND_OUT_COUNTS, BLEND_REST, BLEND_ROTATION, BLEND_ROTATION_COUNT, FLAG_SLERP, BLEND_THRESHOLD, BLEND_WEIGHTED,
  BLEND_WEIGHTS, BLEND_MATRICES, BLEND_MODEL_JOB, LAYER_ADDITIVE, LAYER_CLIP, LAYER_COUNTS, LAYER_CURSORS, LAYER_FLAGS,
  LAYER_KIND, LAYER_MASK, LAYER_MODE, LAYER_REFERENCE, LAYER_REFERENCE_COUNTS, LAYER_SAMPLES, LAYER_SIZE, LAYER_TIME,
  LAYER_TIME_FACTOR, LAYER_WEIGHT,
} from './layout';
import { localToModel } from './local-to-model';
import { copy4, lerp4, nlerpAligned, nlerpShortest, slerpShortest } from './quat';
import { sampleClip } from './sample-clip';

/** Two float4 slots for the additive rotation: identity, then the delta. */
const SCRATCH = memory.data(32, 16);

// The job's layer table and curve lists, read once per call by `blend`.
let layers: usize = 0;
let layerCount: usize = 0;
let linear: usize = 0;
let linearCount: usize = 0;
let rotation: usize = 0;
let rotationCount: usize = 0;

/** Runs the blend job block at `job` (assembly/layout.ts, BLEND_*). */
export function blend(job: usize): void {
  layers = <usize>load<u32>(job + BLEND_LAYERS);
  layerCount = <usize>load<u32>(job + BLEND_LAYER_COUNT);
  linear = <usize>load<u32>(job + BLEND_LINEAR);
  linearCount = <usize>load<u32>(job + BLEND_LINEAR_COUNT);
  rotation = <usize>load<u32>(job + BLEND_ROTATION);
  rotationCount = <usize>load<u32>(job + BLEND_ROTATION_COUNT);
  const n = <usize>load<u32>(job + BLEND_CURVE_COUNT);
  const out = <usize>load<u32>(job + BLEND_OUT);
  const outCounts = <usize>load<u32>(job + BLEND_OUT_COUNTS);
  const flags = load<u32>(job + BLEND_FLAGS);
  const slerp = (flags & FLAG_SLERP) != 0;
  const weighted = (flags & BLEND_WEIGHTED) != 0;
  const tau = load<f32>(job + BLEND_THRESHOLD);
  sampleLayers();
  memory.fill(outCounts, 0, n);
  if (weighted) blendWeighted(job, n, out, outCounts, slerp, tau);
  else blendPriority(out, outCounts, slerp);
  // Undefined curves print their rest value.
  const rest = <usize>load<u32>(job + BLEND_REST);
  const fills = weighted && tau > 0;
  for (let i: usize = 0; i < n; i++) {
    if (load<u8>(outCounts + i) == 0 && !fills) copy4(rest + (i << 4), out + (i << 4));
  }
  addLayers(out, outCounts, slerp, fills);
  const model = <usize>load<u32>(job + BLEND_MODEL_JOB);
  // Every curve of the result is read: undefined ones print their rest value, and a rest-filled
  // one (count 0) may carry an additive delta.
  if (model != 0) localToModel(model, out, 0, <usize>load<u32>(job + BLEND_MATRICES));
}

/** Samples every layer that names a clip into its own buffers. */
function sampleLayers(): void {
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    const clip = <usize>load<u32>(l + LAYER_CLIP);
    if (clip == 0) continue;
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

function blendPriority(out: usize, outCounts: usize, slerp: bool): void {
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE) continue;
    const samples = <usize>load<u32>(l + LAYER_SAMPLES);
    const counts = <usize>load<u32>(l + LAYER_COUNTS);
    const weight = load<f32>(l + LAYER_WEIGHT);
    for (let j: usize = 0; j < linearCount; j++) {
      const i = <usize>load<u32>(linear + (j << 2));
      const c = <u32>load<u8>(counts + i);
      const m = maskAt(l, i);
      if (c == 0 || m == 0) continue;
      const o = i << 4;
      const oc = <u32>load<u8>(outCounts + i);
      if (oc == 0) copy4(samples + o, out + o);
      else lerp4(out + o, samples + o, weight * m, out + o);
      store<u8>(outCounts + i, <u8>min<u32>(oc + c, 255));
    }
    for (let j: usize = 0; j < rotationCount; j++) {
      const i = <usize>load<u32>(rotation + (j << 2));
      const c = <u32>load<u8>(counts + i);
      const m = maskAt(l, i);
      if (c == 0 || m == 0) continue;
      const o = i << 4;
      const oc = <u32>load<u8>(outCounts + i);
      if (oc == 0) copy4(samples + o, out + o);
      else if (slerp) slerpShortest(out + o, samples + o, weight * m, out + o);
      else nlerpShortest(out + o, samples + o, weight * m, out + o);
      store<u8>(outCounts + i, <u8>min<u32>(oc + c, 255));
    }
  }
}

function blendWeighted(job: usize, n: usize, out: usize, outCounts: usize, slerp: bool, tau: f32): void {
  const rest = <usize>load<u32>(job + BLEND_REST);
  const total = <usize>load<u32>(job + BLEND_WEIGHTS);
  memory.fill(out, 0, n << 4);
  memory.fill(total, 0, n << 2);
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE) continue;
    const samples = <usize>load<u32>(l + LAYER_SAMPLES);
    const counts = <usize>load<u32>(l + LAYER_COUNTS);
    const weight = load<f32>(l + LAYER_WEIGHT);
    for (let j: usize = 0; j < linearCount; j++) {
      const i = <usize>load<u32>(linear + (j << 2));
      const w = weight * maskAt(l, i);
      if (load<u8>(counts + i) == 0 || !(w > 0)) continue;
      const acc = load<f32>(total + (i << 2)) + w;
      accumulate(out + (i << 4), samples + (i << 4), w / acc, load<u8>(outCounts + i) == 0, false);
      store<f32>(total + (i << 2), acc);
      store<u8>(outCounts + i, <u8>min<u32>(<u32>load<u8>(outCounts + i) + 1, 255));
    }
    for (let j: usize = 0; j < rotationCount; j++) {
      const i = <usize>load<u32>(rotation + (j << 2));
      const w = weight * maskAt(l, i);
      if (load<u8>(counts + i) == 0 || !(w > 0)) continue;
      const o = i << 4;
      const acc = load<f32>(total + (i << 2)) + w;
      if (slerp) {
        // three.js PropertyMixer.accumulate: the first sample starts the running slerp.
        if (load<u8>(outCounts + i) == 0) copy4(samples + o, out + o);
        else slerpShortest(out + o, samples + o, w / acc, out + o);
      } else {
        accumulate(out + o, samples + o, w / acc, load<u8>(outCounts + i) == 0, dotF32(out + o, samples + o) < 0);
      }
      store<f32>(total + (i << 2), acc);
      store<u8>(outCounts + i, <u8>min<u32>(<u32>load<u8>(outCounts + i) + 1, 255));
    }
  }
  // The rest pose fills up to τ.
  for (let j: usize = 0; j < linearCount; j++) {
    const i = <usize>load<u32>(linear + (j << 2));
    const o = i << 4;
    const w = load<f32>(total + (i << 2));
    const fill = max<f32>(0, tau - w);
    if (w + fill == 0) continue;
    if (fill > 0) accumulate(out + o, rest + o, fill / (w + fill), w == 0, false);
  }
  for (let j: usize = 0; j < rotationCount; j++) {
    const i = <usize>load<u32>(rotation + (j << 2));
    const o = i << 4;
    const w = load<f32>(total + (i << 2));
    const fill = max<f32>(0, tau - w);
    if (w + fill == 0) continue;
    if (slerp) {
      if (w == 0) copy4(rest + o, out + o);
      else if (fill > 0) slerpShortest(out + o, rest + o, fill / tau, out + o);
    } else {
      if (fill > 0) accumulate(out + o, rest + o, fill / (w + fill), w == 0, dotF32(out + o, rest + o) < 0);
      nlerpAligned(out + o, out + o, 0, out + o); // normalises; a zero sum becomes identity
    }
  }
}

/** Additive layers in list order on the curves the result defines (spec §4). */
function addLayers(out: usize, outCounts: usize, slerp: bool, fills: bool): void {
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) != LAYER_ADDITIVE) continue;
    const samples = <usize>load<u32>(l + LAYER_SAMPLES);
    const counts = <usize>load<u32>(l + LAYER_COUNTS);
    const ref = <usize>load<u32>(l + LAYER_REFERENCE);
    const refCounts = <usize>load<u32>(l + LAYER_REFERENCE_COUNTS);
    const weight = load<f32>(l + LAYER_WEIGHT);
    for (let j: usize = 0; j < linearCount; j++) {
      const i = <usize>load<u32>(linear + (j << 2));
      const w = weight * maskAt(l, i);
      if (load<u8>(counts + i) == 0 || load<u8>(refCounts + i) == 0 || !(w > 0)) continue;
      if (!fills && load<u8>(outCounts + i) == 0) continue;
      const o = i << 4;
      addScaled(out + o, samples + o, w);
      addScaled(out + o, ref + o, -w);
    }
    for (let j: usize = 0; j < rotationCount; j++) {
      const i = <usize>load<u32>(rotation + (j << 2));
      const w = weight * maskAt(l, i);
      if (load<u8>(counts + i) == 0 || load<u8>(refCounts + i) == 0 || !(w > 0)) continue;
      if (!fills && load<u8>(outCounts + i) == 0) continue;
      const o = i << 4;
      // Δ = ref⁻¹ ⊗ q into the second scratch slot; identity in the first.
      inverseTimes(ref + o, samples + o, SCRATCH + 16);
      store<f32>(SCRATCH, 0);
      store<f32>(SCRATCH, 0, 4);
      store<f32>(SCRATCH, 0, 8);
      store<f32>(SCRATCH, 1, 12);
      if (slerp) slerpShortest(SCRATCH, SCRATCH + 16, w, SCRATCH + 16);
      else nlerpShortest(SCRATCH, SCRATCH + 16, w, SCRATCH + 16);
      multiplyInto(out + o, SCRATCH + 16);
    }
  }
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
