// Batched playback: one call samples one clip (or mixes two clips with a weight per instance) for
// N instances at N times into one contiguous output, and optionally composes model-space or
// skinning matrices — one crossing of the JS↔wasm boundary per frame. It loops over the existing
// kernels (uniformClipSample / keyedClipSample / unityClipSample, mixSamples, localToModel); it
// has no sampling math of its own.
//
// A batch block (fields written by `sampleManyCreate` and the host, see SM_* offsets):
//   per instance i: samples at SAMPLES + i·C·16 (float4 per curve), counts at COUNTS + i·C (u8),
//   cursors at CURSORS + i·C·16 (and CURSORS_B for the second clip), times f64 at TIMES + 8i,
//   TIMES_B + 8i, weights f32 at WEIGHTS + 4i (b's share), matrices at MATRICES + i·J·64.
import { alloc } from './memory';
import { align16 } from './clip-header';
import { keyedClipSample } from './keyed-clip';
import { localToModel, multiplyInPlace } from './local-to-model';
import { mixSamples } from './mix';
import { uniformClipSample } from './uniform-clip';
import { unityClipSample } from './unity-curve';

/** Clip kinds as the host stores them. */
export const KIND_UNIFORM: u32 = 0;
export const KIND_KEYED: u32 = 1;
export const KIND_UNITY: u32 = 2;

/** Matrix output: none, model space, or skinning (model · inverse bind). */
export const OUTPUT_SAMPLES: u32 = 0;
export const OUTPUT_MODEL: u32 = 1;
export const OUTPUT_SKINNING: u32 = 2;

const CLIP_A: usize = 0;
const KIND_A: usize = 4;
const CLIP_B: usize = 8;
const KIND_B: usize = 12;
const CURVES: usize = 16;
const INSTANCES: usize = 20;
const SAMPLES: usize = 24;
const COUNTS: usize = 28;
const CURSORS: usize = 32;
const SAMPLES_B: usize = 36;
const COUNTS_B: usize = 40;
const CURSORS_B: usize = 44;
const TIMES: usize = 48;
const TIMES_B: usize = 52;
const WEIGHTS: usize = 56;
const LINEAR: usize = 60;
const LINEAR_COUNT: usize = 64;
const ROTATION: usize = 68;
const ROTATION_COUNT: usize = 72;
const JOB: usize = 76;
const INVERSE_BIND: usize = 80;
const MATRICES: usize = 84;
const JOINTS: usize = 88;
const MODEL: usize = 92;
const HEADER: usize = 96;

/**
 * Allocates a batch for `instances` instances of a `curveCount`-curve layout with `jointCount`
 * joints (0 without matrices). The host then fills clips, kinds, the mixer's curve lists, the
 * local-to-model job and inverse bind matrices through `sampleManyField`.
 */
export function sampleManyCreate(instances: u32, curveCount: u32, jointCount: u32, linearCount: u32, rotationCount: u32): usize {
  const n = <usize>instances;
  const c = <usize>curveCount;
  const j = <usize>jointCount;
  // Arrays in the order of their fields (no managed arrays: the minimal runtime never collects).
  let at = HEADER;
  const samples = at;
  at += n * c * 16;
  const counts = at;
  at += align16(n * c);
  const cursors = at;
  at += n * c * 16;
  const samplesB = at; // one instance at a time
  at += c * 16;
  const countsB = at;
  at += align16(c);
  const cursorsB = at;
  at += n * c * 16;
  const times = at;
  at += align16(n * 8);
  const timesB = at;
  at += align16(n * 8);
  const weights = at;
  at += align16(n * 4);
  const linear = at;
  at += align16(<usize>linearCount * 4);
  const rotation = at;
  at += align16(<usize>rotationCount * 4);
  const inverseBind = at;
  at += j * 64;
  const matrices = at;
  at += n * j * 64;
  const model = at; // model-space scratch for skinning
  at += j * 64;
  const p = alloc(at);
  store<usize>(p + SAMPLES, p + samples);
  store<usize>(p + COUNTS, p + counts);
  store<usize>(p + CURSORS, p + cursors);
  store<usize>(p + SAMPLES_B, p + samplesB);
  store<usize>(p + COUNTS_B, p + countsB);
  store<usize>(p + CURSORS_B, p + cursorsB);
  store<usize>(p + TIMES, p + times);
  store<usize>(p + TIMES_B, p + timesB);
  store<usize>(p + WEIGHTS, p + weights);
  store<usize>(p + LINEAR, p + linear);
  store<usize>(p + ROTATION, p + rotation);
  store<usize>(p + INVERSE_BIND, p + inverseBind);
  store<usize>(p + MATRICES, p + matrices);
  store<usize>(p + MODEL, p + model);
  store<u32>(p, curveCount, CURVES);
  store<u32>(p, instances, INSTANCES);
  store<u32>(p, jointCount, JOINTS);
  store<u32>(p, linearCount, LINEAR_COUNT);
  store<u32>(p, rotationCount, ROTATION_COUNT);
  return p;
}

/** Address of a batch field (one of the offsets above); the host reads and writes through it. */
export function sampleManyField(p: usize, field: u32): usize {
  return p + <usize>field;
}

/** Samples clip `clip` of kind `kind` for one instance (flags as the clip samplers). */
// @ts-ignore: decorator
@inline
export function sampleClip(clip: usize, kind: u32, time: f64, out: usize, counts: usize, cursors: usize, flags: u32, unityFlags: u32, timeFactor: f32): void {
  if (kind == KIND_UNIFORM) uniformClipSample(clip, time, out, counts, flags, timeFactor);
  else if (kind == KIND_KEYED) keyedClipSample(clip, time, out, counts, cursors, flags, timeFactor);
  else unityClipSample(clip, time, out, counts, unityFlags, cursors);
}

/**
 * Runs batch `p` for its first `count` instances: samples clip A at TIMES[i]; with clip B, samples
 * it at TIMES_B[i] and mixes with WEIGHTS[i] as B's share (mixFlags as `mixSamples`); then, for
 * `output` OUTPUT_MODEL or OUTPUT_SKINNING, writes 16 f32 per joint (column-major) per instance,
 * skinning matrices being model · inverse bind.
 */
export function sampleMany(p: usize, count: u32, flags: u32, unityFlags: u32, mixFlags: u32, timeFactor: f32, output: u32): void {
  const c = <usize>load<u32>(p, CURVES);
  const j = <usize>load<u32>(p, JOINTS);
  const clipA = load<usize>(p, CLIP_A);
  const kindA = load<u32>(p, KIND_A);
  const clipB = load<usize>(p, CLIP_B);
  const kindB = load<u32>(p, KIND_B);
  const samples = load<usize>(p, SAMPLES);
  const counts = load<usize>(p, COUNTS);
  const cursors = load<usize>(p, CURSORS);
  const samplesB = load<usize>(p, SAMPLES_B);
  const countsB = load<usize>(p, COUNTS_B);
  const cursorsB = load<usize>(p, CURSORS_B);
  const times = load<usize>(p, TIMES);
  const timesB = load<usize>(p, TIMES_B);
  const weights = load<usize>(p, WEIGHTS);
  const job = load<usize>(p, JOB);
  const inverseBind = load<usize>(p, INVERSE_BIND);
  const matrices = load<usize>(p, MATRICES);
  const model = load<usize>(p, MODEL);
  for (let i: usize = 0; i < <usize>count; i++) {
    const s = samples + i * c * 16;
    const k = counts + i * c;
    sampleClip(clipA, kindA, load<f64>(times + (i << 3)), s, k, cursors + i * c * 16, flags, unityFlags, timeFactor);
    if (clipB != 0) {
      sampleClip(clipB, kindB, load<f64>(timesB + (i << 3)), samplesB, countsB, cursorsB + i * c * 16, flags, unityFlags, timeFactor);
      mixSamples(
        load<usize>(p, LINEAR),
        load<u32>(p, LINEAR_COUNT),
        load<usize>(p, ROTATION),
        load<u32>(p, ROTATION_COUNT),
        s,
        k,
        samplesB,
        countsB,
        load<f32>(weights + (i << 2)),
        s,
        k,
        mixFlags,
      );
    }
    if (output == OUTPUT_SAMPLES) continue;
    const m = matrices + i * j * 64;
    if (output == OUTPUT_MODEL) {
      localToModel(job, s, k, m);
      continue;
    }
    localToModel(job, s, k, model);
    memory.copy(m, inverseBind, j * 64);
    for (let b: usize = 0; b < j; b++) multiplyInPlace(model + (b << 6), m + (b << 6));
  }
}
