import { AnimationClip, type KeyframeTrack, QuaternionKeyframeTrack, VectorKeyframeTrack } from 'three';
import { alignRotationKeys, type AnimClip, type AnimCurve, bindJoints, referenceSample, type Skeleton } from 'animcore';

/** three.js property names of the joint properties. */
const PROPERTY = { translation: 'position', rotation: 'quaternion', scale: 'scale' } as const;

/** Rate at which Unity-curve clips (MRTK) are baked into linear keys, in keys per second. */
export const UNITY_BAKE_RATE = 60;

/**
 * The clip as a `THREE.AnimationClip` for three.js's own `AnimationMixer`: one track per curve
 * that drives a joint of `skeleton` (`bindJoints`; first curve per joint property), named
 * `<joint>.position|quaternion|scale` so it binds to bones named after the joints (see
 * `toThreeSkeleton`). Inactive curves give no track (the bone keeps its rest value, as the core's
 * local-to-model does). Duration is the clip's.
 *
 * Keys: uniform curves at `k × keyDuration` plus a closing key at the duration (key 0 again for
 * Cycle post-infinity, the last key held for Constant — the core's rule, spec nebula.md §3.3);
 * keyed curves at their own times; static curves one key; Unity-curve clips are baked at
 * `UNITY_BAKE_RATE` with the reference sampler. Rotation keys are sign-aligned as the core aligns
 * them. three.js slerps rotations and lerps the rest: play with `rotation: 'slerp'` to match.
 * Pre-infinity is not represented (three.js clamps or loops the whole clip).
 */
export function toThreeAnimationClip(clip: AnimClip, skeleton: Skeleton): AnimationClip {
  const binding = bindJoints(clip.curves, skeleton);
  const unity = clip.curves.some((c) => c.keys.encoding === 'unity');
  const baked = unity ? bake(clip) : null;
  const tracks: KeyframeTrack[] = [];
  skeleton.joints.forEach((joint, j) => {
    (['translation', 'rotation', 'scale'] as const).forEach((property, p) => {
      const index = binding.curves[3 * j + p]!;
      const curve = index < 0 ? undefined : clip.curves[index];
      if (curve === undefined || !curve.active) return;
      const [times, values] = baked === null ? curveKeys(clip, curve) : [baked.times, baked.values(index)];
      const name = `${joint.name}.${PROPERTY[property]}`;
      tracks.push(property === 'rotation' ? new QuaternionKeyframeTrack(name, times, values) : new VectorKeyframeTrack(name, times, xyz(values)));
    });
  });
  return new AnimationClip(clip.name, clip.duration, tracks);
}

/** Key times (seconds) and float4 values of one curve, as the core samples it. */
function curveKeys(clip: AnimClip, curve: AnimCurve): [Float32Array, Float32Array] {
  const keys = curve.keys;
  const rotation = curve.curveType === 'rotation';
  switch (keys.encoding) {
    case 'static':
    case 'unity':
      return [Float32Array.of(0), keys.encoding === 'static' ? keys.value.slice(0, 4) : new Float32Array(4)];
    case 'keyed':
      return [keys.times.slice(), rotation ? alignRotationKeys(keys.values, keys.times.length).subarray(0, keys.values.length) : keys.values.slice()];
    case 'uniform': {
      const n = clip.keyCount;
      const times = Float32Array.from({ length: n + 1 }, (_, k) => k * clip.keyDuration);
      // alignRotationKeys appends key 0 aligned to the last key: the cycling closing key.
      const values = rotation ? alignRotationKeys(keys.values, n) : new Float32Array(4 * (n + 1));
      if (!rotation) {
        values.set(keys.values);
        values.set(keys.values.subarray(0, 4), 4 * n);
      }
      if (clip.postInfinity !== 'cycle') values.copyWithin(4 * n, 4 * (n - 1), 4 * n);
      return [times, values];
    }
  }
}

/** A Unity-curve clip sampled at `UNITY_BAKE_RATE` (the core's corrected rotations). */
function bake(clip: AnimClip): { times: Float32Array; values(curve: number): Float32Array } {
  const count = Math.max(1, Math.ceil(clip.duration * UNITY_BAKE_RATE) + 1);
  const times = Float32Array.from({ length: count }, (_, k) => Math.min(clip.duration, k / UNITY_BAKE_RATE));
  const c = clip.curves.length;
  const all = new Float32Array(4 * c * count);
  const out = { samples: new Float32Array(4 * c), counts: new Uint8Array(c) };
  times.forEach((t, k) => {
    referenceSample(clip, t, out);
    all.set(out.samples, 4 * c * k);
  });
  return {
    times,
    values: (curve) => Float32Array.from({ length: 4 * count }, (_, i) => all[4 * c * (i >> 2) + 4 * curve + (i & 3)]!),
  };
}

/** x y z of every float4. */
function xyz(values: Float32Array): Float32Array {
  return Float32Array.from({ length: (values.length / 4) * 3 }, (_, i) => values[4 * Math.floor(i / 3) + (i % 3)]!);
}
