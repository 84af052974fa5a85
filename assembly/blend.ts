// The blend job (spec sequencer.md §3–§4): N layers of float4 samples in one pose layout blended
// into one output in a single call; layers that name a clip are sampled first (`sampleClip`), and
// a local-to-model job, when given, composes the result's model-space matrices in the same call.
// Normal layers combine by rule `priority` (Nebula3: first active sample as is, each following one
// mixed in with its weight × mask) or `weighted` (ozz BlendingJob / three.js PropertyMixer:
// weighted mean, the rest pose filling up to τ); additive layers then add their delta against their
// reference pose (three.js makeClipAdditive) to the curves the result defines — or, for a layer
// record without an inverse table (LAYER_REFERENCE_INVERSE 0), its samples as they are: a layered
// `SampleManyJob` samples such a layer from a copy of its clip whose keys are deltas already
// (src/core/additive-deltas.ts), and the reference gives only the counts. Twin:
// `referenceBlend` (src/reference/blend.ts).
//
// Two paths: the planned one (below, `plan`) for rule `weighted` with masks of 0 and 1, and the
// general one (`blendCurves`). Every rule is per curve and a curve's layers apply in list order,
// so the general path runs layer by layer over all curves (the same order per curve, so the result is that of a curve-by-curve
// loop, aliased buffers included): each layer's fields, mask and weight are read once per call,
// the running weight W and the count of each curve live in scratch arrays (BLEND_TOTALS and the
// output counts), and one slerp slot serves a whole layer, whose weight — and the weighted rule's
// w / W, equal over the layer's curves where no mask or missing curve makes it differ — is
// prepared once.
import {
  BLEND_CURVE_COUNT, BLEND_FLAGS, BLEND_LAYER_COUNT, BLEND_LAYERS, BLEND_LINEAR, BLEND_LINEAR_COUNT, BLEND_OUT,
  BLEND_OUT_COUNTS, BLEND_REST, BLEND_ROTATION, BLEND_ROTATION_COUNT, FLAG_SLERP, BLEND_THRESHOLD, BLEND_WEIGHTED,
  BLEND_MATRICES, BLEND_MODEL_JOB, BLEND_TOTALS, LAYER_ADDITIVE, LAYER_CLIP, LAYER_COUNTS, LAYER_CURSORS, LAYER_FLAGS,
  LAYER_KIND, LAYER_MASK, LAYER_MODE, LAYER_REFERENCE, LAYER_REFERENCE_COUNTS, LAYER_REFERENCE_INVERSE, LAYER_SAMPLES, LAYER_SIZE, LAYER_TIME,
  LAYER_TIME_FACTOR, LAYER_WEIGHT, BLEND_ORDER, CLIP_COUNTS, KIND_UNITY, KIND_UNIFORM, LAYER_SLOT_RANGES, SLOT_RANGES_ALL, CLIP_SLOT_COUNT, CLIP_SLOT_OUT,
} from './layout';
import { localToModel } from './local-to-model';
import {
  copy4, lerp4, MIN_LENGTH_SQ, nlerpAligned, nlerpShortest, promoteHigh, promoteLow, SLERP_SLOT_SIZE, slerpGathered4, slerpPrepare, slerpPrepared,
  slerpShortest, slerpSoa4, transposeStore,
} from './quat';
import { sampleClip, sampleUniformRanges } from './sample-clip';

/** The additive rotation interpolates from identity to the delta: four deltas at a time, or one at DELTAS. */
const IDENTITY = memory.data<f32>([0, 0, 0, 1], 16);
const DELTAS = memory.data(64, 16);
/** The most layers the planned path takes (the key has a bit per layer). */
const PLAN_LAYERS: usize = 8;
/**
 * Slerp coefficient slots, one per layer index (the planned path's layers keep their weights
 * prepared from instance to instance; the general path uses the first), and the rest fill's.
 */
const SLOTS = memory.data(<i32>(SLERP_SLOT_SIZE * (PLAN_LAYERS + 1)), 16);
const FILL_SLOT = SLOTS + SLERP_SLOT_SIZE * PLAN_LAYERS;
/** The bits of the weight each slot holds (a NaN's until prepared): a pass checks it inline, without a call. */
const SLOT_WEIGHTS = memory.data<u32>([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff], 16);
/** The slot in use (`useSlot`) and its weight's bits. */
let slot: usize = SLOTS;
let slotWeight: usize = SLOT_WEIGHTS;

/** Slot k (< PLAN_LAYERS) for the slerps that follow. */
// @ts-ignore: decorator
@inline
function useSlot(k: usize): void {
  slot = SLOTS + k * SLERP_SLOT_SIZE;
  slotWeight = SLOT_WEIGHTS + (k << 2);
}

// The job's fields, read once per call by `blend`.
let layers: usize = 0;
let layerCount: usize = 0;
let rest: usize = 0;
let slerp = false;
let weighted = false;
let tau: f32 = 0;
/** The rest pose fills up to τ (weighted, τ > 0): every curve is defined. */
let fills = false;
let out: usize = 0;
let outCounts: usize = 0;
let totals: usize = 0;
let linear: usize = 0;
let linearCount: usize = 0;
let rotation: usize = 0;
let rotationCount: usize = 0;

/** Runs the blend job block at `job` (assembly/layout.ts, BLEND_*). */
export function blend(job: usize): void {
  prepareBlend(job);
  blendPrepared(job);
}

/**
 * What stays the same over the instances of a `sampleMany` call, done once for all of them:
 * stores the inverse of each additive layer's reference rotations (LAYER_REFERENCE_INVERSE, where
 * the record has that table), which `blendPrepared` multiplies by, and plans the curve classes (`plan`).
 */
export function prepareBlend(job: usize): void {
  readJob(job);
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) != LAYER_ADDITIVE) continue;
    const reference = <usize>load<u32>(l + LAYER_REFERENCE);
    const inverse = <usize>load<u32>(l + LAYER_REFERENCE_INVERSE);
    // Samples that are deltas already (no inverse table) need none.
    if (inverse == 0) continue;
    for (let j: usize = 0; j < rotationCount; j++) {
      const i = <usize>load<u32>(rotation + (j << 2));
      invert(reference + (i << 4), inverse + (i << 5));
    }
  }
  plan(job);
}

/** `blend` after `prepareBlend` of the same job with the same layers, masks and clips (times, weights and buffers may differ). */
export function blendPrepared(job: usize): void {
  readJob(job);
  sampleLayers();
  if (planned) blendClasses();
  else blendCurves();
  const model = <usize>load<u32>(job + BLEND_MODEL_JOB);
  // Every curve of the result is read: undefined ones print their rest value, and a rest-filled
  // one (count 0) may carry an additive delta.
  if (model != 0) localToModel(model, out, 0, <usize>load<u32>(job + BLEND_MATRICES));
}

/** The job's fields into the module's globals. */
function readJob(job: usize): void {
  layers = <usize>load<u32>(job + BLEND_LAYERS);
  layerCount = <usize>load<u32>(job + BLEND_LAYER_COUNT);
  rest = <usize>load<u32>(job + BLEND_REST);
  const flags = load<u32>(job + BLEND_FLAGS);
  slerp = (flags & FLAG_SLERP) != 0;
  weighted = (flags & BLEND_WEIGHTED) != 0;
  tau = load<f32>(job + BLEND_THRESHOLD);
  fills = weighted && tau > 0;
  out = <usize>load<u32>(job + BLEND_OUT);
  outCounts = <usize>load<u32>(job + BLEND_OUT_COUNTS);
  totals = <usize>load<u32>(job + BLEND_TOTALS);
  linear = <usize>load<u32>(job + BLEND_LINEAR);
  linearCount = <usize>load<u32>(job + BLEND_LINEAR_COUNT);
  rotation = <usize>load<u32>(job + BLEND_ROTATION);
  rotationCount = <usize>load<u32>(job + BLEND_ROTATION_COUNT);
}

/** The general path: every layer over every curve, W and the counts per curve in scratch. */
function blendCurves(): void {
  useSlot(0);
  // Counts add up in the output counts (saturating at 255 at every step, which is the sum's
  // saturation); the running weights start at 0.
  memory.fill(outCounts, 0, linearCount + rotationCount);
  memory.fill(totals, 0, (linearCount + rotationCount) << 3);
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE) continue;
    // Under `weighted` a layer of weight 0 adds nothing on any curve.
    if (weighted && !(load<f32>(l + LAYER_WEIGHT) > 0)) continue;
    normalLinear(l);
    normalRotation(l);
  }
  finishLinear();
  finishRotation();
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    if (load<u32>(l + LAYER_MODE) != LAYER_ADDITIVE || !(load<f32>(l + LAYER_WEIGHT) > 0)) continue;
    additiveLinear(l);
    additiveRotation(l);
  }
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
    // Only the slots the planned path reads, where `planRanges` listed them.
    const ranges = <usize>load<u32>(l + LAYER_SLOT_RANGES);
    if (ranges != 0 && load<u32>(ranges) != <u32>SLOT_RANGES_ALL) {
      sampleUniformRanges(
        clip,
        load<f64>(l + LAYER_TIME),
        <usize>load<u32>(l + LAYER_SAMPLES),
        <usize>load<u32>(l + LAYER_COUNTS),
        load<u32>(l + LAYER_FLAGS),
        load<f32>(l + LAYER_TIME_FACTOR),
        ranges,
      );
      continue;
    }
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

// The planned path (masks of 0 and 1 only, sample counts fixed by the clips, at most PLAN_LAYERS
// layers): under it a curve's whole blend — which layers contribute, W, every share w / W (or,
// under `priority`, each weight), the fill, the count, the additive layers — depends only on which layers are active
// on it (sample count > 0, mask 1; additive: reference count > 0 too), its class key. `plan` sorts
// the curves by key once per call (BLEND_ORDER); `blendClasses` works out each class's shares once
// per instance and runs them over the class's curves without per-curve tests or scratch: curves
// that are not rotations one at a time with the result in registers, rotations layer by layer
// or (SIMD, slerp) four at a time through all layers (`rotationGroups`). The same f32 operations in
// the same order per curve as `blendCurves`, so the same result bit for bit in the scalar build;
// the SIMD build's groups may differ within the slerp budget (`slerpSoa4`: f32 lanes of another
// grouping, halved gaps without the rounded midpoint).

const KEYS: usize = 1 << PLAN_LAYERS;
/** Per key: its curves that are not rotations, and its rotations (counted, then the next slot in BLEND_ORDER). */
const KEY_LINEAR = memory.data(<i32>(KEYS << 2), 16);
const KEY_ROTATION = memory.data(<i32>(KEYS << 2), 16);
/** Per class (a key that has curves): the key, and its ranges of BLEND_ORDER [start, end), u32 each. */
const CLASS_KEY = memory.data(<i32>(KEYS << 2), 16);
const CLASS_LINEAR = memory.data(<i32>(KEYS << 3), 16);
const CLASS_ROTATION = memory.data(<i32>(KEYS << 3), 16);
/** A class's normal contributions in order: samples (u32) and share t (f32x4 splat); its additive ones: samples, inverses, references (u32) and w (f32). */
const OP_SAMPLES = memory.data(<i32>(PLAN_LAYERS << 2), 16);
const OP_SHARE = memory.data(<i32>(PLAN_LAYERS << 4), 16);
const ADD_SAMPLES = memory.data(<i32>(PLAN_LAYERS << 2), 16);
const ADD_INVERSE = memory.data(<i32>(PLAN_LAYERS << 2), 16);
const ADD_REFERENCE = memory.data(<i32>(PLAN_LAYERS << 2), 16);
const ADD_WEIGHT = memory.data(<i32>(PLAN_LAYERS << 2), 16);
/** The layer index of each normal and each additive contribution (its slerp slot). */
const OP_LAYER = memory.data(<i32>(PLAN_LAYERS << 2), 16);
/** Each normal contribution's sample counts (rule `priority` adds them up). */
const OP_COUNTS = memory.data(<i32>(PLAN_LAYERS << 2), 16);
const ADD_LAYER = memory.data(<i32>(PLAN_LAYERS << 2), 16);
let planned = false;
let classCount: usize = 0;
let order: usize = 0;

/** Plans the classes of the job read by `readJob` when the planned path applies (`planned`). */
function plan(job: usize): void {
  planned = false;
  for (let k: usize = 0; k < layerCount; k++) {
    const ranges = <usize>load<u32>(layers + k * LAYER_SIZE + LAYER_SLOT_RANGES);
    if (ranges != 0) store<u32>(ranges, <u32>SLOT_RANGES_ALL);
  }
  if (layerCount > PLAN_LAYERS) return;
  const n = <usize>load<u32>(job + BLEND_CURVE_COUNT);
  // Each curve's key as a byte, in the W scratch (the planned path has no other use for it).
  const keys = totals;
  memory.fill(keys, 0, n);
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    const clip = <usize>load<u32>(l + LAYER_CLIP);
    // A Unity-curve clip writes counts per time; a header kind copies its CLIP_COUNTS.
    if (clip != 0 && load<u32>(l + LAYER_KIND) == KIND_UNITY) return;
    const counts = clip != 0 ? <usize>load<u32>(clip + CLIP_COUNTS) : <usize>load<u32>(l + LAYER_COUNTS);
    const references = load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE ? <usize>load<u32>(l + LAYER_REFERENCE_COUNTS) : 0;
    if (!markLayer(keys, n, <u8>(<u32>1 << <u32>k), counts, <usize>load<u32>(l + LAYER_MASK), references)) return;
  }
  order = <usize>load<u32>(job + BLEND_ORDER);
  const keyCount: usize = 1 << layerCount;
  memory.fill(KEY_LINEAR, 0, keyCount << 2);
  memory.fill(KEY_ROTATION, 0, keyCount << 2);
  countByKey(linear, linearCount, keys, KEY_LINEAR);
  countByKey(rotation, rotationCount, keys, KEY_ROTATION);
  // Classes in key order; each key's count becomes the next free place of its curves.
  let linearAt: u32 = 0;
  let rotationAt = <u32>linearCount;
  classCount = 0;
  for (let key: usize = 0; key < keyCount; key++) {
    const l = load<u32>(KEY_LINEAR + (key << 2));
    const r = load<u32>(KEY_ROTATION + (key << 2));
    if (l + r == 0) continue;
    store<u32>(CLASS_KEY + (classCount << 2), <u32>key);
    store<u32>(CLASS_LINEAR + (classCount << 3), linearAt);
    store<u32>(CLASS_LINEAR + (classCount << 3), linearAt + l, 4);
    store<u32>(CLASS_ROTATION + (classCount << 3), rotationAt);
    store<u32>(CLASS_ROTATION + (classCount << 3), rotationAt + r, 4);
    store<u32>(KEY_LINEAR + (key << 2), linearAt);
    store<u32>(KEY_ROTATION + (key << 2), rotationAt);
    linearAt += l;
    rotationAt += r;
    classCount++;
  }
  scatterByKey(linear, linearCount, keys, KEY_LINEAR);
  scatterByKey(rotation, rotationCount, keys, KEY_ROTATION);
  planned = true;
  planRanges(keys);
}

/**
 * For each layer record with a LAYER_SLOT_RANGES table and a uniform clip: the runs of the clip's
 * slots whose curves the plan reads (their key has the layer's bit; a mask of 0 leaves the rest
 * out), so that `sampleLayers` samples only those. Tables stay SLOT_RANGES_ALL otherwise.
 */
function planRanges(keys: usize): void {
  for (let k: usize = 0; k < layerCount; k++) {
    const l = layers + k * LAYER_SIZE;
    const table = <usize>load<u32>(l + LAYER_SLOT_RANGES);
    const clip = <usize>load<u32>(l + LAYER_CLIP);
    if (table == 0 || clip == 0 || load<u32>(l + LAYER_KIND) != KIND_UNIFORM) continue;
    const bit = <u8>(<u32>1 << <u32>k);
    const slots = load<u32>(clip + CLIP_SLOT_COUNT);
    const slotOut = <usize>load<u32>(clip + CLIP_SLOT_OUT);
    let count: usize = 0;
    let open = false;
    for (let j: u32 = 0; j < slots; j++) {
      const read = (load<u8>(keys + (<usize>load<u32>(slotOut + (<usize>j << 2)) >> 4)) & bit) != 0;
      if (read == open) continue;
      // A run starts (from) or ends (to).
      store<u32>(table + (count << 3) + (open ? 8 : 4), j);
      if (open) count++;
      open = read;
    }
    if (open) store<u32>(table + ((count++) << 3) + 8, slots);
    store<u32>(table, <u32>count);
  }
}

/** Counts the curves of `list` (u32 indices) per class key (`keys`: u8 per curve) into `table` (u32 per key). */
// @ts-ignore: decorator
@inline
function countByKey(list: usize, count: usize, keys: usize, table: usize): void {
  for (let j: usize = 0; j < count; j++) {
    const at = table + (<usize>load<u8>(keys + <usize>load<u32>(list + (j << 2))) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
}

/** Places the curves of `list` in BLEND_ORDER at their key's next free place (`table`, u32 per key, advanced). */
// @ts-ignore: decorator
@inline
function scatterByKey(list: usize, count: usize, keys: usize, table: usize): void {
  for (let j: usize = 0; j < count; j++) {
    const i = load<u32>(list + (j << 2));
    const at = table + (<usize>load<u8>(keys + <usize>i) << 2);
    const place = load<u32>(at);
    store<u32>(order + (<usize>place << 2), i);
    store<u32>(at, place + 1);
  }
}

/**
 * Sets `bit` in the key of each of the n curves where the layer is active (spec §3–§4, weights
 * aside): its sample count > 0, its mask (if any) 1 and, additive, its reference count > 0.
 * Returns false when the mask holds a weight other than 0 and 1 (then the keys are unfinished).
 * SIMD: sixteen curves at a time, without branches.
 */
function markLayer(keys: usize, n: usize, bit: u8, counts: usize, mask: usize, references: usize): bool {
  let i: usize = 0;
  if (ASC_FEATURE_SIMD) {
    const zero = i8x16.splat(0);
    const one = f32x4.splat(1);
    const bits = i8x16.splat(bit);
    let bad = zero;
    for (; i + 16 <= n; i += 16) {
      let on = i8x16.ne(v128.load(counts + i), zero);
      if (references != 0) on = v128.and(on, i8x16.ne(v128.load(references + i), zero));
      if (mask != 0) {
        const m = mask + (i << 2);
        const m0 = v128.load(m), m1 = v128.load(m, 16), m2 = v128.load(m, 32), m3 = v128.load(m, 48);
        const e0 = f32x4.eq(m0, one), e1 = f32x4.eq(m1, one), e2 = f32x4.eq(m2, one), e3 = f32x4.eq(m3, one);
        // Neither 0 nor 1 (NaN included).
        bad = v128.or(bad, v128.or(v128.or(v128.andnot(f32x4.ne(m0, zero), e0), v128.andnot(f32x4.ne(m1, zero), e1)), v128.or(v128.andnot(f32x4.ne(m2, zero), e2), v128.andnot(f32x4.ne(m3, zero), e3))));
        on = v128.and(on, i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(e0, e1), i16x8.narrow_i32x4_s(e2, e3)));
      }
      v128.store(keys + i, v128.or(v128.load(keys + i), v128.and(on, bits)));
    }
    if (v128.any_true(bad)) return false;
  }
  for (; i < n; i++) {
    const m = maskAt(mask, i);
    if (m != 0 && m != 1) return false;
    if (load<u8>(counts + i) == 0 || m == 0 || (references != 0 && load<u8>(references + i) == 0)) continue;
    store<u8>(keys + i, load<u8>(keys + i) | bit);
  }
  return true;
}

/** The planned path for one instance: each class's contributions from the layers' weights, then its curves. */
function blendClasses(): void {
  for (let c: usize = 0; c < classCount; c++) {
    const key = <usize>load<u32>(CLASS_KEY + (c << 2));
    // Normal layers: `weighted`, W and the shares w / W as `normalLinear` sums them curve by
    // curve; `priority`, each layer's own weight (a first layer is copied whatever its weight).
    let ops: usize = 0;
    // W in f64: a sum of weights up to 3.4e38 each stays finite, and each share w / W is rounded once.
    let total: f64 = 0;
    for (let k: usize = 0; k < layerCount; k++) {
      const l = layers + k * LAYER_SIZE;
      const w = load<f32>(l + LAYER_WEIGHT);
      if ((key & (1 << k)) == 0 || load<u32>(l + LAYER_MODE) == LAYER_ADDITIVE || (weighted && !(w > 0))) continue;
      store<u32>(OP_SAMPLES + (ops << 2), load<u32>(l + LAYER_SAMPLES));
      store<u32>(OP_LAYER + (ops << 2), <u32>k);
      store<u32>(OP_COUNTS + (ops << 2), load<u32>(l + LAYER_COUNTS));
      let t = w;
      if (weighted) {
        total += <f64>w;
        t = <f32>(<f64>w / total);
      }
      if (ASC_FEATURE_SIMD) v128.store(OP_SHARE + (ops << 4), f32x4.splat(t));
      else store<f32>(OP_SHARE + (ops << 4), t);
      ops++;
    }
    // Additive layers add to defined curves only.
    let adds: usize = 0;
    if (fills || ops > 0) {
      for (let k: usize = 0; k < layerCount; k++) {
        const l = layers + k * LAYER_SIZE;
        const w = load<f32>(l + LAYER_WEIGHT);
        if ((key & (1 << k)) == 0 || load<u32>(l + LAYER_MODE) != LAYER_ADDITIVE || !(w > 0)) continue;
        store<u32>(ADD_SAMPLES + (adds << 2), load<u32>(l + LAYER_SAMPLES));
        store<u32>(ADD_INVERSE + (adds << 2), load<u32>(l + LAYER_REFERENCE_INVERSE));
        // Samples that are deltas already (no inverse table): nothing to take away.
        store<u32>(ADD_REFERENCE + (adds << 2), load<u32>(l + LAYER_REFERENCE_INVERSE) != 0 ? load<u32>(l + LAYER_REFERENCE) : 0);
        store<f32>(ADD_WEIGHT + (adds << 2), w);
        store<u32>(ADD_LAYER + (adds << 2), <u32>k);
        adds++;
      }
    }
    const fill = fills ? fillWeight(total) : 0;
    const c8 = c << 3;
    classLinear(order + (<usize>load<u32>(CLASS_LINEAR + c8) << 2), order + (<usize>load<u32>(CLASS_LINEAR + c8, 4) << 2), ops, adds, total, fill);
    classRotation(order + (<usize>load<u32>(CLASS_ROTATION + c8) << 2), order + (<usize>load<u32>(CLASS_ROTATION + c8, 4) << 2), ops, adds, total, fill);
  }
}

/** Curve i's count from `ops` contributions: `weighted`, one each; `priority`, their sample counts added (at most 255). */
// @ts-ignore: decorator
@inline
function countOf(i: usize, ops: usize): u8 {
  if (weighted) return <u8>ops;
  let sum: u32 = 0;
  for (let k: usize = 0; k < ops; k++) sum += <u32>load<u8>(<usize>load<u32>(OP_COUNTS + (k << 2)) + i);
  return <u8>min<u32>(sum, 255);
}

/**
 * The class's curves that are not rotations, the entries [from, to) of BLEND_ORDER: as
 * `normalLinear`, `finishLinear` and `additiveLinear` do per curve.
 */
function classLinear(from: usize, to: usize, ops: usize, adds: usize, total: f64, fill: f64): void {
  const fillShare = <f32>(fill / (total + fill));
  if (ASC_FEATURE_SIMD && ops >= 1 && ops <= 3 && adds <= 1) {
    classLinearFew(from, to, ops, adds, fill > 0, fillShare);
    return;
  }
  for (let at = from; at < to; at += 4) {
    const i = <usize>load<u32>(at);
    const o = i << 4;
    const dst = out + o;
    store<u8>(outCounts + i, countOf(i, ops));
    if (ASC_FEATURE_SIMD) {
      // The running mean in a register: (v − mean) · t added, as `accumulate`.
      let acc: v128;
      if (ops == 0) {
        acc = v128.load(rest + o);
      } else {
        acc = v128.load(<usize>load<u32>(OP_SAMPLES) + o);
        for (let k: usize = 1; k < ops; k++) {
          acc = f32x4.add(acc, f32x4.mul(f32x4.sub(v128.load(<usize>load<u32>(OP_SAMPLES + (k << 2)) + o), acc), v128.load(OP_SHARE + (k << 4))));
        }
        if (fill > 0) acc = f32x4.add(acc, f32x4.mul(f32x4.sub(v128.load(rest + o), acc), f32x4.splat(fillShare)));
      }
      for (let k: usize = 0; k < adds; k++) {
        let d = v128.load(<usize>load<u32>(ADD_SAMPLES + (k << 2)) + o);
        const reference = <usize>load<u32>(ADD_REFERENCE + (k << 2));
        if (reference != 0) d = f32x4.sub(d, v128.load(reference + o));
        acc = f32x4.add(acc, f32x4.mul(d, f32x4.splat(load<f32>(ADD_WEIGHT + (k << 2)))));
      }
      v128.store(dst, acc);
    } else {
      if (ops == 0) {
        copy4(rest + o, dst);
      } else {
        copy4(<usize>load<u32>(OP_SAMPLES) + o, dst);
        for (let k: usize = 1; k < ops; k++) accumulate(dst, <usize>load<u32>(OP_SAMPLES + (k << 2)) + o, load<f32>(OP_SHARE + (k << 4)), false, false);
        if (fill > 0) accumulate(dst, rest + o, fillShare, false, false);
      }
      for (let k: usize = 0; k < adds; k++) {
        addDelta(dst, <usize>load<u32>(ADD_SAMPLES + (k << 2)) + o, <usize>load<u32>(ADD_REFERENCE + (k << 2)), o, load<f32>(ADD_WEIGHT + (k << 2)));
      }
    }
  }
}

/**
 * SIMD: `classLinear` for the usual class — one to three normal contributions, at most one
 * additive — with their buffers, shares and weights in locals for the whole class (the generic
 * loop reloads them from the contribution tables at every curve, since it stores between). The
 * same operations in the same order.
 */
function classLinearFew(from: usize, to: usize, ops: usize, adds: usize, hasFill: bool, fillShare: f32): void {
  const s0 = <usize>load<u32>(OP_SAMPLES);
  const s1 = ops > 1 ? <usize>load<u32>(OP_SAMPLES, 4) : 0;
  const s2 = ops > 2 ? <usize>load<u32>(OP_SAMPLES, 8) : 0;
  const t1 = v128.load(OP_SHARE, 16);
  const t2 = v128.load(OP_SHARE, 32);
  const f = f32x4.splat(fillShare);
  const as = adds != 0 ? <usize>load<u32>(ADD_SAMPLES) : 0;
  const ar = adds != 0 ? <usize>load<u32>(ADD_REFERENCE) : 0;
  const wp = f32x4.splat(load<f32>(ADD_WEIGHT));
  for (let at = from; at < to; at += 4) {
    const i = <usize>load<u32>(at);
    const o = i << 4;
    store<u8>(outCounts + i, countOf(i, ops));
    let acc = v128.load(s0 + o);
    if (s1 != 0) acc = f32x4.add(acc, f32x4.mul(f32x4.sub(v128.load(s1 + o), acc), t1));
    if (s2 != 0) acc = f32x4.add(acc, f32x4.mul(f32x4.sub(v128.load(s2 + o), acc), t2));
    if (hasFill) acc = f32x4.add(acc, f32x4.mul(f32x4.sub(v128.load(rest + o), acc), f));
    if (as != 0) {
      let d = v128.load(as + o);
      if (ar != 0) d = f32x4.sub(d, v128.load(ar + o));
      acc = f32x4.add(acc, f32x4.mul(d, wp));
    }
    v128.store(out + o, acc);
  }
}

/**
 * The class's rotations, the entries [from, to) of BLEND_ORDER: as `normalRotationAt`,
 * `finishRotation` and `additiveRotationAt` do per curve. SIMD, slerp: four at a time through all
 * the class's layers (`rotationGroups`), the rest layer by layer over the class.
 */
function classRotation(from: usize, to: usize, ops: usize, adds: usize, total: f64, fill: f64): void {
  if (from == to) return;
  if (ops == 0) {
    // Undefined, or the rest alone fills (nlerp normalises it).
    for (let at = from; at < to; at += 4) {
      const i = <usize>load<u32>(at);
      const o = i << 4;
      store<u8>(outCounts + i, 0);
      if (fills && !slerp) {
        copy4(rest + o, out + o);
        normalizeAt(out + o);
      } else {
        copy4(rest + o, out + o);
      }
    }
  } else {
    if (ASC_FEATURE_SIMD && slerp && groupsApply(ops, adds)) {
      from = rotationGroups(from, to, ops, adds, weighted ? <f32>(fill / <f64>tau) : 0);
      if (from == to) return;
    }
    const first = <usize>load<u32>(OP_SAMPLES);
    for (let at = from; at < to; at += 4) {
      const i = <usize>load<u32>(at);
      store<u8>(outCounts + i, countOf(i, ops));
      copy4(first + (i << 4), out + (i << 4));
    }
    for (let k: usize = 1; k < ops; k++) {
      const v = <usize>load<u32>(OP_SAMPLES + (k << 2));
      const t = load<f32>(OP_SHARE + (k << 4));
      useSlot(<usize>load<u32>(OP_LAYER + (k << 2)));
      let at = from;
      if (slerp) {
        // (`priority`: a weight beyond [0, 1] extrapolates, by the exact formula, one at a time.)
        if (ASC_FEATURE_SIMD && t > 0 && t <= 1) {
          for (; at + 16 <= to; at += 16) {
            const i0 = <usize>load<u32>(at) << 4, i1 = <usize>load<u32>(at, 4) << 4, i2 = <usize>load<u32>(at, 8) << 4, i3 = <usize>load<u32>(at, 12) << 4;
            slerpGroup(out + i0, out + i1, out + i2, out + i3, v + i0, v + i1, v + i2, v + i3, out + i0, out + i1, out + i2, out + i3, t);
          }
        }
        for (; at < to; at += 4) {
          const o = <usize>load<u32>(at) << 4;
          slerpSlot(out + o, v + o, t, out + o);
        }
      } else if (!weighted) {
        for (; at < to; at += 4) {
          const o = <usize>load<u32>(at) << 4;
          nlerpWeight(out + o, v + o, t, out + o);
        }
      } else {
        for (; at < to; at += 4) {
          const o = <usize>load<u32>(at) << 4;
          accumulate(out + o, v + o, t, false, dotF32(out + o, v + o) < 0);
        }
      }
    }
    if (weighted && (fill > 0 || !slerp)) {
      const fillShare = <f32>(slerp ? fill / <f64>tau : fill / (total + fill));
      for (let at = from; at < to; at += 4) {
        const o = <usize>load<u32>(at) << 4;
        const dst = out + o;
        if (slerp) {
          slerpShortest(FILL_SLOT, dst, rest + o, fillShare, dst);
        } else {
          if (fill > 0) accumulate(dst, rest + o, fillShare, false, dotF32(dst, rest + o) < 0);
          normalizeAt(dst);
        }
      }
    }
  }
  for (let k: usize = 0; k < adds; k++) {
    const samples = <usize>load<u32>(ADD_SAMPLES + (k << 2));
    const inverse = <usize>load<u32>(ADD_INVERSE + (k << 2));
    const w = load<f32>(ADD_WEIGHT + (k << 2));
    useSlot(<usize>load<u32>(ADD_LAYER + (k << 2)));
    let at = from;
    if (ASC_FEATURE_SIMD && slerp && w <= 1) {
      for (; at + 16 <= to; at += 16) {
        additiveGroup(<usize>load<u32>(at), <usize>load<u32>(at, 4), <usize>load<u32>(at, 8), <usize>load<u32>(at, 12), samples, inverse, w);
      }
    }
    for (; at < to; at += 4) addRotation(<usize>load<u32>(at), samples, inverse, w);
  }
}

// SIMD, slerp: a class's rotations four at a time through every layer (`rotationGroups`): the
// four results stay in structure of arrays (GROUPS) from the first layer's samples through each
// normal layer's slerp, the rest fill and each additive layer's delta, and are stored once —
// instead of a pass over the class per layer, each re-reading and re-storing the results and
// slerping lane by lane where a gap is not small. Up to CHUNK_GROUPS groups go step by step
// together (a layer's slerps over the chunk, then the next layer's): the steps of one group depend
// on each other, the groups of one step do not, so the processor overlaps their slerps. The same
// operations per curve, rounded to f32 at the same steps (`slerpSoa4`).

/** Groups a pass takes at a time (`rotationGroups`). */
const CHUNK_GROUPS: usize = 16;
/** The running results of a chunk's groups, four rotations each as structure of arrays (64 bytes a group), and an operand. */
const GROUPS = memory.data(<i32>(CHUNK_GROUPS << 6), 16);
const OPERAND = memory.data(64, 16);
/** Four identities as structure of arrays: where an additive delta's slerp starts. */
const IDENTITY_SOA = memory.data<f32>([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1], 16);

/** Whether `rotationGroups` takes the class: every share (or `priority` weight) and additive weight in [0, 1], the polynomial's range. */
// @ts-ignore: decorator
@inline
function groupsApply(ops: usize, adds: usize): bool {
  for (let k: usize = 1; k < ops; k++) {
    const t = load<f32>(OP_SHARE + (k << 4));
    if (!(t >= 0 && t <= 1)) return false;
  }
  for (let k: usize = 0; k < adds; k++) {
    if (!(load<f32>(ADD_WEIGHT + (k << 2)) <= 1)) return false;
  }
  return true;
}

/**
 * SIMD, slerp: the class's rotations [from, to) of BLEND_ORDER in groups of four, each through the
 * `ops` normal contributions, the rest fill (`fillShare` > 0: slerp towards the rest by it) and
 * the `adds` additive ones. Returns where the groups end (fewer than four rotations left).
 */
function rotationGroups(from: usize, to: usize, ops: usize, adds: usize, fillShare: f32): usize {
  const first = <usize>load<u32>(OP_SAMPLES);
  if (fillShare > 0) slerpPrepare(FILL_SLOT, fillShare);
  let at = from;
  // A chunk of groups step by step (each layer's slerps over the chunk, then the next layer's):
  // one group's steps depend on each other, the groups of a step do not, so their slerps overlap.
  while (at + 16 <= to) {
    const end = at + (min<usize>(CHUNK_GROUPS, (to - at) >> 4) << 4);
    for (let g = at, d = GROUPS; g < end; g += 16, d += 64) {
      const i0 = <usize>load<u32>(g), i1 = <usize>load<u32>(g, 4), i2 = <usize>load<u32>(g, 8), i3 = <usize>load<u32>(g, 12);
      store<u8>(outCounts + i0, countOf(i0, ops));
      store<u8>(outCounts + i1, countOf(i1, ops));
      store<u8>(outCounts + i2, countOf(i2, ops));
      store<u8>(outCounts + i3, countOf(i3, ops));
      gather(first, i0 << 4, i1 << 4, i2 << 4, i3 << 4, d);
    }
    for (let k: usize = 1; k < ops; k++) {
      const samples = <usize>load<u32>(OP_SAMPLES + (k << 2));
      useSlot(<usize>load<u32>(OP_LAYER + (k << 2)));
      prepareSlot(load<f32>(OP_SHARE + (k << 4)));
      for (let g = at, d = GROUPS; g < end; g += 16, d += 64) {
        gatherAt(samples, g, OPERAND);
        slerpSoa4(slot, d, OPERAND, d);
      }
    }
    if (fillShare > 0) {
      for (let g = at, d = GROUPS; g < end; g += 16, d += 64) {
        gatherAt(rest, g, OPERAND);
        slerpSoa4(FILL_SLOT, d, OPERAND, d);
      }
    }
    for (let k: usize = 0; k < adds; k++) {
      // Δ = reference⁻¹ ⊗ sample (the sample itself where it is a delta already: no inverse table),
      // slerped from identity by w, then result ⊗ that (`addRotation`).
      const inverse = <usize>load<u32>(ADD_INVERSE + (k << 2));
      const samples = <usize>load<u32>(ADD_SAMPLES + (k << 2));
      useSlot(<usize>load<u32>(ADD_LAYER + (k << 2)));
      prepareSlot(load<f32>(ADD_WEIGHT + (k << 2)));
      for (let g = at, d = GROUPS; g < end; g += 16, d += 64) {
        if (inverse == 0) gatherAt(samples, g, OPERAND);
        else deltaGroup(inverse, samples, <usize>load<u32>(g) << 4, <usize>load<u32>(g, 4) << 4, <usize>load<u32>(g, 8) << 4, <usize>load<u32>(g, 12) << 4);
        slerpSoa4(slot, IDENTITY_SOA, OPERAND, OPERAND);
        multiplyGroup(d);
      }
    }
    for (let g = at, d = GROUPS; g < end; g += 16, d += 64) {
      const o0 = <usize>load<u32>(g) << 4, o1 = <usize>load<u32>(g, 4) << 4, o2 = <usize>load<u32>(g, 8) << 4, o3 = <usize>load<u32>(g, 12) << 4;
      transposeStore(v128.load(d), v128.load(d, 16), v128.load(d, 32), v128.load(d, 48), out + o0, out + o1, out + o2, out + o3);
    }
    at = end;
  }
  return at;
}

/** SIMD: `gather` of the four rotations whose indices (u32) are at `indices`. */
// @ts-ignore: decorator
@inline
function gatherAt(src: usize, indices: usize, dst: usize): void {
  gather(src, <usize>load<u32>(indices) << 4, <usize>load<u32>(indices, 4) << 4, <usize>load<u32>(indices, 8) << 4, <usize>load<u32>(indices, 12) << 4, dst);
}

/** SIMD: the float4s at src + o0 … src + o3 into `dst` as structure of arrays. */
// @ts-ignore: decorator
@inline
function gather(src: usize, o0: usize, o1: usize, o2: usize, o3: usize, dst: usize): void {
  transposeStore(v128.load(src + o0), v128.load(src + o1), v128.load(src + o2), v128.load(src + o3), dst, dst + 16, dst + 32, dst + 48);
}

/** SIMD: OPERAND = the four deltas reference⁻¹ ⊗ sample (`inverseTimes`) of the rotations at o0 … o3 (byte offsets of float4s). */
function deltaGroup(inverse: usize, samples: usize, o0: usize, o1: usize, o2: usize, o3: usize): void {
  gather(samples, o0, o1, o2, o3, OPERAND);
  const bx = v128.load(OPERAND), by = v128.load(OPERAND, 16), bz = v128.load(OPERAND, 32), bw = v128.load(OPERAND, 48);
  // The inverses are f64 float4s, 32 bytes per curve.
  const p0 = inverse + (o0 << 1), p1 = inverse + (o1 << 1), p2 = inverse + (o2 << 1), p3 = inverse + (o3 << 1);
  let l = v128.load(p0), m = v128.load(p1), h = v128.load(p0, 16), n = v128.load(p1, 16);
  productPair(
    v128.shuffle<f64>(l, m, 0, 2), v128.shuffle<f64>(l, m, 1, 3), v128.shuffle<f64>(h, n, 0, 2), v128.shuffle<f64>(h, n, 1, 3),
    promoteLow(bx), promoteLow(by), promoteLow(bz), promoteLow(bw), OPERAND, true,
  );
  l = v128.load(p2);
  m = v128.load(p3);
  h = v128.load(p2, 16);
  n = v128.load(p3, 16);
  productPair(
    v128.shuffle<f64>(l, m, 0, 2), v128.shuffle<f64>(l, m, 1, 3), v128.shuffle<f64>(h, n, 0, 2), v128.shuffle<f64>(h, n, 1, 3),
    promoteHigh(bx), promoteHigh(by), promoteHigh(bz), promoteHigh(bw), OPERAND + 8, true,
  );
}

/** SIMD: group = group ⊗ OPERAND, four Hamilton products (`multiplyInto`). */
function multiplyGroup(group: usize): void {
  const ax = v128.load(group), ay = v128.load(group, 16), az = v128.load(group, 32), aw = v128.load(group, 48);
  const bx = v128.load(OPERAND), by = v128.load(OPERAND, 16), bz = v128.load(OPERAND, 32), bw = v128.load(OPERAND, 48);
  productPair(promoteLow(ax), promoteLow(ay), promoteLow(az), promoteLow(aw), promoteLow(bx), promoteLow(by), promoteLow(bz), promoteLow(bw), group, false);
  productPair(promoteHigh(ax), promoteHigh(ay), promoteHigh(az), promoteHigh(aw), promoteHigh(bx), promoteHigh(by), promoteHigh(bz), promoteHigh(bw), group + 8, false);
}

/**
 * SIMD: two Hamilton products a ⊗ b, components as f64x2, stored as f32 pairs at out, out + 16,
 * out + 32, out + 48 (structure of arrays), with `unit` as `inverseTimes` stores each: the scalar
 * build's sums in its order, so the same bits.
 */
// @ts-ignore: decorator
@inline
function productPair(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128, out: usize, unit: bool): void {
  let x = f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(ax, bw), f64x2.mul(aw, bx)), f64x2.mul(ay, bz)), f64x2.mul(az, by));
  let y = f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(ay, bw), f64x2.mul(aw, by)), f64x2.mul(az, bx)), f64x2.mul(ax, bz));
  let z = f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(az, bw), f64x2.mul(aw, bz)), f64x2.mul(ax, by)), f64x2.mul(ay, bx));
  let w = f64x2.sub(f64x2.sub(f64x2.sub(f64x2.mul(aw, bw), f64x2.mul(ax, bx)), f64x2.mul(ay, by)), f64x2.mul(az, bz));
  if (unit) {
    // `inverseTimes` per lane: lanes far from unit length normalised, a zero one identity.
    const n = f64x2.add(f64x2.add(f64x2.mul(x, x), f64x2.mul(z, z)), f64x2.add(f64x2.mul(y, y), f64x2.mul(w, w)));
    const far = v128.not(v128.and(f64x2.ge(n, f64x2.splat(DELTA_MIN_SQ)), f64x2.le(n, f64x2.splat(DELTA_MAX_SQ))));
    if (v128.any_true(far)) {
      const zero = f64x2.lt(n, f64x2.splat(<f64>MIN_LENGTH_SQ));
      const len = v128.bitselect(f64x2.sqrt(n), f64x2.splat(1), far);
      x = v128.andnot(f64x2.div(x, len), zero);
      y = v128.andnot(f64x2.div(y, len), zero);
      z = v128.andnot(f64x2.div(z, len), zero);
      w = v128.bitselect(f64x2.splat(1), f64x2.div(w, len), zero);
    }
  }
  v128.store64_lane(out, f32x4.demote_f64x2_zero(x), 0);
  v128.store64_lane(out, f32x4.demote_f64x2_zero(y), 0, 16);
  v128.store64_lane(out, f32x4.demote_f64x2_zero(z), 0, 32);
  v128.store64_lane(out, f32x4.demote_f64x2_zero(w), 0, 48);
}

/** The mask weight at curve i of a layer's `mask` (0: none, weight 1). */
// @ts-ignore: decorator
@inline
function maskAt(mask: usize, i: usize): f32 {
  return mask == 0 ? 1 : load<f32>(mask + (i << 2));
}

/** Adds sample count c to curve i's count, saturating at 255. Returns the count before. */
// @ts-ignore: decorator
@inline
function addCount(i: usize, c: u32): u32 {
  const before = <u32>load<u8>(outCounts + i);
  store<u8>(outCounts + i, <u8>min<u32>(before + c, 255));
  return before;
}

// The fields of the layer a pass applies (`useLayer`), and the weighted rule's share
// w / W with the w and W it was divided from.
let layerSamples: usize = 0;
let layerCounts: usize = 0;
let layerMask: usize = 0;
let layerWeight: f32 = 0;
let lastW: f32 = NaN;
let lastTotal: f64 = NaN;
let share: f32 = 0;

// @ts-ignore: decorator
@inline
function useLayer(l: usize): void {
  layerSamples = <usize>load<u32>(l + LAYER_SAMPLES);
  layerCounts = <usize>load<u32>(l + LAYER_COUNTS);
  layerMask = <usize>load<u32>(l + LAYER_MASK);
  layerWeight = load<f32>(l + LAYER_WEIGHT);
  lastW = NaN;
  lastTotal = NaN;
}

/** w / W, divided again only when w or W changes (it repeats over a layer's curves). */
// @ts-ignore: decorator
@inline
function shareOf(w: f32, total: f64): f32 {
  if (w != lastW || total != lastTotal) {
    lastW = w;
    lastTotal = total;
    share = <f32>(<f64>w / total);
  }
  return share;
}

/** Normal layer record `l` on the curves that are not rotations. */
function normalLinear(l: usize): void {
  useLayer(l);
  for (let j: usize = 0; j < linearCount; j++) {
    const i = <usize>load<u32>(linear + (j << 2));
    const c = <u32>load<u8>(layerCounts + i);
    const m = maskAt(layerMask, i);
    const o = i << 4;
    const dst = out + o;
    const v = layerSamples + o;
    if (weighted) {
      const w = layerWeight * m;
      if (c == 0 || !(w > 0)) continue;
      const total = load<f64>(totals + (i << 3)) + <f64>w;
      store<f64>(totals + (i << 3), total);
      accumulate(dst, v, shareOf(w, total), addCount(i, 1) == 0, false);
    } else {
      if (c == 0 || m == 0) continue;
      if (addCount(i, c) == 0) copy4(v, dst);
      else lerp4(dst, v, layerWeight * m, dst);
    }
  }
}

/**
 * Normal layer record `l` on the rotations: slerp or nlerp along the shortest arc. SIMD, slerp:
 * four rotations at a time (`slerpGathered4`) where the four blend with one weight into results
 * they already hold, one at a time elsewhere.
 */
function normalRotation(l: usize): void {
  useLayer(l);
  let j: usize = 0;
  if (ASC_FEATURE_SIMD && slerp) {
    for (; j + 4 <= rotationCount; j += 4) {
      const r = rotation + (j << 2);
      const i0 = <usize>load<u32>(r), i1 = <usize>load<u32>(r, 4), i2 = <usize>load<u32>(r, 8), i3 = <usize>load<u32>(r, 12);
      const w = groupWeight(i0, i1, i2, i3);
      if (w > 0) {
        const d0 = out + (i0 << 4), d1 = out + (i1 << 4), d2 = out + (i2 << 4), d3 = out + (i3 << 4);
        slerpGroup(d0, d1, d2, d3, layerSamples + (i0 << 4), layerSamples + (i1 << 4), layerSamples + (i2 << 4), layerSamples + (i3 << 4), d0, d1, d2, d3, w);
      } else {
        normalRotationAt(i0);
        normalRotationAt(i1);
        normalRotationAt(i2);
        normalRotationAt(i3);
      }
    }
  }
  for (; j < rotationCount; j++) normalRotationAt(<usize>load<u32>(rotation + (j << 2)));
}

/**
 * For four rotations of the pass's layer: when each has a sample, an equal mask weight, a result
 * to blend into and (weighted) an equal running weight, counts them as `normalRotationAt` does and
 * returns their slerp weight (in (0, 1]); else −1, and nothing changes.
 */
// @ts-ignore: decorator
@inline
function groupWeight(i0: usize, i1: usize, i2: usize, i3: usize): f32 {
  const m = maskAt(layerMask, i0);
  if (maskAt(layerMask, i1) != m || maskAt(layerMask, i2) != m || maskAt(layerMask, i3) != m) return -1;
  const c0 = <u32>load<u8>(layerCounts + i0), c1 = <u32>load<u8>(layerCounts + i1);
  const c2 = <u32>load<u8>(layerCounts + i2), c3 = <u32>load<u8>(layerCounts + i3);
  if (c0 == 0 || c1 == 0 || c2 == 0 || c3 == 0) return -1;
  if (load<u8>(outCounts + i0) == 0 || load<u8>(outCounts + i1) == 0 || load<u8>(outCounts + i2) == 0 || load<u8>(outCounts + i3) == 0) return -1;
  const w = layerWeight * m;
  if (weighted) {
    if (!(w > 0)) return -1;
    const before = load<f64>(totals + (i0 << 3));
    if (load<f64>(totals + (i1 << 3)) != before || load<f64>(totals + (i2 << 3)) != before || load<f64>(totals + (i3 << 3)) != before) return -1;
    const total = before + <f64>w;
    store<f64>(totals + (i0 << 3), total);
    store<f64>(totals + (i1 << 3), total);
    store<f64>(totals + (i2 << 3), total);
    store<f64>(totals + (i3 << 3), total);
    addCount(i0, 1);
    addCount(i1, 1);
    addCount(i2, 1);
    addCount(i3, 1);
    return shareOf(w, total);
  }
  // priority: a mask weight of 0 skips the curve; a weight beyond 1 extrapolates (the exact formula).
  if (!(m != 0 && w > 0 && w <= 1)) return -1;
  addCount(i0, c0);
  addCount(i1, c1);
  addCount(i2, c2);
  addCount(i3, c3);
  return w;
}

/** SIMD: d_k = slerp(a_k, b_k, w) for four rotations, w in [0, 1], in the slot in use. Out of line (the module's size). */
function slerpGroup(
  a0: usize, a1: usize, a2: usize, a3: usize, b0: usize, b1: usize, b2: usize, b3: usize, d0: usize, d1: usize, d2: usize, d3: usize, w: f32,
): void {
  prepareSlot(w);
  slerpGathered4(slot, a0, a1, a2, a3, b0, b1, b2, b3, d0, d1, d2, d3);
}

/** Rotation i of the pass's normal layer. */
function normalRotationAt(i: usize): void {
  const c = <u32>load<u8>(layerCounts + i);
  const m = maskAt(layerMask, i);
  const o = i << 4;
  const dst = out + o;
  const v = layerSamples + o;
  if (weighted) {
    const w = layerWeight * m;
    if (c == 0 || !(w > 0)) return;
    const total = load<f64>(totals + (i << 3)) + <f64>w;
    store<f64>(totals + (i << 3), total);
    const t = shareOf(w, total);
    const first = addCount(i, 1) == 0;
    // three.js PropertyMixer.accumulate: the first sample starts the running slerp.
    if (slerp) {
      if (first) copy4(v, dst);
      else slerpSlot(dst, v, t, dst);
    } else {
      accumulate(dst, v, t, first, dotF32(dst, v) < 0);
    }
  } else {
    if (c == 0 || m == 0) return;
    const w = layerWeight * m;
    if (addCount(i, c) == 0) copy4(v, dst);
    else if (slerp) slerpSlot(dst, v, w, dst);
    else nlerpWeight(dst, v, w, dst);
  }
}

/**
 * The rest fill's weight max(0, τ − W), W compared as f32, the precision weights are given in:
 * weights that add up to τ (1 − f and f) fill nothing, where their f64 sum may fall short of τ
 * by an ulp and cost a fill step per curve. W beyond f32 is +Infinity there, which fills nothing.
 */
// @ts-ignore: decorator
@inline
function fillWeight(total: f64): f64 {
  return max<f64>(0, <f64>tau - <f64><f32>total);
}

/** After the normal layers, curves that are not rotations: the rest fill, and the rest value of undefined curves. */
function finishLinear(): void {
  for (let j: usize = 0; j < linearCount; j++) {
    const i = <usize>load<u32>(linear + (j << 2));
    const dst = out + (i << 4);
    if (weighted) {
      const total = load<f64>(totals + (i << 3));
      const fill = fillWeight(total);
      if (fill > 0) accumulate(dst, rest + (i << 4), <f32>(fill / (total + fill)), total == 0, false);
    }
    undefinedRest(i);
  }
}

/** After the normal layers, rotations: as `finishLinear`; nlerp's weighted sum is normalised. */
function finishRotation(): void {
  for (let j: usize = 0; j < rotationCount; j++) {
    const i = <usize>load<u32>(rotation + (j << 2));
    const o = i << 4;
    const dst = out + o;
    if (weighted) {
      // The rest pose fills up to τ.
      const total = load<f64>(totals + (i << 3));
      const fill = fillWeight(total);
      if (total + fill != 0) {
        if (slerp) {
          if (total == 0) copy4(rest + o, dst);
          else if (fill > 0) slerpShortest(FILL_SLOT, dst, rest + o, <f32>(fill / <f64>tau), dst);
        } else {
          if (fill > 0) accumulate(dst, rest + o, <f32>(fill / (total + fill)), total == 0, dotF32(dst, rest + o) < 0);
          normalizeAt(dst);
        }
      }
    }
    undefinedRest(i);
  }
}

/** nlerp's weighted sum at `q` normalised in place (a zero sum becomes identity). Out of line (the module's size). */
function normalizeAt(q: usize): void {
  nlerpAligned(q, q, 0, q);
}

/** An undefined curve (no contribution, and no rest fill) prints its rest value. */
// @ts-ignore: decorator
@inline
function undefinedRest(i: usize): void {
  if (!fills && load<u8>(outCounts + i) == 0) copy4(rest + (i << 4), out + (i << 4));
}

/**
 * Where an additive layer adds to curve i: the weight w = weight × mask, or 0 where it
 * adds nothing (the curve undefined, an inactive sample or reference, w ≤ 0). Spec §4.
 */
// @ts-ignore: decorator
@inline
function additiveWeight(i: usize, weight: f32, mask: usize, counts: usize, referenceCounts: usize): f32 {
  if (!fills && load<u8>(outCounts + i) == 0) return 0;
  const w = weight * maskAt(mask, i);
  if (load<u8>(counts + i) == 0 || load<u8>(referenceCounts + i) == 0 || !(w > 0)) return 0;
  return w;
}

/** Additive layer record `l` on the curves that are not rotations: v += w (sample − reference). */
function additiveLinear(l: usize): void {
  useLayer(l);
  const reference = <usize>load<u32>(l + LAYER_REFERENCE);
  const referenceCounts = <usize>load<u32>(l + LAYER_REFERENCE_COUNTS);
  // No inverse table: the samples are deltas already.
  const deltas = <usize>load<u32>(l + LAYER_REFERENCE_INVERSE) == 0;
  for (let j: usize = 0; j < linearCount; j++) {
    const i = <usize>load<u32>(linear + (j << 2));
    const w = additiveWeight(i, layerWeight, layerMask, layerCounts, referenceCounts);
    if (w == 0) continue;
    const o = i << 4;
    addDelta(out + o, layerSamples + o, deltas ? 0 : reference, o, w);
  }
}

/**
 * Additive layer record `l` on the rotations: q ⊗ interp(identity, reference⁻¹ ⊗ sample, w). SIMD,
 * slerp: four deltas at a time from identity (`slerpGathered4`) where the four add with one weight.
 */
function additiveRotation(l: usize): void {
  useLayer(l);
  const inverse = <usize>load<u32>(l + LAYER_REFERENCE_INVERSE);
  const referenceCounts = <usize>load<u32>(l + LAYER_REFERENCE_COUNTS);
  let j: usize = 0;
  if (ASC_FEATURE_SIMD && slerp) {
    for (; j + 4 <= rotationCount; j += 4) {
      const r = rotation + (j << 2);
      const i0 = <usize>load<u32>(r), i1 = <usize>load<u32>(r, 4), i2 = <usize>load<u32>(r, 8), i3 = <usize>load<u32>(r, 12);
      const w = additiveWeight(i0, layerWeight, layerMask, layerCounts, referenceCounts);
      if (
        w > 0 &&
        w <= 1 &&
        additiveWeight(i1, layerWeight, layerMask, layerCounts, referenceCounts) == w &&
        additiveWeight(i2, layerWeight, layerMask, layerCounts, referenceCounts) == w &&
        additiveWeight(i3, layerWeight, layerMask, layerCounts, referenceCounts) == w
      ) {
        additiveGroup(i0, i1, i2, i3, layerSamples, inverse, w);
      } else {
        additiveRotationAt(i0, inverse, referenceCounts);
        additiveRotationAt(i1, inverse, referenceCounts);
        additiveRotationAt(i2, inverse, referenceCounts);
        additiveRotationAt(i3, inverse, referenceCounts);
      }
    }
  }
  for (; j < rotationCount; j++) additiveRotationAt(<usize>load<u32>(rotation + (j << 2)), inverse, referenceCounts);
}

/** Rotation i of the pass's additive layer. */
function additiveRotationAt(i: usize, inverse: usize, referenceCounts: usize): void {
  const w = additiveWeight(i, layerWeight, layerMask, layerCounts, referenceCounts);
  if (w != 0) addRotation(i, layerSamples, inverse, w);
}

/** Adds rotation i of additive samples `samples` (reference inverses at `inverse`) with weight w > 0. */
function addRotation(i: usize, samples: usize, inverse: usize, w: f32): void {
  const o = i << 4;
  // Δ = ref⁻¹ ⊗ q into DELTAS (q itself without an inverse table), then interpolated from identity by w and applied.
  deltaAt(inverse, samples, i, DELTAS);
  if (slerp) slerpSlot(IDENTITY, DELTAS, w, DELTAS);
  else nlerpWeight(IDENTITY, DELTAS, w, DELTAS);
  multiplyInto(out + o, DELTAS);
}

/** SIMD, slerp: `addRotation` of rotations i0 … i3 with one weight w in (0, 1], the four deltas slerped at once. */
function additiveGroup(i0: usize, i1: usize, i2: usize, i3: usize, samples: usize, inverse: usize, w: f32): void {
  deltaAt(inverse, samples, i0, DELTAS);
  deltaAt(inverse, samples, i1, DELTAS + 16);
  deltaAt(inverse, samples, i2, DELTAS + 32);
  deltaAt(inverse, samples, i3, DELTAS + 48);
  slerpGroup(IDENTITY, IDENTITY, IDENTITY, IDENTITY, DELTAS, DELTAS + 16, DELTAS + 32, DELTAS + 48, DELTAS, DELTAS + 16, DELTAS + 32, DELTAS + 48, w);
  multiplyInto(out + (i0 << 4), DELTAS);
  multiplyInto(out + (i1 << 4), DELTAS + 16);
  multiplyInto(out + (i2 << 4), DELTAS + 32);
  multiplyInto(out + (i3 << 4), DELTAS + 48);
}

/** Prepares the slot in use for weight w (in [0, 1]) unless it holds w. */
// @ts-ignore: decorator
@inline
function prepareSlot(w: f32): void {
  if (reinterpret<u32>(w) != load<u32>(slotWeight)) {
    slerpPrepare(slot, w);
    store<u32>(slotWeight, reinterpret<u32>(w));
  }
}

/**
 * `slerpShortest` in the slot in use, preparing it (a call) only when `w` differs from the weight it holds.
 * Out of line: one copy of the slerp for every pass (the module's size).
 */
function slerpSlot(a: usize, b: usize, w: f32, out: usize): void {
  if (w >= 0 && w <= 1) {
    prepareSlot(w);
    slerpPrepared(slot, a, b, out);
  } else {
    slerpShortest(slot, a, b, w, out);
  }
}

/** dot(a, b) in f32 summed (xx + yy) + (zz + ww), the order of the SIMD dot in quat.ts. */
// @ts-ignore: decorator
@inline
function dotF32(a: usize, b: usize): f32 {
  return load<f32>(a) * load<f32>(b) + load<f32>(a, 4) * load<f32>(b, 4) + (load<f32>(a, 8) * load<f32>(b, 8) + load<f32>(a, 12) * load<f32>(b, 12));
}

/**
 * acc += w · (v − r) on four lanes, r the float4 at reference + o, or w · v for `reference` 0
 * (the samples are deltas already). The difference first: with weights up to 3.4e38, w · v − w · v_ref would overflow
 * where w · Δv does not.
 */
// @ts-ignore: decorator
@inline
function addDelta(acc: usize, v: usize, reference: usize, o: usize, w: f32): void {
  if (ASC_FEATURE_SIMD) {
    let d = v128.load(v);
    if (reference != 0) d = f32x4.sub(d, v128.load(reference + o));
    v128.store(acc, f32x4.add(v128.load(acc), f32x4.mul(d, f32x4.splat(w))));
  } else {
    let dx = load<f32>(v), dy = load<f32>(v, 4), dz = load<f32>(v, 8), dw = load<f32>(v, 12);
    if (reference != 0) {
      const r = reference + o;
      dx -= load<f32>(r);
      dy -= load<f32>(r, 4);
      dz -= load<f32>(r, 8);
      dw -= load<f32>(r, 12);
    }
    store<f32>(acc, load<f32>(acc) + dx * w);
    store<f32>(acc, load<f32>(acc, 4) + dy * w, 4);
    store<f32>(acc, load<f32>(acc, 8) + dz * w, 8);
    store<f32>(acc, load<f32>(acc, 12) + dw * w, 12);
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

/** The f64 float4 at `out` = a⁻¹ = conjugate / |a|² (identity for a zero a), from the f32 float4 at `a`. */
function invert(a: usize, out: usize): void {
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
  store<f64>(out, ax);
  store<f64>(out, ay, 8);
  store<f64>(out, az, 16);
  store<f64>(out, aw, 24);
}

/**
 * The delta of rotation i of additive `samples` into `out`: reference⁻¹ ⊗ sample (`inverseTimes`),
 * or the sample where it is one already (`inverse` 0: a clip of deltas whose keys are near unit
 * length, `additiveDeltaClip`).
 */
// @ts-ignore: decorator
@inline
function deltaAt(inverse: usize, samples: usize, i: usize, out: usize): void {
  if (inverse == 0) copy4(samples + (i << 4), out);
  else inverseTimes(inverse + (i << 5), samples + (i << 4), out);
}

/**
 * |Δq|² outside [DELTA_MIN_SQ, DELTA_MAX_SQ]: an additive delta far from unit length (a glTF key
 * may hold |q| = 1.4e20), which is normalised — a zero one becomes identity — so that its length
 * neither scales the pose nor overflows f32 (spec sequencer.md §4 is silent; why this range:
 * `DELTA_LENGTH_SQ` in src/anim/blend-options.ts, the twin's).
 */
const DELTA_MIN_SQ: f64 = 0.5;
const DELTA_MAX_SQ: f64 = 2;

/**
 * out = a⁻¹ ⊗ b with a⁻¹ the f64 float4 at `inverse` (`invert`), normalised where far from unit
 * length (DELTA_MIN_SQ): in f64 (which holds the product of any f32 rotation and the inverse of any
 * nonzero one), stored as f32. Out of line (the module's size).
 */
function inverseTimes(inverse: usize, b: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const qb = v128.load(b);
    productStore(v128.load(inverse), v128.load(inverse, 16), f64x2.promote_low_f32x4(qb), f64x2.promote_low_f32x4(v128.shuffle<f32>(qb, qb, 2, 3, 0, 1)), out, true);
    return;
  }
  const ax = load<f64>(inverse), ay = load<f64>(inverse, 8), az = load<f64>(inverse, 16), aw = load<f64>(inverse, 24);
  const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
  storeUnit(ax * bw + aw * bx + ay * bz - az * by, ay * bw + aw * by + az * bx - ax * bz, az * bw + aw * bz + ax * by - ay * bx, aw * bw - ax * bx - ay * by - az * bz, true, out);
}

/**
 * The f64 quaternion (x, y, z, w) stored as f32 at `out`, normalised (a zero one as identity) —
 * with `farOnly`, only where |q|² is outside [DELTA_MIN_SQ, DELTA_MAX_SQ].
 */
// @ts-ignore: decorator
@inline
function storeUnit(x: f64, y: f64, z: f64, w: f64, farOnly: bool, out: usize): void {
  const n = (x * x + z * z) + (y * y + w * w);
  if (!farOnly || !(n >= DELTA_MIN_SQ && n <= DELTA_MAX_SQ)) {
    if (n < <f64>MIN_LENGTH_SQ) {
      copy4(IDENTITY, out);
      return;
    }
    const len = Math.sqrt(n);
    x /= len;
    y /= len;
    z /= len;
    w /= len;
  }
  store<f32>(out, <f32>x);
  store<f32>(out, <f32>y, 4);
  store<f32>(out, <f32>z, 8);
  store<f32>(out, <f32>w, 12);
}

/**
 * Normal and additive layers' nlerp (`nlerpShortest`) with a weight that may extrapolate (spec
 * §1: weights are not clamped): beyond 1 in f64 (`nlerpFar`), where an f32 lerp by a weight up
 * to 3.4e38 overflows.
 */
// @ts-ignore: decorator
@inline
function nlerpWeight(a: usize, b: usize, w: f32, out: usize): void {
  if (w <= 1) nlerpShortest(a, b, w, out);
  else nlerpFar(a, b, w, out);
}

/** `nlerpShortest` in f64 (the same f32 sign test), for weights beyond 1. Out of line: extrapolation is rare. */
function nlerpFar(a: usize, b: usize, w: f32, out: usize): void {
  const s: f64 = dotF32(a, b) < 0 ? -1 : 1;
  const t = <f64>w;
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
  storeUnit(
    ax + (s * <f64>load<f32>(b) - ax) * t,
    ay + (s * <f64>load<f32>(b, 4) - ay) * t,
    az + (s * <f64>load<f32>(b, 8) - az) * t,
    aw + (s * <f64>load<f32>(b, 12) - aw) * t,
    false,
    out,
  );
}

/** a = a ⊗ b (Hamilton product, x y z w), in f64. */
function multiplyInto(a: usize, b: usize): void {
  if (ASC_FEATURE_SIMD) {
    const qa = v128.load(a);
    const qb = v128.load(b);
    productStore(
      f64x2.promote_low_f32x4(qa),
      f64x2.promote_low_f32x4(v128.shuffle<f32>(qa, qa, 2, 3, 0, 1)),
      f64x2.promote_low_f32x4(qb),
      f64x2.promote_low_f32x4(v128.shuffle<f32>(qb, qb, 2, 3, 0, 1)),
      a,
      false,
    );
    return;
  }
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
  const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
  store<f32>(a, <f32>(ax * bw + aw * bx + ay * bz - az * by));
  store<f32>(a, <f32>(ay * bw + aw * by + az * bx - ax * bz), 4);
  store<f32>(a, <f32>(az * bw + aw * bz + ax * by - ay * bx), 8);
  store<f32>(a, <f32>(aw * bw - ax * bx - ay * by - az * bz), 12);
}

/**
 * SIMD: the Hamilton product a ⊗ b of f64 pairs (x, y), (z, w) stored as one float4 at `out`,
 * with `unit` as `inverseTimes` stores it: the scalar build's sums term by term in the same order
 * (a − b as a + (−b), exact), so the same bits, with two lanes per operation and one store.
 */
// @ts-ignore: decorator
@inline
function productStore(alo: v128, ahi: v128, blo: v128, bhi: v128, out: usize, unit: bool): void {
  const nalo = f64x2.neg(alo);
  const nahi = f64x2.neg(ahi);
  const bww = v128.shuffle<f64>(bhi, bhi, 1, 1);
  const bzx = v128.shuffle<f64>(bhi, blo, 0, 2);
  // x = ax bw + aw bx + ay bz − az by, y = ay bw + aw by + az bx − ax bz
  let lo = f64x2.add(f64x2.mul(alo, bww), f64x2.mul(v128.shuffle<f64>(ahi, ahi, 1, 1), blo));
  lo = f64x2.add(lo, f64x2.mul(v128.shuffle<f64>(alo, ahi, 1, 2), bzx));
  lo = f64x2.sub(lo, f64x2.mul(v128.shuffle<f64>(ahi, alo, 0, 2), v128.shuffle<f64>(blo, bhi, 1, 2)));
  // z = az bw + aw bz + ax by − ay bx, w = aw bw − ax bx − ay by − az bz
  let hi = f64x2.add(f64x2.mul(ahi, bww), f64x2.mul(v128.shuffle<f64>(ahi, nalo, 1, 2), bzx));
  hi = f64x2.add(hi, f64x2.mul(v128.shuffle<f64>(alo, nalo, 0, 3), v128.shuffle<f64>(blo, blo, 1, 1)));
  hi = f64x2.add(hi, f64x2.mul(v128.shuffle<f64>(nalo, nahi, 1, 2), v128.shuffle<f64>(blo, bhi, 0, 2)));
  if (unit) {
    // (xx + zz) + (yy + ww), the scalar build's order.
    const sq = f64x2.add(f64x2.mul(lo, lo), f64x2.mul(hi, hi));
    const n = f64x2.extract_lane(sq, 0) + f64x2.extract_lane(sq, 1);
    if (!(n >= DELTA_MIN_SQ && n <= DELTA_MAX_SQ)) {
      if (n < <f64>MIN_LENGTH_SQ) {
        copy4(IDENTITY, out);
        return;
      }
      const len = f64x2.splat(Math.sqrt(n));
      lo = f64x2.div(lo, len);
      hi = f64x2.div(hi, len);
    }
  }
  v128.store(out, v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
}
