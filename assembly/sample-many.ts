// Batched playback: one call samples one clip — or each instance its own clip (SM_CLIPS) — (or
// mixes two clips with a weight per instance) for N instances at N times into one contiguous output, and optionally composes model-space or
// skinning matrices — one crossing of the JS↔wasm boundary per frame. It loops over the existing
// kernels (sampleClip, mixSamples, blend, localToModel); it has no sampling math of its own. The batch
// block is laid out by the host (assembly/layout.ts, SM_*).
import {
  FLAG_SLERP,
  OUTPUT_MODEL,
  OUTPUT_SAMPLES,
  SM_CLIP_A,
  SM_CLIP_B,
  SM_COUNTS,
  SM_COUNTS_B,
  SM_CURSORS,
  SM_CURSORS_B,
  SM_CURVE_COUNT,
  SM_INVERSE_BIND,
  SM_INVERSE_BIND_SPLAT,
  SM_JOB,
  SM_JOINT_COUNT,
  SM_KIND_A,
  SM_KIND_B,
  SM_MATRICES,
  SM_MIX_CURVES,
  SM_MIX_LINEAR_COUNT,
  SM_MODEL,
  SM_SAMPLES,
  SM_SAMPLES_B,
  SM_TIMES,
  SM_TIMES_B,
  SM_WEIGHTS,
  SM_LAYER_COUNT,
  SM_BLEND,
  SM_CLIPS,
  SM_CLIP_BLOCK,
  SM_CLIP_FLAGS,
  SM_CLIP_KIND,
  SM_CLIP_SIZE,
  BLEND_LAYERS,
  BLEND_OUT,
  BLEND_OUT_COUNTS,
  LAYER_CURSORS,
  LAYER_SIZE,
  LAYER_TIME,
  LAYER_WEIGHT,
  LTM_CONSTANT_COUNT,
  CLIP_COUNTS,
  KIND_KEYED,
  SM_MODEL_SOA_BYTES,
} from './layout';
import { blendPrepared, prepareBlend } from './blend';
import { allAffine, allCounted, composeUnchecked, copyConstantJoints, localToModelFrom, skinningFast, skinningMatrices, splatAffine } from './local-to-model';
import { keyedFourLanes, keyedLanes4 } from './keyed-clip';
import { mixSamples } from './mix';
import { sampleClip } from './sample-clip';
import { keyedMap, keyedSkinningFour, skinningFour } from './skinning-four';

/**
 * Runs batch `p` for its first `count` instances: samples clip A at TIMES[i] (with SM_CLIPS, the
 * instance's own clip with its own flags instead of CLIP_A and `flags`); with clip B, samples
 * it at TIMES_B[i] and mixes with WEIGHTS[i] as B's share (mixFlags as `mixSamples`); with layers,
 * runs the blend block (which samples each layer's clip with the flags of its record); then, for
 * `output` OUTPUT_MODEL or OUTPUT_SKINNING, writes 16 f32 per joint (column-major) per instance,
 * skinning matrices being model · inverse bind. `flags` and `timeFactor` as `sampleClip`.
 * Returns 1 when the samples and counts of some instances were not written (skinning four
 * instances at a time: straight from a keyed clip's keys, `keyedSkinningFour`, or from samples in
 * instances 0 … 3's slots): the host samples them again when they are read.
 */
export function sampleMany(p: usize, count: u32, flags: u32, mixFlags: u32, timeFactor: f32, output: u32): u32 {
  const c = <usize>load<u32>(p, SM_CURVE_COUNT);
  const j = <usize>load<u32>(p, SM_JOINT_COUNT);
  const samples = load<usize>(p, SM_SAMPLES);
  const counts = load<usize>(p, SM_COUNTS);
  const job = load<usize>(p, SM_JOB);
  const inverseBind = load<usize>(p, SM_INVERSE_BIND);
  const matrices = load<usize>(p, SM_MATRICES);
  const model = load<usize>(p, SM_MODEL);
  const layerCount = <usize>load<u32>(p, SM_LAYER_COUNT);
  const blendJob = load<usize>(p, SM_BLEND);
  // Checked on every call: SampleManyJob.inverseBindMatrices is a live view the caller may write.
  const affine = output != OUTPUT_SAMPLES && output != OUTPUT_MODEL && allAffine(inverseBind, j);
  const splat = load<usize>(p, SM_INVERSE_BIND_SPLAT);
  if (ASC_FEATURE_SIMD && affine) splatAffine(inverseBind, j, splat);
  // One clip, no mix: every instance's counts are that clip's, so they are checked once.
  const clipCounts = layerCount == 0 && load<usize>(p, SM_CLIPS) == 0 && load<usize>(p, SM_CLIP_B) == 0;
  let allSampled = false;
  // Every instance blends against the same reference poses, masks and clips.
  if (layerCount > 0) prepareBlend(blendJob);
  const constants: u32 = job != 0 ? load<u32>(job, LTM_CONSTANT_COUNT) : 0;
  // Joints no curve drives (nor their ancestors) are composed once per call and kept: `first` is
  // where the one-instance scratch (`model`) starts to need composing, `firstFour` the same for
  // skinningFour's scratch.
  let first: u32 = 0;
  let firstFour: u32 = 0;
  // One keyed clip of one time group, every count > 0: four instances at a time
  // skinned straight from the keys, no sample buffer (`keyedSkinningFour`), until a group of four
  // needs the sampled path (then the rest of the call takes it).
  const clipA = load<usize>(p, SM_CLIP_A);
  let keyedFour = ASC_FEATURE_SIMD && affine && clipCounts && count >= 4 && j > 0 && load<u32>(p, SM_KIND_A) == KIND_KEYED && keyedFourLanes(clipA, flags) && allCounted(load<usize>(clipA, CLIP_COUNTS), c);
  const keyMap = splat + j * (192 + SM_MODEL_SOA_BYTES);
  if (keyedFour) {
    keyedMap(job, clipA, keyMap);
    allSampled = true;
  }
  let skipped: u32 = 0;
  let misses: u32 = 0;
  for (let i: usize = 0; i < <usize>count; ) {
    // SIMD skinning under affine inverse bind matrices: four instances at a time, structure of
    // arrays over instances (assembly/skinning-four.ts), where their samples are read whole.
    if (ASC_FEATURE_SIMD && affine && i + 4 <= <usize>count) {
      if (keyedFour) {
        if (keyedLanes4(clipA, load<usize>(p, SM_TIMES) + (i << 3), load<usize>(p, SM_CURSORS) + i * c * 16, c * 16, flags)) {
          const m = matrices + i * j * 64;
          const done = keyedSkinningFour(job, keyMap, splat + j * 192, splat, firstFour, m, m + j * 64, m + j * 128, m + j * 192, (flags & FLAG_SLERP) == 0);
          firstFour = constants;
          if (done) {
            skipped = 1;
            i += 4;
            continue;
          }
        }
        // A group the keys cannot skin (a key gap beyond `slerp4`'s, a non-finite entry) takes
        // the sampled path; where that is common (a clip of wide gaps), the rest of the call does.
        if (++misses > (<u32>i >> 4) + 2) keyedFour = false;
      }
      // Without layers the four are sampled into instances 0 … 3's slots, which stay in cache
      // (1,000 instances' samples are megabytes), and sampled again where they are read.
      const slots = layerCount == 0 ? 0 : i;
      if (layerCount == 0) skipped = 1;
      let whole = true;
      for (let l: usize = 0; l < 4; l++) {
        sampleInstance(p, i + l, slots + l, flags, mixFlags, timeFactor);
        if (layerCount == 0 && (i + l == 0 || !clipCounts)) allSampled = allCounted(counts + (slots + l) * c, c);
        whole = whole && (layerCount > 0 || allSampled);
      }
      const s = samples + slots * c * 16;
      if (whole) {
        const m = matrices + i * j * 64;
        const done = skinningFour(job, s, s + c * 16, s + c * 32, s + c * 48, splat + j * 192, splat, firstFour, m, m + j * 64, m + j * 128, m + j * 192);
        firstFour = constants;
        if (done) {
          i += 4;
          continue;
        }
      }
      for (let l: usize = 0; l < 4; l++) {
        const k = counts + (slots + l) * c;
        composeInstance(job, s + l * c * 16, layerCount > 0 || (clipCounts ? allSampled : allCounted(k, c)) ? 0 : k, model, inverseBind, splat, j, affine, matrices + (i + l) * j * 64, first);
        first = constants;
      }
      i += 4;
      continue;
    }
    sampleInstance(p, i, i, flags, mixFlags, timeFactor);
    if (output == OUTPUT_SAMPLES) {
      i++;
      continue;
    }
    const k = counts + i * c;
    const m = matrices + i * j * 64;
    // A blend result is read whole (see localToModel); a clip's samples by their counts, which
    // need no test per joint when none is 0.
    if (layerCount == 0 && (i == 0 || !clipCounts)) allSampled = allCounted(k, c);
    const modelCounts: usize = layerCount > 0 || allSampled ? 0 : k;
    if (output == OUTPUT_MODEL) {
      // Model outputs copy the first instance's constant joints.
      const from: u32 = i == 0 ? 0 : constants;
      if (from > 0) copyConstantJoints(job, matrices, m);
      localToModelFrom(job, samples + i * c * 16, modelCounts, m, from);
    } else {
      composeInstance(job, samples + i * c * 16, modelCounts, model, inverseBind, splat, j, affine, m, first);
      first = constants;
    }
    i++;
  }
  return skipped;
}

/**
 * One instance's skinning matrices at `m` from its samples `s` (read by `modelCounts`, 0 for
 * whole), composed into the one-instance scratch `model` from joint `first` of the job's order.
 * The SIMD build checks the skinning matrices only: a non-finite model entry shows in them
 * (`composeUnchecked`), and the pose is then composed and multiplied again on the checked paths.
 */
// @ts-ignore: decorator
@inline
function composeInstance(job: usize, s: usize, modelCounts: usize, model: usize, inverseBind: usize, splat: usize, j: usize, affine: bool, m: usize, first: u32): void {
  if (ASC_FEATURE_SIMD && modelCounts == 0) {
    composeUnchecked(job, s, model, first);
    if (skinningFast(model, inverseBind, splat, j, affine, m)) return;
  }
  localToModelFrom(job, s, modelCounts, model, first);
  skinningMatrices(model, inverseBind, splat, j, affine, m);
}

/**
 * Samples instance `i` of batch `p` into the samples and counts of instance `slot` (its own, or a
 * slot the caller reuses): its clip (SM_CLIPS' or CLIP_A), mixed with clip B, or its layers blended
 * (other arguments as `sampleMany`).
 */
function sampleInstance(p: usize, i: usize, slot: usize, flags: u32, mixFlags: u32, timeFactor: f32): void {
  const c = <usize>load<u32>(p, SM_CURVE_COUNT);
  const s = load<usize>(p, SM_SAMPLES) + slot * c * 16;
  const k = load<usize>(p, SM_COUNTS) + slot * c;
  const cursors = load<usize>(p, SM_CURSORS);
  const times = load<usize>(p, SM_TIMES);
  const layerCount = <usize>load<u32>(p, SM_LAYER_COUNT);
  const clips = load<usize>(p, SM_CLIPS);
  if (layerCount > 0) {
    // The instance's times, weights and cursors into the blend block's layer records; the
    // blend samples each layer's clip and blends them into s.
    const blendJob = load<usize>(p, SM_BLEND);
    const weights = load<usize>(p, SM_WEIGHTS);
    const table = <usize>load<u32>(blendJob + BLEND_LAYERS);
    for (let l: usize = 0; l < layerCount; l++) {
      const entry = table + l * LAYER_SIZE;
      const at = i * layerCount + l;
      store<f64>(entry + LAYER_TIME, load<f64>(times + (at << 3)));
      store<f32>(entry + LAYER_WEIGHT, load<f32>(weights + (at << 2)));
      store<u32>(entry + LAYER_CURSORS, <u32>(cursors + at * c * 16));
    }
    store<u32>(blendJob + BLEND_OUT, <u32>s);
    store<u32>(blendJob + BLEND_OUT_COUNTS, <u32>k);
    blendPrepared(blendJob);
    return;
  }
  if (clips != 0) {
    const r = clips + i * SM_CLIP_SIZE;
    // The record holds the clip's header (SM_CLIP_HEADER): the keys' addresses wait on no miss of
    // their own. Nothing is read ahead (ARCHITECTURE.md: reading ahead cost more than it saved).
    sampleClip(load<usize>(r, SM_CLIP_BLOCK), load<u32>(r, SM_CLIP_KIND), load<f64>(times + (i << 3)), s, k, cursors + i * c * 16, load<u32>(r, SM_CLIP_FLAGS), timeFactor);
  } else {
    sampleClip(load<usize>(p, SM_CLIP_A), load<u32>(p, SM_KIND_A), load<f64>(times + (i << 3)), s, k, cursors + i * c * 16, flags, timeFactor);
  }
  const clipB = load<usize>(p, SM_CLIP_B);
  if (clipB != 0) {
    const samplesB = load<usize>(p, SM_SAMPLES_B);
    const countsB = load<usize>(p, SM_COUNTS_B);
    sampleClip(clipB, load<u32>(p, SM_KIND_B), load<f64>(load<usize>(p, SM_TIMES_B) + (i << 3)), samplesB, countsB, load<usize>(p, SM_CURSORS_B) + i * c * 16, flags, timeFactor);
    mixSamples(load<usize>(p, SM_MIX_CURVES), load<u32>(p, SM_MIX_LINEAR_COUNT), <u32>c, s, k, samplesB, countsB, load<f32>(load<usize>(p, SM_WEIGHTS) + (i << 2)), s, k, mixFlags);
  }
}
