import type { RotationMode, SampleOptions } from '../anim/index.js';

/** The exports of `assembly/index.ts` (both builds have the same ones). Pointers are byte offsets. */
export interface KernelExports {
  memory: WebAssembly.Memory;
  SIMD: WebAssembly.Global;
  alloc(size: number): number;
  free(ptr: number): void;
  /** Address of a shared clip array; `field` is one of `ClipField`. */
  clipArray(p: number, field: number): number;
  uniformClipCreate(...args: [...SharedClipArgs, keyCount: number, keyDuration: number]): number;
  uniformClipSample(p: number, time: number, out: number, outCounts: number, flags: number, timeFactor: number): void;
  keyedClipCreate(...args: [...SharedClipArgs, keyBytes: number]): number;
  keyedClipSample(p: number, time: number, out: number, outCounts: number, cursors: number, flags: number, timeFactor: number): void;
  /** A local-to-model job block for `jointCount` joints (assembly/local-to-model.ts). */
  localToModelJobCreate(jointCount: number): number;
  /** Address of a job array: `LocalToModelField`. */
  localToModelJobArray(p: number, field: number): number;
  localToModel(p: number, samples: number, counts: number, out: number): void;
  unityClipCreate(curveCount: number, laneCount: number, arenaWords: number): number;
  unityClipCurves(p: number): number;
  unityClipLanes(p: number): number;
  unityClipCounts(p: number): number;
  unityClipArena(p: number): number;
  unityClipLaneCount(p: number): number;
  unityClipSample(p: number, time: number, out: number, outCounts: number, flags: number, cursors: number): void;
  /** A batch block (assembly/sample-many.ts); fields via `sampleManyField` and `SampleManyField`. */
  sampleManyCreate(instances: number, curveCount: number, jointCount: number, linearCount: number, rotationCount: number): number;
  sampleManyField(p: number, field: number): number;
  sampleMany(p: number, count: number, flags: number, unityFlags: number, mixFlags: number, timeFactor: number, output: number): void;
  /** One clip sampled at `keyCount` uniform key times into curve-major key arrays (assembly/resample.ts). */
  resampleKeys(
    clip: number,
    kind: number,
    flags: number,
    unityFlags: number,
    keyCount: number,
    keyDuration: number,
    samples: number,
    counts: number,
    cursors: number,
    curves: number,
    listCount: number,
    dst: number,
  ): void;
  /** Runs a blend job block (assembly/blend.ts, layout assembly/blend-layout.ts). */
  blend(job: number): void;
  mixSamples(
    linear: number,
    linearCount: number,
    rotation: number,
    rotationCount: number,
    a: number,
    ac: number,
    b: number,
    bc: number,
    w: number,
    out: number,
    outCounts: number,
    flags: number,
  ): void;
}

/** The leading arguments of every `*ClipCreate` (assembly/clip-header.ts `clipAlloc`). */
export type SharedClipArgs = [
  curveCount: number,
  slotCount: number,
  linearCount: number,
  staticCount: number,
  velocityCount: number,
  pre: number,
  post: number,
  duration: number,
];

/** Header offsets of the shared clip arrays (assembly/clip-header.ts). */
export const ClipField = {
  SlotOut: 40,
  StaticOut: 44,
  StaticValues: 48,
  Counts: 52,
  VelocityOut: 56,
  Extra: 60,
} as const;

/** Clip sampler flag bits (assembly/clip-header.ts). */
export const SAMPLE_STEP = 1;
export const SAMPLE_SLERP = 2;
/** The clip samplers' flags for `SampleOptions.sampleType` and `rotation`. */
export function clipSampleFlags(options: Pick<SampleOptions, 'sampleType' | 'rotation'>): number {
  return (options.sampleType === 'step' ? SAMPLE_STEP : 0) | (options.rotation === 'slerp' ? SAMPLE_SLERP : 0);
}
/** `unityClipSample`'s flags for `SampleOptions.rotation`. */
export function unitySampleFlags(rotation: RotationMode | undefined): number {
  return rotation === 'raw' ? UNITY_SAMPLE_RAW : 0;
}
/** `unityClipSample` flag bit and curve-record flags (assembly/unity-curve.ts). */
export const UNITY_SAMPLE_RAW = 1;
export const UNITY_STATIC = 1;
export const UNITY_BOOL = 2;
export const UNITY_ROTATION = 4;
export const UNITY_SHARED = 8;
/** `mixSamples` flag bits (assembly/mix.ts). */
export const MIX_SLERP = 1;

/** Job block fields of assembly/local-to-model.ts. */
export const LocalToModelField = {
  Parents: 4,
  Bindings: 8,
  Rest: 12,
} as const;

/** Batch block fields of assembly/sample-many.ts (byte offsets in the block). */
export const SampleManyField = {
  ClipA: 0,
  KindA: 4,
  ClipB: 8,
  KindB: 12,
  Samples: 24,
  Counts: 28,
  Times: 48,
  TimesB: 52,
  Weights: 56,
  Linear: 60,
  Rotation: 68,
  Job: 76,
  InverseBind: 80,
  Matrices: 84,
} as const;

/** `sampleMany` clip kinds and outputs (assembly/sample-many.ts). */
export const SAMPLE_MANY_KIND = { uniform: 0, keyed: 1, unity: 2 } as const;
export const SAMPLE_MANY_OUTPUT = { samples: 0, model: 1, skinning: 2 } as const;
