import { alignRotationKeys, type AnimClip, type AnimCurve, type SampleArrays, type SampleOptions } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { type F4, lerp4, nlerp, slerp } from './quat.js';
import { uniformKeyPair } from './uniform-key.js';

const aligned = new WeakMap<AnimCurve, Float32Array>();

/** Rotation keys sign-aligned as the core aligns them at load time, plus the cycling key. */
function alignedKeys(curve: AnimCurve & { keys: { encoding: 'uniform' } }, keyCount: number): Float32Array {
  let keys = aligned.get(curve);
  if (!keys) {
    keys = alignRotationKeys(curve.keys.values, keyCount);
    aligned.set(curve, keys);
  }
  return keys;
}

/**
 * Plain-TypeScript twin of the core's uniform clip sampler (`uniformClipSample`, Nebula3 2009
 * semantics, spec nebula.md §3.3–3.4): the same key pair, lerp for every type but Rotation,
 * nlerp (default) or slerp for rotations over sign-aligned keys, static curves as stored,
 * inactive curves with count 0 and their static value or key 0, Velocity scaled by `timeFactor`.
 * Writes `out.samples` (4 × curveCount) and `out.counts`. Arithmetic in float64.
 */
export function referenceSampleUniform(clip: AnimClip, time: number, out: SampleArrays, options: SampleOptions = {}): void {
  if (out.counts.length < clip.curves.length || out.samples.length < 4 * clip.curves.length) {
    throw new UsageError(`output holds fewer than the clip's ${clip.curves.length} curves`);
  }
  const { k0, k1, w } = clip.keyCount > 0 ? uniformKeyPair(clip, time) : { k0: 0, k1: 0, w: 0 };
  const step = options.sampleType === 'step';
  const useSlerp = options.rotation === 'slerp';
  const timeFactor = options.timeFactor ?? 1;
  clip.curves.forEach((curve, i) => {
    let v: F4;
    const keys = curve.keys;
    if (keys.encoding === 'static') {
      v = [keys.value[0]!, keys.value[1]!, keys.value[2]!, keys.value[3]!];
    } else if (keys.encoding === 'uniform') {
      if (!curve.active) {
        v = [keys.values[0]!, keys.values[1]!, keys.values[2]!, keys.values[3]!];
      } else {
        const rotation = curve.curveType === 'rotation';
        const src = rotation ? alignedKeys(curve as never, clip.keyCount) : keys.values;
        // k1 == keyCount is key 0 after the last key: for rotations the aligned copy, else key 0.
        const i1 = k1 === clip.keyCount && !rotation ? 0 : 4 * k1;
        if (step) v = [src[4 * k0]!, src[4 * k0 + 1]!, src[4 * k0 + 2]!, src[4 * k0 + 3]!];
        else if (!rotation) v = lerp4(src, 4 * k0, src, i1, w);
        else if (useSlerp) v = slerp(src, 4 * k0, src, i1, w);
        else v = nlerp(src, 4 * k0, src, i1, w, false);
      }
    } else {
      throw new UsageError(`curve ${i}: the uniform sampler cannot sample ${(keys as { encoding: string }).encoding} keys`);
    }
    if (curve.curveType === 'velocity' && timeFactor !== 1) {
      v = [v[0] * timeFactor, v[1] * timeFactor, v[2] * timeFactor, v[3]];
    }
    out.samples.set(v, 4 * i);
    out.counts[i] = curve.active ? 1 : 0;
  });
}
