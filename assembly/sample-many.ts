// Batched playback: one call samples one clip — or each instance its own clip (SM_CLIPS) — (or
// mixes two clips with a weight per instance) for N instances at N times into one contiguous output, and optionally composes model-space or
// skinning matrices — one crossing of the JS↔wasm boundary per frame. It loops over the existing
// kernels (sampleClip, mixSamples, blend, localToModel); it has no sampling math of its own. The batch
// block is laid out by the host (assembly/layout.ts, SM_*).
import {
  CLIP_HEADER_SIZE,
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
} from './layout';
import { blendPrepared, prepareBlend } from './blend';
import { allAffine, allCounted, composeUnchecked, copyConstantJoints, localToModelFrom, skinningFast, skinningMatrices, splatAffine } from './local-to-model';
import { mixSamples } from './mix';
import { keep } from './read-ahead';
import { readAheadClip, sampleClip } from './sample-clip';

/**
 * Runs batch `p` for its first `count` instances: samples clip A at TIMES[i] (with SM_CLIPS, the
 * instance's own clip with its own flags instead of CLIP_A and `flags`); with clip B, samples
 * it at TIMES_B[i] and mixes with WEIGHTS[i] as B's share (mixFlags as `mixSamples`); with layers,
 * runs the blend block (which samples each layer's clip with the flags of its record); then, for
 * `output` OUTPUT_MODEL or OUTPUT_SKINNING, writes 16 f32 per joint (column-major) per instance,
 * skinning matrices being model · inverse bind. `flags` and `timeFactor` as `sampleClip`.
 */
export function sampleMany(p: usize, count: u32, flags: u32, mixFlags: u32, timeFactor: f32, output: u32): void {
  const c = <usize>load<u32>(p, SM_CURVE_COUNT);
  const j = <usize>load<u32>(p, SM_JOINT_COUNT);
  const clipA = load<usize>(p, SM_CLIP_A);
  const kindA = load<u32>(p, SM_KIND_A);
  const clipB = load<usize>(p, SM_CLIP_B);
  const kindB = load<u32>(p, SM_KIND_B);
  const samples = load<usize>(p, SM_SAMPLES);
  const counts = load<usize>(p, SM_COUNTS);
  const cursors = load<usize>(p, SM_CURSORS);
  const samplesB = load<usize>(p, SM_SAMPLES_B);
  const countsB = load<usize>(p, SM_COUNTS_B);
  const cursorsB = load<usize>(p, SM_CURSORS_B);
  const times = load<usize>(p, SM_TIMES);
  const timesB = load<usize>(p, SM_TIMES_B);
  const weights = load<usize>(p, SM_WEIGHTS);
  const mixCurves = load<usize>(p, SM_MIX_CURVES);
  const mixLinearCount = load<u32>(p, SM_MIX_LINEAR_COUNT);
  const job = load<usize>(p, SM_JOB);
  const inverseBind = load<usize>(p, SM_INVERSE_BIND);
  const matrices = load<usize>(p, SM_MATRICES);
  const model = load<usize>(p, SM_MODEL);
  const layerCount = <usize>load<u32>(p, SM_LAYER_COUNT);
  const blendJob = load<usize>(p, SM_BLEND);
  const clips = load<usize>(p, SM_CLIPS);
  // Checked on every call: SampleManyJob.inverseBindMatrices is a live view the caller may write.
  const affine = output != OUTPUT_SAMPLES && output != OUTPUT_MODEL && allAffine(inverseBind, j);
  const splat = load<usize>(p, SM_INVERSE_BIND_SPLAT);
  if (ASC_FEATURE_SIMD && affine) splatAffine(inverseBind, j, splat);
  // One clip, no mix: every instance's counts are that clip's, so they are checked once.
  const clipCounts = layerCount == 0 && clips == 0 && clipB == 0;
  let allSampled = false;
  // Every instance blends against the same reference poses, masks and clips.
  if (layerCount > 0) prepareBlend(blendJob);
  for (let i: usize = 0; i < <usize>count; i++) {
    const s = samples + i * c * 16;
    const k = counts + i * c;
    if (layerCount > 0) {
      // The instance's times, weights and cursors into the blend block's layer records; the
      // blend samples each layer's clip and blends them into s.
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
    } else if (clips != 0) {
      const r = clips + i * SM_CLIP_SIZE;
      // Read ahead, so that misses overlap this instance's sampling instead of coming before the
      // next one's (a crowd's clips lie far apart; wasm has no prefetch instruction): the header
      // of the instance after next (its first and last words: the two lines it spans), whose miss
      // every other address waits on, and what the next instance's sample reads, where that pays.
      if (i + 2 < <usize>count) {
        const ahead = load<usize>(r + 2 * SM_CLIP_SIZE, SM_CLIP_BLOCK);
        keep(load<u32>(ahead) + load<u32>(ahead, CLIP_HEADER_SIZE - 4));
      }
      if (i + 1 < <usize>count) keep(readAheadClip(load<usize>(r + SM_CLIP_SIZE, SM_CLIP_BLOCK), load<u32>(r + SM_CLIP_SIZE, SM_CLIP_KIND), load<f64>(times + ((i + 1) << 3))));
      sampleClip(load<usize>(r, SM_CLIP_BLOCK), load<u32>(r, SM_CLIP_KIND), load<f64>(times + (i << 3)), s, k, cursors + i * c * 16, load<u32>(r, SM_CLIP_FLAGS), timeFactor);
    } else {
      sampleClip(clipA, kindA, load<f64>(times + (i << 3)), s, k, cursors + i * c * 16, flags, timeFactor);
    }
    if (layerCount == 0 && clipB != 0) {
      sampleClip(clipB, kindB, load<f64>(timesB + (i << 3)), samplesB, countsB, cursorsB + i * c * 16, flags, timeFactor);
      mixSamples(mixCurves, mixLinearCount, <u32>c, s, k, samplesB, countsB, load<f32>(weights + (i << 2)), s, k, mixFlags);
    }
    if (output == OUTPUT_SAMPLES) continue;
    const m = matrices + i * j * 64;
    // A blend result is read whole (see localToModel); a clip's samples by their counts, which
    // need no test per joint when none is 0.
    if (layerCount == 0 && (i == 0 || !clipCounts)) allSampled = allCounted(k, c);
    const modelCounts: usize = layerCount > 0 || allSampled ? 0 : k;
    // Joints no curve drives (nor their ancestors) are composed for the first instance only: the
    // skinning scratch keeps them, model outputs copy them.
    const first: u32 = i == 0 ? 0 : load<u32>(job, LTM_CONSTANT_COUNT);
    if (output == OUTPUT_MODEL) {
      if (first > 0) copyConstantJoints(job, matrices, m);
      localToModelFrom(job, s, modelCounts, m, first);
      continue;
    }
    // The SIMD build checks the skinning matrices only: a non-finite model entry shows in them
    // (`composeUnchecked`), and the pose is then composed and multiplied again on the checked paths.
    if (ASC_FEATURE_SIMD && modelCounts == 0) {
      composeUnchecked(job, s, model, first);
      if (skinningFast(model, inverseBind, splat, j, affine, m)) continue;
    }
    localToModelFrom(job, s, modelCounts, model, first);
    skinningMatrices(model, inverseBind, splat, j, affine, m);
  }
}
