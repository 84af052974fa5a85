import { AnimClip, type AnimCurve, AnimResource, type JointPose, type KeyedKeys, type Mesh, Skeleton, type SourceAxes, staticKeys } from '../../anim/index.js';
import type { AafAnimation, AafAnimationObject, AafChannelName, AafKeys } from './animation.js';
import { type AafHeader, formatNameText } from './header.js';
import { AAF_ANIMATION_FORMAT } from './read-animation.js';
import { AAF_SCENE_FORMAT } from './read-scene.js';
import { AAF_VERTEX_FLOATS, type AafScene, sceneVariantLabel } from './scene.js';
import { aafSecondsPerUnit, type AafTimeOptions } from './time.js';
import { quote } from '../text.js';

/**
 * The post does not state a coordinate system; the spec keeps file space (spec aaf.md §1). Taken
 * as Y-up, right-handed — glTF's, so exports keep the values as stored (the teapot man stands along +Y).
 */
export const AAF_AXES: SourceAxes = { up: 'y', handedness: 'right', basis: 'not stated by the format, file space kept (spec aaf.md §1)' };

export interface AafResourceOptions extends AafTimeOptions {
  /** Name of the clip. Default `animation` (the file has no clip name). */
  clipName?: string;
}

/** Identity rest pose: position 0, rotation (0,0,0,1), scale 1 (spec aaf.md §2.3). */
const IDENTITY: JointPose = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };

/** One joint the clip drives: its name, rest pose, and the animation object bound to it, if any. */
interface ClipTarget {
  joint: string;
  rest: JointPose;
  object: AafAnimationObject | undefined;
}

const PROPERTIES: readonly { channel: AafChannelName; curveType: 'translation' | 'rotation' | 'scale' }[] = [
  { channel: 'position', curveType: 'translation' },
  { channel: 'rotation', curveType: 'rotation' },
  { channel: 'scale', curveType: 'scale' },
];

/**
 * An animation file as a resource without a scene (spec aaf.md §2.3): one clip with three curves
 * per object (translation, rotation, scale, targeting `{ joint: objectName, property }`); animated
 * channels become `keyed` curves (times in seconds, see `AafTimeOptions`), absent ones static
 * identity. Clip duration is `animLength` in seconds. Duplicate object names are warned about.
 * @throws UsageError for bad time options
 */
export function aafAnimationToResource(anim: AafAnimation, options: AafResourceOptions = {}): AnimResource {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const o of anim.objects) {
    if (seen.has(o.name.text)) warnings.push(`animation object name ${quote(o.name.text)} occurs more than once; curves target the same joint name`);
    seen.add(o.name.text);
  }
  const targets = anim.objects.map((object) => ({ joint: object.name.text, rest: IDENTITY, object }));
  const clip = keyedClip(anim, targets, options, warnings);
  return new AnimResource({ format: AAF_ANIMATION_FORMAT, clips: [clip], info: animationInfo(anim, options), warnings, axes: AAF_AXES });
}

/**
 * A scene file, optionally with its animation, as a resource (spec aaf.md §3, §3.2): a
 * `Skeleton` with one joint per object in pre-order (rest pose = the object's local position,
 * rotation, scale), one `Mesh` per surface carried by its object's joint, and one clip with
 * translation, rotation, scale curves per joint. Animation objects bind to scene objects by
 * exact (decoded) name; a duplicated scene name binds the first object in pre-order, a
 * duplicated animation name binds its first object; duplicates and animation objects without a
 * scene object are reported in `warnings` and `info.binding`. Joints without an animated channel
 * keep their rest value (static curves). Without an animation the clip is `rest`: static rest
 * curves, duration 0.
 * @throws UsageError for bad time options
 */
export function aafSceneToResource(scene: AafScene, animation?: AafAnimation, options: AafResourceOptions = {}): AnimResource {
  const warnings: string[] = [];
  const skeleton = new Skeleton(
    scene.objects.map((o) => ({
      name: o.name.text,
      parent: o.parent,
      rest: { translation: [...o.position], rotation: [...o.rotation], scale: [...o.scale] },
    })),
  );
  const firstJoint = new Map<string, number>();
  const duplicateSceneNames = new Set<string>();
  skeleton.joints.forEach((j, i) => (firstJoint.has(j.name) ? duplicateSceneNames.add(j.name) : firstJoint.set(j.name, i)));
  for (const name of duplicateSceneNames) warnings.push(`scene object name ${quote(name)} occurs more than once; the first in pre-order is bound`);
  const bound = new Map<number, AafAnimationObject>();
  const unmatched: string[] = [];
  const duplicateAnimationNames = new Set<string>();
  for (const o of animation?.objects ?? []) {
    const j = firstJoint.get(o.name.text);
    if (j === undefined) unmatched.push(o.name.text);
    else if (bound.has(j)) duplicateAnimationNames.add(o.name.text);
    else bound.set(j, o);
  }
  for (const name of unmatched) warnings.push(`animation object ${quote(name)} has no scene object of that name; its channels are not used`);
  for (const name of duplicateAnimationNames) warnings.push(`animation object name ${quote(name)} occurs more than once; the first is bound`);
  const targets = skeleton.joints.map((j, i) => ({ joint: j.name, rest: j.rest, object: bound.get(i) }));
  const clip = animation
    ? keyedClip(animation, targets, options, warnings)
    : new AnimClip({ name: 'rest', curves: targets.flatMap((t) => restCurves(t)), duration: 0 });
  const info: Record<string, unknown> = {
    ...headerInfo(scene.header),
    variant: sceneVariantLabel(scene.variant),
    alsoMatches: scene.alsoMatches.map(sceneVariantLabel),
    objectCount: scene.objects.length,
    rootCount: scene.objects.filter((o) => o.parent === -1).length,
    surfaceCount: scene.objects.reduce((n, o) => n + o.surfaces.length, 0),
  };
  if (animation) {
    info.animation = animationInfo(animation, options);
    info.binding = {
      bound: bound.size,
      unanimated: targets.filter((t) => !t.object).map((t) => t.joint),
      unmatchedAnimationObjects: unmatched,
      duplicateSceneNames: [...duplicateSceneNames],
      duplicateAnimationNames: [...duplicateAnimationNames],
    };
  }
  return new AnimResource({ format: AAF_SCENE_FORMAT, clips: [clip], skeleton, meshes: sceneMeshes(scene), info, warnings, axes: AAF_AXES });
}

/** One mesh per surface: positions, uvw and normals split out of the 9-float vertices. */
function sceneMeshes(scene: AafScene): Mesh[] {
  return scene.objects.flatMap((o, joint) =>
    o.surfaces.map((s, k) => {
      const n = s.vertices.length / AAF_VERTEX_FLOATS;
      const positions = new Float32Array(3 * n);
      const uvs = new Float32Array(3 * n);
      const normals = new Float32Array(3 * n);
      for (let v = 0; v < n; v++) {
        const src = s.vertices.subarray(AAF_VERTEX_FLOATS * v, AAF_VERTEX_FLOATS * (v + 1));
        positions.set(src.subarray(0, 3), 3 * v);
        uvs.set(src.subarray(3, 6), 3 * v);
        normals.set(src.subarray(6, 9), 3 * v);
      }
      const name = o.surfaces.length === 1 ? o.name.text : `${o.name.text}#${k}`;
      return { name, joint, positions, normals, uvs, uvSize: 3, indices: s.indices };
    }),
  );
}

function keyedClip(anim: AafAnimation, targets: ClipTarget[], options: AafResourceOptions, warnings: string[]): AnimClip {
  const spu = aafSecondsPerUnit(options);
  const curves = targets.flatMap((t) =>
    PROPERTIES.map(({ channel, curveType }, p): AnimCurve => {
      const keys = t.object?.[channel];
      if (keys && keys.times.length === 0) warnings.push(`object ${quote(t.joint)} ${channel} channel is flagged but has no keys; it keeps its rest value`);
      if (!keys || keys.times.length === 0) return restCurves(t)[p]!;
      return { curveType, target: { joint: t.joint, property: curveType }, active: true, keys: keyedKeys(keys, channel === 'rotation' ? 4 : 3, spu) };
    }),
  );
  return new AnimClip({
    name: options.clipName ?? 'animation',
    curves,
    duration: anim.animLength * spu,
    metadata: { animLength: anim.animLength, secondsPerUnit: spu },
  });
}

/** Static translation, rotation and scale curves holding `t.rest`. */
function restCurves(t: ClipTarget): AnimCurve[] {
  const { translation: p, rotation: q, scale: s } = t.rest;
  return [
    { curveType: 'translation', target: { joint: t.joint, property: 'translation' }, active: true, keys: staticKeys(p[0], p[1], p[2], 0) },
    { curveType: 'rotation', target: { joint: t.joint, property: 'rotation' }, active: true, keys: staticKeys(q[0], q[1], q[2], q[3]) },
    { curveType: 'scale', target: { joint: t.joint, property: 'scale' }, active: true, keys: staticKeys(s[0], s[1], s[2], 0) },
  ];
}

/** File keys as float4 keyed keys: times × `spu` seconds, xyz padded with w = 0. */
function keyedKeys(keys: AafKeys, size: 3 | 4, spu: number): KeyedKeys {
  const n = keys.times.length;
  const values = new Float32Array(4 * n);
  for (let k = 0; k < n; k++) values.set(keys.values.subarray(size * k, size * (k + 1)), 4 * k);
  return { encoding: 'keyed', times: keys.times.map((t) => t * spu), values };
}

function headerInfo(h: AafHeader): Record<string, unknown> {
  return { formatName: formatNameText(h), version: h.version, service: h.service.text, serviceEncoding: h.service.encoding };
}

function animationInfo(anim: AafAnimation, options: AafTimeOptions): Record<string, unknown> {
  const channels = (c: AafChannelName) => anim.objects.filter((o) => o[c] !== undefined).length;
  return {
    ...headerInfo(anim.header),
    variant: anim.variant,
    alsoMatches: anim.alsoMatches,
    animLength: anim.animLength,
    timeUnit: options.timeUnit ?? 'frames',
    secondsPerUnit: aafSecondsPerUnit(options),
    objectCount: anim.objects.length,
    channels: { position: channels('position'), rotation: channels('rotation'), scale: channels('scale') },
  };
}
