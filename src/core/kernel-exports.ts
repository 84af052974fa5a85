/**
 * The exports of `assembly/index.ts` (both builds have the same ones). Pointers are byte offsets
 * into the one memory; blocks are laid out by the host as assembly/layout.ts declares.
 */
export interface KernelExports {
  memory: WebAssembly.Memory;
  SIMD: WebAssembly.Global;
  /** A zero-filled, 16-byte aligned block of `size` bytes. */
  alloc(size: number): number;
  free(ptr: number): void;
  /** One clip block of kind `kind` into one sample buffer (assembly/sample-clip.ts). */
  sampleClip(p: number, kind: number, time: number, out: number, counts: number, cursors: number, flags: number, timeFactor: number): void;
  /** Two sample buffers mixed curve by curve (assembly/mix.ts). */
  mixSamples(
    curves: number,
    linearCount: number,
    curveCount: number,
    a: number,
    ac: number,
    b: number,
    bc: number,
    w: number,
    out: number,
    outCounts: number,
    flags: number,
  ): void;
  /** N sample buffers blended into one by the rules of spec sequencer.md §3–§4 (assembly/blend.ts). */
  blend(job: number): void;
  /** Model-space matrices of one sample buffer; `counts` 0 reads every sample (assembly/local-to-model.ts). */
  localToModel(p: number, samples: number, counts: number, out: number): void;
  /** A batch of instances in one call (assembly/sample-many.ts); 1 when it left some instances' samples unwritten. */
  sampleMany(p: number, count: number, flags: number, mixFlags: number, timeFactor: number, output: number): number;
  /** One clip sampled at `keyCount` uniform key times into curve-major key arrays (assembly/resample.ts). */
  resampleKeys(
    clip: number,
    kind: number,
    flags: number,
    keyCount: number,
    keyDuration: number,
    samples: number,
    sampleBytes: number,
    counts: number,
    cursors: number,
    curves: number,
    listCount: number,
    dst: number,
  ): void;
  /** Keyframe reduction of `count` curves, one REDUCE_* record each (assembly/reduce-keys.ts). */
  reduceKeys(records: number, count: number): void;
  /** `members` arrays of `count` packed keys of `width` floats (3 or 4) at `from` as float4s, key k of member j at `to + k · stride + 16j`; 1 when a float is not a file value, else 0 (assembly/widen-keys.ts). */
  widenKeys(from: number, width: number, count: number, members: number, to: number, stride: number): number;
  /** `count` quaternion keys from `from` (key `keyCount` is key 0 again) sign-aligned and normalised to `to`, as glTF writers store them (assembly/align-rotations.ts). */
  alignRotations(from: number, keyCount: number, count: number, to: number): void;
}
