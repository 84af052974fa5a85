import { AnimClip, type AnimCurve, AnimResource, type RotationMode } from '../anim/index.js';
import { UsageError } from '../errors.js';
import type { AnimCore } from './anim-core.js';

export interface ResampleOptions {
  /** Keys per second, a finite number > 0. */
  fps: number;
  /**
   * How the source's rotations are sampled; default `nlerp` (for Unity-curve clips: corrected,
   * hemisphere-aligned and normalised). `raw` keeps MRTK's un-normalised values.
   */
  rotation?: RotationMode;
}

export interface ResampleResult {
  /** The `uniform` clip: static curves stay static, every other curve gets `keyCount` float4 keys. */
  clip: AnimClip;
  /**
   * Largest absolute difference of any component between the source and `clip` (sampled with
   * nlerp) over the checked times: every interval's midpoint and every source key time inside the
   * clip, where piecewise-linear sources have their corners. Rotations are compared up to sign.
   */
  maxDeviation: number;
  /** Where `maxDeviation` was found (seconds, curve index), or null when no time was checked. */
  maxDeviationAt: { time: number; curve: number } | null;
}

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
 * Turns any loadable clip (Unity-curve clips such as MRTK recordings, uniform clips such as
 * Nebula's) into a `uniform` clip by sampling it with `core` at every key time: key k at
 * k / fps seconds, from 0 to the first key at or after `clip.duration` (clip duration becomes
 * (keyCount − 1) / fps). A cycling clip (post-infinity `cycle`) instead gets round(duration × fps)
 * keys spaced to fill exactly one period, so it keeps cycling at the same rate. Sampling the
 * result at a key time gives the source's value there; between keys the result interpolates
 * (lerp, nlerp for rotations), and `maxDeviation` reports how far that strays. The clip is
 * loaded for the call when it is not loaded already; `core` holds nothing afterwards.
 * @throws UsageError for an `fps` that is not a finite number > 0, or clips the core cannot load
 */
export function resample(core: AnimCore, clip: AnimClip, options: ResampleOptions): ResampleResult {
  const { fps } = options;
  if (!(fps > 0) || !Number.isFinite(fps)) throw new UsageError(`fps must be a finite number > 0, got ${fps}`);
  const cycle = clip.postInfinity === 'cycle';
  const keyCount = cycle ? Math.max(1, Math.round(clip.duration * fps)) : Math.ceil(clip.duration * fps - 1e-9) + 1;
  const keyDuration = cycle && clip.duration > 0 ? clip.duration / keyCount : 1 / fps;
  const duration = cycle ? keyCount * keyDuration : (keyCount - 1) * keyDuration;
  const source = core.isLoaded(clip) ? null : new AnimResource({ format: 'resample-source', clips: [clip] });
  if (source) core.load(source);
  const buf = core.createSampleBuffer(clip);
  const n = clip.curves.length;
  try {
    const keys = clip.curves.map((c) => (c.keys.encoding === 'static' ? null : new Float32Array(4 * keyCount)));
    const sampleOptions = { rotation: options.rotation };
    for (let k = 0; k < keyCount; k++) {
      core.sampler.sample(clip, k * keyDuration, buf, sampleOptions);
      const s = buf.samples;
      keys.forEach((values, i) => values?.set(s.subarray(4 * i, 4 * i + 4), 4 * k));
    }
    const curves: AnimCurve[] = clip.curves.map((c, i) => {
      const values = keys[i];
      return values ? { curveType: c.curveType, target: c.target, active: c.active, keys: { encoding: 'uniform', values } } : c;
    });
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

    const result = new AnimResource({ format: 'resample-result', clips: [out] });
    core.load(result);
    const outBuf = core.createSampleBuffer(out);
    let maxDeviation = 0;
    let maxDeviationAt: ResampleResult['maxDeviationAt'] = null;
    try {
      const times = sourceKeyTimes(clip, duration);
      for (let k = 0; k + 1 < keyCount || (cycle && k < keyCount); k++) times.push((k + 0.5) * keyDuration);
      for (const t of times) {
        core.sampler.sample(clip, t, buf, sampleOptions);
        core.sampler.sample(out, t, outBuf);
        const a = buf.samples;
        const b = outBuf.samples;
        const ca = buf.counts;
        for (let i = 0; i < n; i++) {
          if (ca[i] === 0) continue;
          let same = 0;
          let flipped = 0;
          for (let c = 4 * i; c < 4 * i + 4; c++) {
            same = Math.max(same, Math.abs(a[c]! - b[c]!));
            flipped = Math.max(flipped, Math.abs(a[c]! + b[c]!));
          }
          const d = clip.curves[i]!.curveType === 'rotation' ? Math.min(same, flipped) : same;
          if (d > maxDeviation || maxDeviationAt === null) {
            maxDeviation = Math.max(maxDeviation, d);
            maxDeviationAt = { time: t, curve: i };
          }
        }
      }
    } finally {
      outBuf.dispose();
      result.dispose();
    }
    return { clip: out, maxDeviation, maxDeviationAt };
  } finally {
    buf.dispose();
    source?.dispose();
  }
}
