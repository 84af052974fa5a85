import { type AnimClip, type AnimCurve, restValue, type SampleArrays, type SampleOptions, withClosingKey } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { cubicSample } from './cubic-key.js';
import { keyedKeyPair } from './keyed-key.js';
import { referenceSampleUnity } from './sample-unity.js';
import { type F4, lerp4, nlerp, slerp } from './quat.js';
import { uniformKeyPair } from './uniform-key.js';
import { wrapCycle } from './wrap-cycle.js';

const prepared = new WeakMap<AnimCurve, Float32Array>();

/**
 * A curve's keys as the core stores them at load time: uniform keys with the closing key of a
 * cycling clip (`withClosingKey`, rotations sign-aligned), keyed keys as they are.
 */
function storedKeys(curve: AnimCurve, clip: AnimClip): Float32Array {
  let keys = prepared.get(curve);
  if (!keys) {
    const k = curve.keys;
    const rotation = curve.curveType === 'rotation';
    if (k.encoding === 'uniform') keys = withClosingKey(k.values, clip.keyCount, rotation);
    else if (k.encoding === 'keyed') keys = k.values;
    else throw new UsageError(`${k.encoding} keys have no stored float4 keys`);
    prepared.set(curve, keys);
  }
  return keys;
}

/**
 * Plain-TypeScript twin of the core's clip samplers (`uniformSampleSlots`, `keyedSampleSlots`,
 * `cubicSampleSlots`; Unity-curve clips go to `referenceSampleUnity`, the twin of
 * `unityClipSample`): uniform curves with Nebula3 2009 semantics (spec nebula.md §3.3–3.4) over
 * keys sign-aligned at load; keyed curves per spec aaf.md §2.3 and glTF 2.0 Appendix C (a `step`
 * curve holds key k0; a rotation takes the shorter arc between the two keys as stored, so a key's
 * exact time gives that key as stored); cubic curves by `cubicSample`. Lerp for every type but
 * Rotation; rotations by `options.rotation`, else the clip's `rotation` (nlerp or slerp);
 * `sampleType: 'step'` returns key k0; static curves as stored; inactive curves count 0 with their
 * static value or key 0; Velocity scaled by `timeFactor`. Writes `out.samples` (4 × curveCount)
 * and `out.counts`. Arithmetic in float64.
 * @throws UsageError when `out` is too small
 */
export function referenceSample(clip: AnimClip, time: number, out: SampleArrays, options: SampleOptions = {}): void {
  if (clip.curves.some((c) => c.keys.encoding === 'unity')) {
    referenceSampleUnity(clip, time, out, options);
    return;
  }
  if (out.counts.length < clip.curves.length || out.samples.length < 4 * clip.curves.length) {
    throw new UsageError(`output holds fewer than the clip's ${clip.curves.length} curves`);
  }
  const uniformPair = clip.keyCount > 0 ? uniformKeyPair(clip, time) : { k0: 0, k1: 0, w: 0 };
  const keyedTime = wrapCycle(clip, time);
  const step = options.sampleType === 'step';
  const useSlerp = (options.rotation ?? clip.rotation) === 'slerp';
  const timeFactor = options.timeFactor ?? 1;
  clip.curves.forEach((curve, i) => {
    const keys = curve.keys;
    let v: F4;
    const rotation = curve.curveType === 'rotation';
    if (keys.encoding === 'static' || keys.encoding === 'unity' || !curve.active) {
      const src = restValue(keys);
      v = [src[0]!, src[1]!, src[2]!, src[3]!];
    } else if (keys.encoding === 'cubic') {
      v = cubicSample(keys, keyedTime, rotation, step);
    } else {
      const keyed = keys.encoding === 'keyed';
      const src = storedKeys(curve, clip);
      // For uniform keys k1 == keyCount is the closing key (key 0 after the last key).
      const { k0, k1, w } = keyed ? keyedKeyPair(keys, keyedTime) : uniformPair;
      // Keyed kernels copy the key outside the key range and for step curves; the uniform kernel blends k0 with itself.
      if (step || (keyed && (k0 === k1 || keys.interpolation === 'step'))) v = [src[4 * k0]!, src[4 * k0 + 1]!, src[4 * k0 + 2]!, src[4 * k0 + 3]!];
      else if (!rotation) v = lerp4(src, 4 * k0, src, 4 * k1, w);
      else if (useSlerp) v = slerp(src, 4 * k0, src, 4 * k1, w);
      else v = nlerp(src, 4 * k0, src, 4 * k1, w, keyed);
    }
    if (curve.curveType === 'velocity' && timeFactor !== 1) {
      v = [v[0] * timeFactor, v[1] * timeFactor, v[2] * timeFactor, v[3]];
    }
    out.samples.set(v, 4 * i);
    out.counts[i] = curve.active ? 1 : 0;
  });
}
