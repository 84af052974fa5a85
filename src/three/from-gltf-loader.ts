import { type AnimationClip, type KeyframeTrack, type Object3D, InterpolateDiscrete, InterpolateLinear, PropertyBinding } from 'three';
import { AnimClip, type AnimCurve, AnimResource, type CurveKeys, type Joint, Skeleton, UsageError } from 'animcore';

/** What `GLTFLoader` gives (the part animcore reads). */
export interface GltfLoaderResult {
  scene: Object3D;
  animations: AnimationClip[];
}

/** A GLTFLoader scene as an animcore resource, and the three.js object of each joint. */
export interface GltfLoaderResource {
  /** Format `gltf-three`: one clip per `animations` entry, the scene graph as the skeleton. */
  resource: AnimResource;
  /** `objects[j]` is the three.js object of skeleton joint j (scene traversal order). */
  objects: Object3D[];
}

const PROPERTIES: Readonly<Record<string, 'translation' | 'rotation' | 'scale'>> = { position: 'translation', quaternion: 'rotation', scale: 'scale' };

/**
 * Reads a `GLTFLoader` result into the model, so that animcore plays what three.js's
 * `AnimationMixer` would: every object of `gltf.scene` (traversal order, the scene root first) is a
 * joint named as three.js binds tracks (`object.name`, else its `uuid`), resting at its current
 * position, quaternion, scale (and morph target influences); every clip becomes an `AnimClip` of
 * the same name and duration whose curves are its tracks in order — `position`, `quaternion`,
 * `scale` one curve each, `morphTargetInfluences` one `float` curve per target (`weights/<k>`);
 * linear tracks → `keyed`, discrete → `keyed` `step`, GLTFLoader's cubic-spline tracks → `cubic`
 * (glTF 2.0 Appendix C, as GLTFLoader's interpolant). Rotations slerp, as three.js's do.
 * Nothing of `gltf` is modified.
 * @throws UsageError for a track that is not one of these (another property or interpolation)
 */
export function fromGltfLoader(gltf: GltfLoaderResult): GltfLoaderResource {
  const objects: Object3D[] = [];
  gltf.scene.traverse((o) => objects.push(o));
  const index = new Map(objects.map((o, i) => [o, i]));
  const joints: Joint[] = objects.map((o) => {
    const joint: Joint = {
      name: o.name || o.uuid,
      parent: o === gltf.scene || o.parent === null ? -1 : (index.get(o.parent) ?? -1),
      rest: { translation: o.position.toArray(), rotation: o.quaternion.toArray() as Joint['rest']['rotation'], scale: o.scale.toArray() },
    };
    const influences = (o as Object3D & { morphTargetInfluences?: number[] }).morphTargetInfluences;
    if (influences !== undefined && influences.length > 0) joint.morphWeights = [...influences];
    return joint;
  });
  const clips = gltf.animations.map(
    (clip) => new AnimClip({ name: clip.name, duration: clip.duration, rotation: 'slerp', curves: clip.tracks.flatMap((track) => trackCurves(clip, track)) }),
  );
  return { resource: new AnimResource({ format: 'gltf-three', clips, skeleton: new Skeleton(joints) }), objects };
}

/** The curves of one track (several for morph target influences). */
function trackCurves(clip: AnimationClip, track: KeyframeTrack): AnimCurve[] {
  const { nodeName, propertyName, propertyIndex } = PropertyBinding.parseTrackName(track.name);
  // GLTFLoader marks its cubic-spline interpolant factory (not in three's types).
  const factory = (track as unknown as { createInterpolant: { isInterpolantFactoryMethodGLTFCubicSpline?: boolean } }).createInterpolant;
  const cubic = factory.isInterpolantFactoryMethodGLTFCubicSpline === true;
  const interpolation = track.getInterpolation();
  if (!cubic && interpolation !== InterpolateLinear && interpolation !== InterpolateDiscrete) {
    throw new UsageError(`clip "${clip.name}" track "${track.name}": only linear, discrete and glTF cubic-spline tracks are read`);
  }
  const n = track.times.length;
  const parts = cubic ? 3 : 1;
  const width = track.values.length / (n * parts);
  const keys = (lane: number, size: number): CurveKeys => {
    const out = new Float32Array((cubic ? 12 : 4) * n);
    for (let k = 0; k < n; k++) {
      for (let p = 0; p < parts; p++) {
        for (let c = 0; c < size; c++) out[(cubic ? 12 : 4) * k + 4 * p + c] = track.values[(parts * k + p) * width + lane + c]!;
      }
    }
    const times = Float32Array.from(track.times);
    if (cubic) return { encoding: 'cubic', times, values: out };
    return { encoding: 'keyed', times, values: out, interpolation: interpolation === InterpolateDiscrete ? 'step' : 'linear' };
  };
  const property = PROPERTIES[propertyName];
  if (property !== undefined) {
    return [{ curveType: property, target: { joint: nodeName, property }, active: true, keys: keys(0, property === 'rotation' ? 4 : 3) }];
  }
  if (propertyName === 'morphTargetInfluences') {
    const first = propertyIndex === undefined ? 0 : Number(propertyIndex);
    return Array.from({ length: width }, (_, k) => ({ curveType: 'float' as const, target: { joint: nodeName, property: `weights/${first + k}` }, active: true, keys: keys(k, 1) }));
  }
  throw new UsageError(`clip "${clip.name}" track "${track.name}": property "${propertyName}" is not position, quaternion, scale or morphTargetInfluences`);
}
