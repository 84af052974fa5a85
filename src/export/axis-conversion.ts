import {
  type AnimClip,
  type AnimCurve,
  AnimResource,
  type CurveKeys,
  type Mesh,
  Skeleton,
  type SkinnedMesh,
  type SourceAxes,
  type UnityCurve,
  JOINT_PROPERTIES,
  Y_UP_RIGHT_HANDED,
} from '../anim/index.js';
import { UsageError } from '../errors.js';

/**
 * The axes of an export: `y` (default) glTF's Y-up, right-handed (glTF 2.0 §3.4); `z` Z-up,
 * right-handed (3ds Max, Blender; keeps a Z-up source such as Meteor's as it is); `source` the
 * source's own axes, whatever they are (no conversion).
 */
export type ExportUp = 'y' | 'z' | 'source';

/** The export values `--up` takes. */
export const EXPORT_UPS: readonly ExportUp[] = ['y', 'z', 'source'];

/** How an export places the source in its output space. */
export interface ExportAxisOptions {
  /** Output axes; default `y`. */
  up?: ExportUp;
  /** Factor on every length (translations, velocities, mesh positions), e.g. 0.01 for centimetre data; default 1. */
  scale?: number;
}

/**
 * A change of basis by a signed permutation of x y z, and a factor on lengths: output axis i is
 * `sign[i]` × source axis `from[i]`. A proper rotation (`det` 1) or a mirror (`det` −1, between
 * left- and right-handed spaces).
 */
export interface AxisConversion {
  readonly from: readonly [number, number, number];
  readonly sign: readonly [number, number, number];
  readonly det: 1 | -1;
  readonly scale: number;
  /** The output's axes. */
  readonly axes: SourceAxes;
}

type Matrix = number[][];

const IDENTITY: Matrix = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
/** Left- to right-handed: x mirrored, as UnityGLTF and glTFast convert Unity's space (forward stays +Z). */
const MIRROR_X: Matrix = [
  [-1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
/** Z-up to Y-up, right-handed: (x, y, z) → (x, z, −y), −90° about x (Blender's glTF exporter; a Meteor character facing −Y then faces +Z, glTF's front). */
const Z_UP_TO_Y_UP: Matrix = [
  [1, 0, 0],
  [0, 0, 1],
  [0, -1, 0],
];
const Y_UP_TO_Z_UP: Matrix = [
  [1, 0, 0],
  [0, 0, -1],
  [0, 1, 0],
];

function multiply(a: Matrix, b: Matrix): Matrix {
  return a.map((row) => [0, 1, 2].map((j) => row[0]! * b[0]![j]! + row[1]! * b[1]![j]! + row[2]! * b[2]![j]!));
}

/**
 * The conversion from `source` to the axes `options.up` asks for, with `options.scale`.
 * @throws UsageError for an `up` not in `EXPORT_UPS` or a `scale` that is not a finite number > 0
 */
export function axisConversion(source: SourceAxes, options: ExportAxisOptions = {}): AxisConversion {
  const up = options.up ?? 'y';
  const scale = options.scale ?? 1;
  if (!EXPORT_UPS.includes(up)) throw new UsageError(`up must be one of ${EXPORT_UPS.join(', ')}, got ${String(up)}`);
  if (!(scale > 0) || !Number.isFinite(scale)) throw new UsageError(`scale must be a finite number > 0, got ${scale}`);
  let m = IDENTITY;
  let axes = source;
  if (up !== 'source') {
    const rightHanded = source.handedness === 'left' ? MIRROR_X : IDENTITY;
    const yUp = multiply(source.up === 'z' ? Z_UP_TO_Y_UP : IDENTITY, rightHanded);
    m = up === 'y' ? yUp : multiply(Y_UP_TO_Z_UP, yUp);
    axes = up === 'y' ? Y_UP_RIGHT_HANDED : { up: 'z', handedness: 'right', basis: 'export --up z' };
  }
  const from = m.map((row) => row.findIndex((v) => v !== 0)) as [number, number, number];
  const sign = m.map((row, i) => row[from[i]!]!) as [number, number, number];
  const det = (sign[0] * sign[1] * sign[2] * permutationSign(from)) as 1 | -1;
  return { from, sign, det, scale, axes };
}

function permutationSign(p: readonly number[]): number {
  let s = 1;
  for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) if (p[i]! > p[j]!) s = -s;
  return s;
}

/** Whether the conversion changes nothing. */
export function isIdentity(c: AxisConversion): boolean {
  return c.scale === 1 && c.from.every((f, i) => f === i) && c.sign.every((s) => s === 1);
}

/**
 * A float4 map per curve type, as lanes: output lane i is `factor[i]` × input lane `from[i]`.
 * Translations and velocities are vectors (scaled); rotation quaternions keep w and turn their
 * vector part as a pseudovector (× det, so a mirror also flips the sense of rotation); scales are
 * per-axis factors (permuted, never negated); other curve types are not spatial and stay.
 */
interface LaneMap {
  from: [number, number, number, number];
  factor: [number, number, number, number];
}

function laneMap(c: AxisConversion, curveType: AnimCurve['curveType']): LaneMap | null {
  const [a, b, d] = c.from;
  const from: LaneMap['from'] = [a, b, d, 3];
  switch (curveType) {
    case 'translation':
    case 'velocity':
      return { from, factor: [c.sign[0] * c.scale, c.sign[1] * c.scale, c.sign[2] * c.scale, 1] };
    case 'rotation':
      return { from, factor: [c.sign[0] * c.det, c.sign[1] * c.det, c.sign[2] * c.det, 1] };
    case 'scale':
      return { from, factor: [1, 1, 1, 1] };
    default:
      return null;
  }
}

/** `values` (float4s) with `map` applied to each; a new array. */
function mapFloat4s(values: Float32Array, map: LaneMap): Float32Array {
  const out = new Float32Array(values.length);
  for (let k = 0; k < values.length; k += 4) for (let i = 0; i < 4; i++) out[k + i] = map.factor[i]! * values[k + map.from[i]!]!;
  return out;
}

/** A Unity lane times `f`: values and tangents scale, weights (fractions of a segment) do not. */
function scaledLane(lane: UnityCurve, f: number): UnityCurve {
  if (f === 1) return lane;
  const times = (a: Float32Array) => a.map((v) => v * f);
  return { ...lane, value: times(lane.value), inTangent: times(lane.inTangent), outTangent: times(lane.outTangent) };
}

const EMPTY_LANE: UnityCurve = {
  time: new Float32Array(0),
  value: new Float32Array(0),
  inTangent: new Float32Array(0),
  outTangent: new Float32Array(0),
  inWeight: new Float32Array(0),
  outWeight: new Float32Array(0),
  weightedMode: new Int32Array(0),
  preWrapMode: 8,
  postWrapMode: 8,
};

function convertKeys(keys: CurveKeys, map: LaneMap): CurveKeys {
  switch (keys.encoding) {
    case 'static':
      return { encoding: 'static', value: mapFloat4s(keys.value, map) };
    case 'uniform':
      return { encoding: 'uniform', values: mapFloat4s(keys.values, map) };
    case 'keyed':
    case 'cubic': // in-tangent, value, out-tangent: float4s alike (the map is linear)
      return { ...keys, values: mapFloat4s(keys.values, map) };
    case 'unity': {
      // A missing lane samples 0; a permutation may move one before a present lane, so it becomes an empty curve (which samples 0 too).
      const lanes = map.from.map((f, i) => scaledLane(keys.lanes[f] ?? EMPTY_LANE, map.factor[i]!));
      while (lanes.length > keys.lanes.length && lanes[lanes.length - 1] === EMPTY_LANE) lanes.pop();
      return { encoding: 'unity', lanes };
    }
  }
}

/** `clip` in the conversion's space: curves converted by type (see `LaneMap`), everything else kept. */
export function convertClip(clip: AnimClip, c: AxisConversion): AnimClip {
  if (isIdentity(c)) return clip;
  const curves = clip.curves.map((curve): AnimCurve => {
    const map = laneMap(c, curve.curveType);
    return map ? { ...curve, keys: convertKeys(curve.keys, map) } : curve;
  });
  return clip.withCurves(curves);
}

function vector(c: AxisConversion, v: ArrayLike<number>, i: number, factor: number): [number, number, number] {
  return [0, 1, 2].map((k) => c.sign[k]! * factor * v[i + c.from[k]!]!) as [number, number, number];
}

/** Positions (× scale) or directions (unit factor) of a `3 × n` array, converted. */
function vectors(c: AxisConversion, v: Float32Array, factor: number): Float32Array {
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i += 3) out.set(vector(c, v, i, factor), i);
  return out;
}

/** Triangles with their winding reversed when the conversion mirrors (det −1), so front faces stay front faces. */
function triangles(c: AxisConversion, indices: Uint32Array): Uint32Array {
  if (c.det === 1) return indices;
  const out = indices.slice();
  for (let i = 0; i + 2 < out.length; i += 3) [out[i + 1], out[i + 2]] = [indices[i + 2]!, indices[i + 1]!];
  return out;
}

function convertSkeleton(skeleton: Skeleton, c: AxisConversion): Skeleton {
  const rotation = laneMap(c, 'rotation')!;
  return new Skeleton(
    skeleton.joints.map((j) => ({
      ...j,
      rest: {
        translation: vector(c, j.rest.translation, 0, c.scale),
        rotation: Array.from(mapFloat4s(Float32Array.from(j.rest.rotation), rotation)) as [number, number, number, number],
        scale: [0, 1, 2].map((k) => j.rest.scale[c.from[k]!]!) as [number, number, number],
      },
    })),
  );
}

function convertMesh(mesh: Mesh, c: AxisConversion): Mesh {
  return { ...mesh, positions: vectors(c, mesh.positions, c.scale), normals: vectors(c, mesh.normals, 1), indices: triangles(c, mesh.indices) };
}

function convertSkin(skin: SkinnedMesh, c: AxisConversion): SkinnedMesh {
  return { ...skin, positions: vectors(c, skin.positions, c.scale), indices: triangles(c, skin.indices) };
}

/** The unit quaternion (x y z w) of the proper rotation `c` (det 1) stands for. */
function rotationQuaternion(c: AxisConversion): [number, number, number, number] {
  const m = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (c.from[i] === j ? c.sign[i]! : 0)));
  // Shepperd's method: from the largest of w², x², y², z² (entries are 0 and ±1, so no rounding).
  const t = m[0]![0]! + m[1]![1]! + m[2]![2]!;
  if (t > 0) {
    const w = Math.sqrt(1 + t) / 2;
    return [(m[2]![1]! - m[1]![2]!) / (4 * w), (m[0]![2]! - m[2]![0]!) / (4 * w), (m[1]![0]! - m[0]![1]!) / (4 * w), w];
  }
  const i = m[0]![0]! >= m[1]![1]! && m[0]![0]! >= m[2]![2]! ? 0 : m[1]![1]! >= m[2]![2]! ? 1 : 2;
  const j = (i + 1) % 3;
  const k = (i + 2) % 3;
  const q = [0, 0, 0, 0];
  q[i] = Math.sqrt(1 + m[i]![i]! - m[j]![j]! - m[k]![k]!) / 2;
  q[j] = (m[j]![i]! + m[i]![j]!) / (4 * q[i]!);
  q[k] = (m[k]![i]! + m[i]![k]!) / (4 * q[i]!);
  q[3] = (m[k]![j]! - m[j]![k]!) / (4 * q[i]!);
  return q as [number, number, number, number];
}

/** `p ⊗ q` for every float4 quaternion (x y z w) of `values`; a new array (float32, or float64 for rest poses). */
function premultiplied<A extends Float32Array | Float64Array>(p: readonly number[], values: ArrayLike<number>, array: new (n: number) => A): A {
  const [ax, ay, az, aw] = p as [number, number, number, number];
  const out = new array(values.length);
  for (let k = 0; k < values.length; k += 4) {
    const bx = values[k]!, by = values[k + 1]!, bz = values[k + 2]!, bw = values[k + 3]!;
    out[k] = aw * bx + ax * bw + ay * bz - az * by;
    out[k + 1] = aw * by - ax * bz + ay * bw + az * bx;
    out[k + 2] = aw * bz + ax * by - ay * bx + az * bw;
    out[k + 3] = aw * bw - ax * bx - ay * by - az * bz;
  }
  return out;
}

/** The names of `skeleton`'s root joints whose curves drive them (a curve drives the first joint of its name, `bindJoints`). */
function rootJoints(skeleton: Skeleton): Set<string> {
  const roots = new Set<string>();
  const seen = new Set<string>();
  for (const j of skeleton.joints) {
    if (!seen.has(j.name) && j.parent < 0) roots.add(j.name);
    seen.add(j.name);
  }
  return roots;
}

/** Whether `curve` is a translation, rotation or scale curve of one of `roots`. */
function drivesRoot(curve: AnimCurve, roots: ReadonlySet<string>): boolean {
  const { joint, property } = curve.target;
  return joint !== null && roots.has(joint) && (JOINT_PROPERTIES as readonly string[]).includes(property);
}

/**
 * Whether `convertRoots` can apply the conversion `options` ask for at `resource`'s root joints:
 * none to apply, or a proper rotation (det 1: a TRS node holds no mirror without negative scales)
 * with a skeleton and no root curve in Unity lanes (a rotation does not map lane by lane).
 * @throws UsageError as `axisConversion`
 */
export function convertibleAtRoots(resource: AnimResource, options: ExportAxisOptions = {}): boolean {
  const c = axisConversion(resource.axes, options);
  if (isIdentity(c)) return true;
  if (c.det !== 1 || resource.skeleton === null) return false;
  const roots = rootJoints(resource.skeleton);
  return resource.clips.every((clip) => clip.curves.every((curve) => curve.keys.encoding !== 'unity' || !drivesRoot(curve, roots)));
}

/**
 * `resource` with the conversion applied where its hierarchy starts, as a glTF file rewritten in
 * place carries it (`rewriteGltf`): every root joint's rest pose and translation, rotation and
 * scale curves premultiplied by it — translation s·P·t, rotation q_P ⊗ q, scale s·S for the
 * rotation P and length factor s — while the other joints (local to their parents), meshes and
 * skins stay as they are, so that every model-space matrix, and so every skinned vertex, is the
 * conversion times the source's. The map is linear on keys and cubic tangents and orthogonal on
 * rotations, so sampling commutes with it (lerp, nlerp, slerp, Hermite; shortest-path signs keep).
 * Returns `resource` itself when nothing changes; never modifies it.
 * @throws UsageError when not `convertibleAtRoots`, and as `axisConversion`
 */
export function convertRoots(resource: AnimResource, options: ExportAxisOptions = {}): AnimResource {
  const c = axisConversion(resource.axes, options);
  if (isIdentity(c)) return resource;
  if (!convertibleAtRoots(resource, options)) {
    throw new UsageError('up and scale applied at the root nodes cannot mirror a file or turn Unity curves of a root; convert the whole resource (convertResource) instead');
  }
  const q = rotationQuaternion(c);
  const translation = laneMap(c, 'translation')!;
  const scaled: LaneMap = { from: [0, 1, 2, 3], factor: [c.scale, c.scale, c.scale, 1] };
  const convert = (property: string, values: Float32Array): Float32Array => (property === 'rotation' ? premultiplied(q, values, Float32Array) : mapFloat4s(values, property === 'translation' ? translation : scaled));
  const skeleton = resource.skeleton!;
  const roots = rootJoints(skeleton);
  const clips = resource.clips.map((clip) =>
    clip.withCurves(
      clip.curves.map((curve): AnimCurve => {
        const keys = curve.keys;
        if (!drivesRoot(curve, roots) || keys.encoding === 'unity') return curve; // unity: not on a root (checked above)
        const property = curve.target.property;
        return { ...curve, keys: keys.encoding === 'static' ? { encoding: 'static', value: convert(property, keys.value) } : { ...keys, values: convert(property, keys.values) } };
      }),
    ),
  );
  // Rest poses in float64 as read, the rotation renormalised: glTF nodes need unit quaternions, and
  // a file's own rounding (0.7071068 twice) turned by 45° puts a component past 1.
  const joints = skeleton.joints.map((j) => {
    if (j.parent >= 0) return j;
    const r = premultiplied(q, j.rest.rotation, Float64Array);
    const n = Math.hypot(...r);
    const rest = { translation: vector(c, j.rest.translation, 0, c.scale), rotation: [r[0]! / n, r[1]! / n, r[2]! / n, r[3]! / n] as [number, number, number, number], scale: j.rest.scale.map((v) => c.scale * v) as [number, number, number] };
    return { ...j, rest };
  });
  return new AnimResource({ format: resource.format, clips, skeleton: new Skeleton(joints), meshes: [...resource.meshes], skins: [...resource.skins], info: resource.info, warnings: [...resource.warnings], axes: c.axes });
}

/**
 * `resource` in the space `options` asks for (`axisConversion` from `resource.axes`): the
 * skeleton's rest pose, every clip's translation, rotation, scale and velocity keys (any
 * encoding), rigid meshes (positions, normals) and skinned meshes (positions; inverse bind
 * matrices follow from the converted rest pose), triangles rewound under a mirror; lengths times
 * `scale`. Returns `resource` itself when nothing changes; never modifies it.
 * @throws UsageError as `axisConversion`
 */
export function convertResource(resource: AnimResource, options: ExportAxisOptions = {}): AnimResource {
  const c = axisConversion(resource.axes, options);
  if (isIdentity(c)) return resource;
  return new AnimResource({
    format: resource.format,
    clips: resource.clips.map((clip) => convertClip(clip, c)),
    skeleton: resource.skeleton && convertSkeleton(resource.skeleton, c),
    meshes: resource.meshes.map((m) => convertMesh(m, c)),
    skins: resource.skins.map((s) => convertSkin(s, c)),
    info: resource.info,
    warnings: [...resource.warnings],
    axes: c.axes,
  });
}
