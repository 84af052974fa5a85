import { AnimClip, type AnimCurve, AnimResource, type CurveKeys, packedValues, type RotationMode } from '../anim/index.js';
import { packedUniformKeys } from '../anim/packed-keys.js';
import { UsageError } from '../errors.js';
import { CURSOR_BYTES_PER_CURVE, RESAMPLE_BATCH } from '../../assembly/layout.js';
import type { RuntimeOwner } from './runtime.js';
import { SampleManyJob } from './sample-many.js';

/** Options of `resample`. */
export interface ResampleOptions {
  /** Keys per second, a finite number > 0. */
  fps: number;
  /**
   * How the source's rotations are sampled; default `nlerp` (for Unity-curve clips: corrected,
   * hemisphere-aligned and normalised). `raw` keeps MRTK's un-normalised values.
   */
  rotation?: RotationMode;
  /**
   * Whether to measure `maxDeviation` (default true). It samples the source and the result again
   * at every interval midpoint and source key time, which costs more than the resampling itself;
   * exporters that do not report it turn it off.
   */
  measureDeviation?: boolean;
}

/** What `resample` returns. */
export interface ResampleResult {
  /** The `uniform` clip: static curves stay static, every other curve gets `keyCount` float4 keys. */
  clip: AnimClip;
  /**
   * Largest absolute difference of any component between the source and `clip` (sampled with
   * nlerp) over the checked times: every interval's midpoint and every source key time inside the
   * clip, where piecewise-linear sources have their corners. Rotations are compared up to sign.
   */
  maxDeviation: number;
  /**
   * Where `maxDeviation` was found (seconds, curve index), or null when no time was checked (or
   * `measureDeviation` was false; `maxDeviation` is then 0).
   */
  maxDeviationAt: { time: number; curve: number } | null;
}

/** Times per `SampleManyJob` call of the deviation check: enough to amortise the call, few enough to keep its buffers small. */
const BLOCK = 1024;

/** The most keys (over all curves) one resampled or baked clip may have: a guard against giant allocations. */
export const MAX_OUTPUT_KEYS = 16_000_000;

/** Source key times inside [0, end] (Unity lanes' keys, uniform keys), where linear sources bend. */
function sourceKeyTimes(clip: AnimClip, end: number): number[] {
  const times = new Set<number>();
  for (const c of clip.curves) {
    if (c.keys.encoding !== 'unity') continue;
    for (const lane of c.keys.lanes) for (const t of lane.time) if (t > 0 && t < end) times.add(t);
  }
  if (clip.curves.some((c) => c.keys.encoding === 'uniform')) {
    for (let k = 1; k * clip.keyDuration < end; k++) times.add(k * clip.keyDuration);
  }
  return [...times];
}

/**
 * Keys per curve that `resample(core, clip, { fps })` makes: from 0 to the first key at or after the
 * clip's duration, or round(duration × fps) for a cycling clip (at least 1). Computed before any
 * allocation, so that callers can refuse an output that would be too large.
 * @throws UsageError for an `fps` that is not a finite number > 0
 */
export function resampledKeyCount(clip: AnimClip, fps: number): number {
  if (!(fps > 0) || !Number.isFinite(fps)) throw new UsageError(`fps must be a finite number > 0, got ${fps}`);
  return clip.postInfinity === 'cycle' ? Math.max(1, Math.round(clip.duration * fps)) : Math.ceil(clip.duration * fps - 1e-9) + 1;
}

/**
 * Turns any loadable clip (Unity-curve clips such as MRTK recordings, uniform clips such as
 * Nebula's) into a `uniform` clip by sampling it with `core` at every key time: key k at
 * k / fps seconds, from 0 to the first key at or after `clip.duration` (clip duration becomes
 * (keyCount − 1) / fps). A cycling clip (post-infinity `cycle`) instead gets round(duration × fps)
 * keys spaced to fill exactly one period, so it keeps cycling at the same rate. Sampling the
 * result at a key time gives the source's value there; between keys the result interpolates
 * (lerp, nlerp for rotations), and `maxDeviation` reports how far that strays. The clip is
 * loaded for the call when it is not loaded already; `core` holds nothing afterwards. Sampling is
 * one wasm call (`resampleKeys`, assembly/resample.ts) with the clip's own sampler at each key time.
 * @throws UsageError for an `fps` that is not a finite number > 0, a result of more than 16 million
 *   keys, `rotation: 'raw'` on a clip that is not Unity-curve, or clips the core cannot load
 */
export function resample(core: RuntimeOwner, clip: AnimClip, options: ResampleOptions): ResampleResult {
  return resampleClip(core, clip, options, false);
}

/**
 * `resample`; with `packXyz`, each translation or scale curve whose keys a reader left packed as
 * x y z (`packedValues` width 3: a glTF VEC3 output, so its float4 w is 0, and lerp or step
 * keep it 0) gets `packedUniformKeys`: the samples kept as x y z, the float4 `values` (w 0, as
 * `resample` gives them) made only when read. A glTF writer then copies them as its VEC3 output
 * (src/export/curve-track.ts), where a JS pass packed each float4 key (issue 15, gltf-resample).
 */
export function resampleClip(core: RuntimeOwner, clip: AnimClip, options: ResampleOptions, packXyz: boolean): ResampleResult {
  const { fps } = options;
  const cycle = clip.postInfinity === 'cycle';
  const keyCount = resampledKeyCount(clip, fps);
  if (keyCount * clip.curves.length > MAX_OUTPUT_KEYS) {
    throw new UsageError(`resampling "${clip.name}" (${clip.duration} s) at ${fps} fps makes ${keyCount} keys per curve; over ${MAX_OUTPUT_KEYS} keys in all`);
  }
  const keyDuration = cycle && clip.duration > 0 ? clip.duration / keyCount : 1 / fps;
  const duration = cycle ? keyCount * keyDuration : (keyCount - 1) * keyDuration;
  const runtime = core.runtime;
  const source = runtime.isLoaded(clip) ? null : new AnimResource({ format: 'resample-source', clips: [clip] });
  if (source) runtime.load(source);
  try {
    // Floats per key of each curve in the pool: 0 static (not sampled), 3 packed x y z, 4 float4.
    const widths = new Uint8Array(clip.curves.length);
    for (let i = 0; i < clip.curves.length; i++) widths[i] = keyWidth(clip.curves[i]!, packXyz);
    const pool = sampleKeys(core, clip, keyCount, keyDuration, options.rotation, widths);
    // A loop, not callbacks made per clip (V8 compiled those again for most clips resampled: issue 15).
    const curves: AnimCurve[] = [];
    for (let i = 0, at = 0; i < clip.curves.length; i++) {
      const c = clip.curves[i]!;
      const floats = widths[i]! * keyCount;
      if (floats === 0) {
        curves.push(c);
        continue;
      }
      const values = pool.subarray(at, (at += floats));
      const keys: CurveKeys = widths[i] === 3 ? packedUniformKeys(values) : { encoding: 'uniform', values };
      curves.push({ curveType: c.curveType, target: c.target, active: c.active, keys });
    }
    const out = new AnimClip({
      name: clip.name,
      curves,
      keyCount,
      keyDuration,
      duration,
      preInfinity: clip.preInfinity,
      postInfinity: clip.postInfinity,
      events: [...clip.events],
      metadata: { ...clip.metadata, resampledFps: fps },
    });
    if (options.measureDeviation === false) return { clip: out, maxDeviation: 0, maxDeviationAt: null };
    const checkTimes = sourceKeyTimes(clip, duration);
    for (let k = 0; k + 1 < keyCount || (cycle && k < keyCount); k++) checkTimes.push((k + 0.5) * keyDuration);
    return { clip: out, ...deviation(core, clip, out, Float64Array.from(checkTimes), options.rotation) };
  } finally {
    source?.dispose();
  }
}

/** Floats per resampled key of `curve` (`resampleClip`): 0 for a static curve, 3 for packed x y z, else 4. */
function keyWidth(curve: AnimCurve, packXyz: boolean): number {
  const keys = curve.keys;
  if (keys.encoding === 'static') return 0;
  const xyz = packXyz && keys.encoding === 'keyed' && (curve.curveType === 'translation' || curve.curveType === 'scale') && packedValues(keys)?.width === 3;
  return xyz ? 3 : 4;
}

/**
 * Samples `clip` at k · keyDuration for k < keyCount with one `resampleKeys` call (one instance,
 * the clip's own sampler per key time): returns one pool, curve-major, `widths[i] × keyCount`
 * floats per curve i in curve order (none for width 0; width 3: x y z of each sample).
 * @throws UsageError for `rotation: 'raw'` on a clip that is not Unity-curve (as `SampleManyJob`)
 */
function sampleKeys(core: RuntimeOwner, clip: AnimClip, keyCount: number, keyDuration: number, rotation: RotationMode | undefined, widths: Uint8Array): Float32Array {
  const runtime = core.runtime;
  const { loaded, flags } = runtime.plan(clip, { rotation });
  // Per sampled curve {slot, byte offset of its key 0 in the pool, width} (assembly/resample.ts).
  const list: number[] = [];
  let poolBytes = 0;
  for (let i = 0; i < widths.length; i++) {
    if (widths[i] === 0) continue;
    list.push(i, poolBytes, widths[i]!);
    poolBytes += 4 * widths[i]! * keyCount;
  }
  const n = clip.curves.length;
  // One block: the key pool, then the scratch (RESAMPLE_BATCH sample buffers, counts, cursors), then the list.
  const { ptr, arrays } = runtime.allocBlock(0, [poolBytes, RESAMPLE_BATCH * 16 * n, n, CURSOR_BYTES_PER_CURVE * n, 4 * list.length]);
  const [pool, samples, counts, cursors, entries] = arrays as [number, number, number, number, number];
  try {
    runtime.u32.set(list, entries >>> 2);
    runtime.kernel.resampleKeys(loaded.ptr, loaded.kind, flags, keyCount, keyDuration, samples, 16 * n, counts, cursors, entries, list.length / 3, pool);
    return runtime.f32.slice(pool >>> 2, (pool + poolBytes) >>> 2);
  } finally {
    runtime.free(ptr);
  }
}

/**
 * The largest difference between `source` and its resampled `out` at `times` (rotations up to
 * sign; curves with sample count 0 skipped), sampling both in blocks of `SampleManyJob` calls.
 */
function deviation(
  core: RuntimeOwner,
  source: AnimClip,
  out: AnimClip,
  times: Float64Array,
  rotation: RotationMode | undefined,
): Pick<ResampleResult, 'maxDeviation' | 'maxDeviationAt'> {
  let maxDeviation = 0;
  let maxDeviationAt: ResampleResult['maxDeviationAt'] = null;
  if (times.length === 0) return { maxDeviation, maxDeviationAt };
  const result = new AnimResource({ format: 'resample-result', clips: [out] });
  core.runtime.load(result);
  const instances = Math.min(BLOCK, times.length);
  const sourceJob = new SampleManyJob(core, { clip: source, instances, rotation });
  const outJob = new SampleManyJob(core, { clip: out, instances });
  const n = source.curves.length;
  const rotations = source.curves.map((c) => c.curveType === 'rotation');
  try {
    for (let first = 0; first < times.length; first += BLOCK) {
      const count = Math.min(BLOCK, times.length - first);
      const block = times.subarray(first, first + count);
      sourceJob.run(block);
      outJob.run(block);
      const a = sourceJob.samples;
      const b = outJob.samples;
      const ca = sourceJob.counts;
      for (let k = 0; k < count; k++) {
        for (let i = 0; i < n; i++) {
          if (ca[k * n + i] === 0) continue;
          let same = 0;
          let flipped = 0;
          for (let c = 4 * (k * n + i), end = c + 4; c < end; c++) {
            same = Math.max(same, Math.abs(a[c]! - b[c]!));
            flipped = Math.max(flipped, Math.abs(a[c]! + b[c]!));
          }
          const d = rotations[i] ? Math.min(same, flipped) : same;
          if (d > maxDeviation || maxDeviationAt === null) {
            maxDeviation = Math.max(maxDeviation, d);
            maxDeviationAt = { time: block[k]!, curve: i };
          }
        }
      }
    }
  } finally {
    sourceJob.dispose();
    outJob.dispose();
    result.dispose();
  }
  return { maxDeviation, maxDeviationAt };
}
