/** The exports of `assembly/index.ts` (both builds have the same ones). Pointers are byte offsets. */
export interface KernelExports {
  memory: WebAssembly.Memory;
  SIMD: WebAssembly.Global;
  alloc(size: number): number;
  free(ptr: number): void;
  uniformClipCreate(
    curveCount: number,
    keyCount: number,
    sliceWidth: number,
    linearCount: number,
    staticCount: number,
    velocityCount: number,
    pre: number,
    post: number,
    keyDuration: number,
    duration: number,
  ): number;
  uniformClipKeys(p: number): number;
  uniformClipSlotOut(p: number): number;
  uniformClipStaticOut(p: number): number;
  uniformClipStaticValues(p: number): number;
  uniformClipCounts(p: number): number;
  uniformClipVelocityOut(p: number): number;
  uniformClipSample(p: number, time: number, out: number, outCounts: number, flags: number, timeFactor: number): void;
  unityClipCreate(curveCount: number, laneCount: number, arenaWords: number): number;
  unityClipCurves(p: number): number;
  unityClipLanes(p: number): number;
  unityClipCounts(p: number): number;
  unityClipArena(p: number): number;
  unityClipLaneCount(p: number): number;
  unityClipSample(p: number, time: number, out: number, outCounts: number, flags: number, cursors: number): void;
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

/** `uniformClipSample` flag bits (assembly/uniform-clip.ts). */
export const SAMPLE_STEP = 1;
export const SAMPLE_SLERP = 2;
/** `unityClipSample` flag bit and curve-record flags (assembly/unity-curve.ts). */
export const UNITY_SAMPLE_RAW = 1;
export const UNITY_STATIC = 1;
export const UNITY_BOOL = 2;
export const UNITY_ROTATION = 4;
export const UNITY_SHARED = 8;
/** `mixSamples` flag bits (assembly/mix.ts). */
export const MIX_SLERP = 1;
