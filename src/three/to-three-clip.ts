import { AnimationClip, type KeyframeTrack, QuaternionKeyframeTrack, VectorKeyframeTrack } from 'three';
import { type AnimClip, type AnimCore, bindJoints, curveTrack, exportClip, JOINT_PROPERTIES, type Skeleton, UNITY_EXPORT_FPS, UsageError } from 'animcore';
import { boneName } from './bone-name.js';

/** three.js property names of the joint properties. */
const PROPERTY = { translation: 'position', rotation: 'quaternion', scale: 'scale' } as const;

/** Rate at which Unity-curve clips (MRTK) are baked into linear keys, in keys per second (the exporter's). */
export const UNITY_BAKE_RATE = UNITY_EXPORT_FPS;

/**
 * The clip as a `THREE.AnimationClip` for three.js's own `AnimationMixer`: one track per curve
 * that drives a joint of `skeleton` (`bindJoints`; first curve per joint property), named
 * `<bone>.position|quaternion|scale` (`boneName`, as `toThreeSkeleton` names the bones) so it
 * binds to them. Inactive curves give no track (the bone keeps its rest value, as the core's
 * local-to-model does). Duration is the clip's.
 *
 * Keys are the glTF exporter's tracks (`curveTrack`): uniform curves at `k × keyDuration` (plus the
 * closing key 0 of a cycling clip), keyed curves at their own times (step curves held), static
 * curves one key, rotations normalised. Clips with Unity-curve (MRTK) or cubic-spline keys are
 * first baked at `UNITY_BAKE_RATE` keys per second by `core`'s resampler (`exportClip`). three.js slerps
 * rotations and lerps the rest: play with `rotation: 'slerp'` to match. Pre-infinity is not
 * represented (three.js clamps or loops the whole clip).
 * @throws UsageError for a clip with Unity-curve or cubic keys without `core`
 */
export function toThreeAnimationClip(clip: AnimClip, skeleton: Skeleton, core?: AnimCore): AnimationClip {
  const curved = clip.curves.some((c) => c.keys.encoding === 'unity' || c.keys.encoding === 'cubic');
  if (curved && core === undefined) throw new UsageError(`clip "${clip.name}" has Unity-curve or cubic keys: pass the core that bakes them`);
  const keyed = curved ? exportClip(core!, clip) : clip;
  const binding = bindJoints(keyed.curves, skeleton);
  const tracks: KeyframeTrack[] = [];
  skeleton.joints.forEach((joint, j) => {
    JOINT_PROPERTIES.forEach((property, p) => {
      const index = binding.curves[3 * j + p]!;
      const curve = index < 0 ? undefined : keyed.curves[index];
      if (curve === undefined || !curve.active) return;
      const { times, values } = curveTrack(keyed, curve);
      const name = `${boneName(joint.name)}.${PROPERTY[property]}`;
      // Times of their own: three.js keeps the array and changes it in place (KeyframeTrack.optimize, shift, scale), while a clip's uniform tracks share one.
      tracks.push(property === 'rotation' ? new QuaternionKeyframeTrack(name, times.slice(), values) : new VectorKeyframeTrack(name, times.slice(), xyz(values)));
    });
  });
  return new AnimationClip(clip.name, clip.duration, tracks);
}

/** x y z of every float4. */
function xyz(values: Float32Array): Float32Array {
  return Float32Array.from({ length: (values.length / 4) * 3 }, (_, i) => values[4 * Math.floor(i / 3) + (i % 3)]!);
}
