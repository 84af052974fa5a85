import { type Accessor, type Buffer, Document, ImageUtils, type Node, WebIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { type AnimClip, type AnimCurve, type AnimResource, axesText } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { type ExportAxisOptions, axisConversion, convertResource, isIdentity } from './axis-conversion.js';
import { type CurveTrack, curveTrack } from './curve-track.js';
import { type ClipExportOptions, exportClips } from './export-clip.js';
import { type ClipReduction, keyTolerance, type KeyTolerance } from './reduce-clip.js';
import { isNodeProperty, jointNodes, type JointNodes } from './joint-nodes.js';
import { addRigidMeshes } from './rigid-meshes.js';
import { addSkinnedMeshes } from './skinned-meshes.js';
import { onSharedTimes } from './shared-times.js';
import { trackFromZero } from './track-from-zero.js';
import { boolTrack } from './bool-track.js';
import { quantizedRotations, toleranceWithQuantization } from './quantize-rotations.js';
import type { ExportCounts } from './export-counts.js';

/** Options of `toGltfDocument`. */
export interface GltfExportOptions extends ExportAxisOptions, ClipExportOptions {
  /**
   * Keys per second of every exported clip (`resample`); default: each clip's own key times
   * (Unity-curve clips at `UNITY_EXPORT_FPS`).
   */
  fps?: number;
  /** Sampler interpolation: `linear` (default; glTF slerp for rotations) or `step` (animcore `sampleType: 'step'`). */
  interpolation?: 'linear' | 'step';
  /**
   * Rotation outputs as normalized signed 16-bit integers (glTF 2.0 §3.11 allows them; gltfpack
   * writes rotations so by default): 8 bytes per key instead of 16. Rounding turns a rotation by
   * at most `QUANTIZED_ROTATION_ERROR` (≈ 0.007°), which the reduction leaves room for (its
   * rotation tolerance is the asked one less that), so the file stays within the tolerance. A
   * track with two consecutive keys within rounding of 180° apart stays float (rounding could
   * flip the way slerp turns). Default false (float32).
   */
  quantize?: boolean;
  /**
   * The glTF document `resource` was read from (`gltfSourceDocument`). Its animations are replaced
   * by the exported clips, driving its nodes by skeleton index, and everything else (nodes,
   * meshes, skins, materials, textures, extensions) is kept; its buffers are merged into one.
   * The document is modified and returned. It is in glTF's space already, so `up` and `scale`
   * must leave the axes as they are.
   */
  source?: Document;
}

/** A resource as a glTF document, and what went into it. */
export interface GltfExport {
  readonly document: Document;
  /** The clips written, in animation order, in the output's space (resampled where `fps`, Unity or cubic keys asked for it, reduced unless the tolerance is 0). */
  readonly clips: readonly AnimClip[];
  readonly counts: ExportCounts;
  /**
   * Per clip what keyframe reduction kept and its largest error (empty with tolerance 0); with
   * `quantize`, written rotations may differ by up to `QUANTIZED_ROTATION_ERROR` more.
   */
  readonly reductions: readonly ClipReduction[];
  /** Curves with no glTF target (velocity, root motion, gaze…), one line per property. */
  readonly warnings: readonly string[];
}

/**
 * Builds the glTF 2.0 document of `resource` (through `@gltf-transform/core`):
 * - space: glTF's Y-up, right-handed (glTF 2.0 §3.4) unless `up` says otherwise, lengths times
 *   `scale` (`convertResource` from `resource.axes`); `asset.extras.animcore` records `up`, the
 *   source's axes and `scale`;
 * - nodes: the skeleton as a node hierarchy with its rest pose, plus a root-level node per other
 *   curve joint (`jointNodes`); node names are joint names;
 * - meshes: rigid `meshes` on child nodes of their joints, `skins` as glTF skins over the skeleton;
 * - one animation per clip, named by the clip (as `animcore info` prints it), with one sampler
 *   and channel per active translation, rotation or scale curve (the first per joint and
 *   property, as `bindJoints` picks) holding the clip's keys (`curveTrack`) after baking and
 *   keyframe reduction (`exportClips`): LINEAR or STEP; inactive curves are left out, so their
 *   joints keep the rest pose, as animcore's sampler does; with reduction, so is a constant curve
 *   within tolerance of its node's rest value (glTF-Transform issue #1143);
 * - animation `extras.animcore`: `bools` (Bool curves such as MRTK tracked/pinching:
 *   `{ joint, property, times, values }`, seconds and 0/1, each value held until the next time)
 *   and `events` (`{ name, category, time }`, seconds).
 * - `weights/<k>` curves of a node with a mesh (glTF morph target weights) as one `weights` channel
 *   per node, on the union of their key times (`onSharedTimes`).
 * With `options.source`, the source document with its animations replaced instead.
 * `resource` is loaded into `core` when a clip must be resampled.
 * @throws UsageError for an `fps` that is not a finite number > 0, a bad tolerance, `up` or
 *   `scale` that would convert a `source` document, and as `convertResource`
 */
export function toGltfDocument(core: AnimCore, input: AnimResource, options: GltfExportOptions = {}): GltfExport {
  if (options.source && !isIdentity(axisConversion(input.axes, options))) {
    throw new UsageError('a glTF source document is written in its own axes: up and scale cannot change it (export without source to convert)');
  }
  const resource = convertResource(input, options);
  const { clips, reductions } = exportClips(core, resource.clips, options.quantize ? { ...options, tolerance: toleranceWithQuantization(options.tolerance) } : options);
  const { document, buffer, nodes } = options.source ? withoutAnimations(options.source, resource) : newDocument(resource, clips);
  document.getRoot().getAsset().extras = { ...(document.getRoot().getAsset().extras as Record<string, unknown> | undefined), animcore: { up: options.up ?? 'y', sourceAxes: axesText(input.axes), scale: options.scale ?? 1 } };
  const counts: ExportCounts = { clips: clips.length, keysIn: 0, keysOut: 0 };
  const skipped = new Map<string, number>();
  const empty: string[] = [];
  const times = new TimesCache(document, buffer);
  const restDrop = reductions.length > 0 ? keyTolerance(options.tolerance) : null;
  resource.clips.forEach((source, c) => {
    counts.keysIn += source.storedKeyCount;
    const keys = addAnimation(document, buffer, times, clips[c]!, nodes, { interpolation: options.interpolation ?? 'linear', quantize: options.quantize === true }, skipped, restDrop);
    if (keys === null) empty.push(clips[c]!.name);
    else counts.keysOut += keys;
  });
  // A buffer no accessor uses would be written without a byteLength (glTF 2.0 §5.10 requires one).
  if (document.getRoot().listAccessors().length === 0) buffer.dispose();
  const warnings = [
    ...[...skipped].map(([what, n]) => `${n} ${what} curve(s) drive no glTF node property; not exported`),
    ...empty.map((name) => `clip "${name}" has no active translation, rotation or scale curve on a node; glTF animations need one, so it is not exported`),
  ];
  return { document, clips, counts, reductions, warnings };
}

/** A new document of the resource's nodes and meshes. */
function newDocument(resource: AnimResource, clips: readonly AnimClip[]): { document: Document; buffer: Buffer; nodes: JointNodes } {
  const document = new Document();
  document.getRoot().getAsset().generator = 'animcore';
  const buffer = document.createBuffer();
  const nodes = jointNodes(document, resource, clips);
  addRigidMeshes(document, buffer, resource.meshes, nodes.skeleton);
  const skinned = addSkinnedMeshes(document, buffer, resource.skins, nodes.skeleton);
  // A skin may have gathered the skeleton's roots under one common root node.
  const sceneNodes = [...nodes.roots.filter((n) => n.getParentNode() === null), ...skinned];
  // glTF 2.0 §3.5: a scene lists at least one node; a resource without any has no scene.
  if (sceneNodes.length > 0) {
    const scene = document.createScene(resource.format);
    for (const node of sceneNodes) scene.addChild(node);
    document.getRoot().setDefaultScene(scene);
  }
  return { document, buffer, nodes };
}

/** The source document without its animations (and their accessors), buffers merged into one; skeleton joint i is node i. */
function withoutAnimations(document: Document, resource: AnimResource): { document: Document; buffer: Buffer; nodes: JointNodes } {
  const root = document.getRoot();
  const orphans = new Set<Accessor>();
  for (const animation of root.listAnimations()) {
    for (const sampler of animation.listSamplers()) for (const a of [sampler.getInput(), sampler.getOutput()]) if (a) orphans.add(a);
    for (const channel of animation.listChannels()) channel.dispose();
    for (const sampler of animation.listSamplers()) sampler.dispose();
    animation.dispose();
  }
  for (const a of orphans) if (a.listParents().every((p) => p === root)) a.dispose();
  const [buffer = document.createBuffer(), ...others] = root.listBuffers();
  for (const a of root.listAccessors()) if (a.getBuffer() !== buffer) a.setBuffer(buffer);
  for (const b of others) b.dispose();
  const list = root.listNodes();
  const joints = resource.skeleton?.joints ?? [];
  const byName = new Map<string, Node>();
  joints.forEach((j, i) => {
    if (list[i] && !byName.has(j.name)) byName.set(j.name, list[i]!);
  });
  // Curves of joints the skeleton lacks (a Nebula2 blend-shape node's weights) find the source's node by name.
  for (const n of list) if (n.getName() !== '' && !byName.has(n.getName())) byName.set(n.getName(), n);
  return { document, buffer, nodes: { byName, skeleton: list, roots: list.filter((n) => n.getParentNode() === null) } };
}

/**
 * Adds one animation for `clip`; returns the keys written (channels and bools), or `null` when no
 * curve gives a channel: glTF animations need at least one (glTF 2.0 §5.1), so none is added.
 */
function addAnimation(
  document: Document,
  buffer: Buffer,
  times: TimesCache,
  clip: AnimClip,
  nodes: JointNodes,
  { interpolation, quantize }: { interpolation: 'linear' | 'step'; quantize: boolean },
  skipped: Map<string, number>,
  restDrop: KeyTolerance | null,
): number | null {
  const animation = document.createAnimation(clip.name);
  const driven = new Set<string>();
  const bools: { joint: string | null; property: string; times: number[]; values: number[] }[] = [];
  let keys = 0;
  const addChannel = (curve: AnimCurve, node: Node, property: 'translation' | 'rotation' | 'scale') => {
    const track = trackFromZero(curveTrack(clip, curve), property === 'rotation', interpolation === 'step');
    const sampler = document
      .createAnimationSampler()
      .setInput(times.accessor(track))
      .setOutput(outputAccessor(document, track, property, quantize).setBuffer(buffer))
      .setInterpolation(interpolation === 'step' ? 'STEP' : 'LINEAR');
    animation.addSampler(sampler).addChannel(document.createAnimationChannel().setTargetNode(node).setTargetPath(property).setSampler(sampler));
    keys += track.times.length;
  };
  // A clip whose every channel is at rest keeps its first one: glTF animations need a channel.
  let firstAtRest: Parameters<typeof addChannel> | null = null;
  const morphs = morphCurves(clip, nodes);
  for (const [node, curves] of morphs) {
    const tracks = onSharedTimes(
      curves.map((c) => trackFromZero(curveTrack(clip, c), false, interpolation === 'step')),
      interpolation === 'step',
    );
    const n = tracks[0]!.times.length;
    const values = new Float32Array(n * tracks.length);
    for (let k = 0; k < n; k++) tracks.forEach((t, m) => (values[k * tracks.length + m] = t.values[4 * k]!));
    const sampler = document
      .createAnimationSampler()
      .setInput(times.accessor(tracks[0]!))
      .setOutput(document.createAccessor().setType('SCALAR').setArray(values).setBuffer(buffer))
      .setInterpolation(interpolation === 'step' ? 'STEP' : 'LINEAR');
    animation.addSampler(sampler).addChannel(document.createAnimationChannel().setTargetNode(node).setTargetPath('weights').setSampler(sampler));
    keys += n * tracks.length;
  }
  const morphed = new Set([...morphs.values()].flat());
  for (const curve of clip.curves) {
    if (!curve.active || morphed.has(curve)) continue;
    const { joint, property } = curve.target;
    if (curve.curveType === 'bool') {
      const track = boolTrack(curveTrack(clip, curve));
      bools.push({ joint, property, ...track });
      keys += track.times.length;
      continue;
    }
    const node = joint === null ? undefined : nodes.byName.get(joint);
    if (!node || !isNodeProperty(property)) {
      const what = `${curve.curveType} "${property}"`;
      skipped.set(what, (skipped.get(what) ?? 0) + 1);
      continue;
    }
    if (driven.has(`${joint}\0${property}`)) continue;
    driven.add(`${joint}\0${property}`);
    if (restDrop && atRest(curve, node, property, restDrop)) firstAtRest ??= [curve, node, property];
    else addChannel(curve, node, property);
  }
  if (animation.listChannels().length === 0 && firstAtRest) addChannel(...firstAtRest);
  if (animation.listChannels().length === 0) {
    animation.dispose();
    return null;
  }
  const events = clip.events.map((e) => ({ name: e.name, category: e.category, time: e.time }));
  if (bools.length > 0 || events.length > 0) animation.setExtras({ animcore: { bools, events } });
  return keys;
}

/**
 * Active `weights/<k>` curves of each node with a mesh whose morph targets they cover exactly
 * (`weights/0` … `weights/N-1` of its N targets, first curve per target), by node.
 */
function morphCurves(clip: AnimClip, nodes: JointNodes): Map<Node, AnimCurve[]> {
  const byNode = new Map<Node, AnimCurve[]>();
  for (const curve of clip.curves) {
    const k = /^weights\/(\d+)$/.exec(curve.target.property);
    const node = curve.target.joint === null ? undefined : nodes.byName.get(curve.target.joint);
    if (!curve.active || !k || !node) continue;
    const list = byNode.get(node) ?? [];
    list[Number(k[1])] ??= curve;
    byNode.set(node, list);
  }
  for (const [node, list] of byNode) {
    const targets = node.getMesh()?.listPrimitives()[0]?.listTargets().length ?? 0;
    const complete = targets > 0 && list.length === targets && [...list].every((c) => c !== undefined);
    if (!complete) byNode.delete(node);
  }
  return byNode;
}

/**
 * Whether a static curve holds its node's rest value within tolerance (distance; for rotations
 * the angle, q and −q alike), so that its channel changes nothing and is left out.
 */
function atRest(curve: AnimCurve, node: Node, property: 'translation' | 'rotation' | 'scale', tolerance: KeyTolerance): boolean {
  if (curve.keys.encoding !== 'static') return false;
  const v = curve.keys.value;
  if (property === 'rotation') {
    const r = node.getRotation();
    const len = Math.hypot(v[0]!, v[1]!, v[2]!, v[3]!);
    const s = v[0]! * r[0] + v[1]! * r[1] + v[2]! * r[2] + v[3]! * r[3] < 0 ? -1 : 1;
    // The angle from the chord between unit quaternions, 4 asin(|a − b| / 2): exact for small angles, unlike acos of the dot.
    const chord = Math.hypot(...r.map((x, i) => v[i]! / len - s * x));
    return 4 * Math.asin(Math.min(1, chord / 2)) <= tolerance.rotation;
  }
  const rest = property === 'translation' ? node.getTranslation() : node.getScale();
  return Math.hypot(v[0]! - rest[0], v[1]! - rest[1], v[2]! - rest[2]) <= tolerance[property];
}

/** The output accessor of a track: rotations VEC4 (normalized int16 when `quantize` and `quantizedRotations` can), the rest VEC3 float. */
function outputAccessor(document: Document, track: CurveTrack, property: 'translation' | 'rotation' | 'scale', quantize: boolean): Accessor {
  const quantized = property === 'rotation' && quantize ? quantizedRotations(track.values) : null;
  if (quantized) return document.createAccessor().setType('VEC4').setArray(quantized).setNormalized(true);
  return document.createAccessor().setType(property === 'rotation' ? 'VEC4' : 'VEC3').setArray(outputValues(track, property));
}

/** Track values as glTF wants them: x y z w for rotations, x y z otherwise. */
function outputValues(track: CurveTrack, property: string): Float32Array {
  if (property === 'rotation') return track.values;
  const n = track.times.length;
  const out = new Float32Array(3 * n);
  const v = track.values;
  for (let k = 0; k < n; k++) {
    out[3 * k] = v[4 * k]!;
    out[3 * k + 1] = v[4 * k + 1]!;
    out[3 * k + 2] = v[4 * k + 2]!;
  }
  return out;
}

/** One input accessor per distinct key-time array (uniform clips share one). */
class TimesCache {
  private readonly byKey = new Map<string, { times: Float32Array; accessor: Accessor }[]>();
  constructor(
    private readonly document: Document,
    private readonly buffer: Buffer,
  ) {}

  accessor(track: CurveTrack): Accessor {
    const t = track.times;
    const key = `${t.length}:${t[1]}:${t[t.length - 1]}`;
    const list = this.byKey.get(key) ?? [];
    const hit = list.find((e) => sameTimes(e.times, t));
    if (hit) return hit.accessor;
    const accessor = this.document.createAccessor().setType('SCALAR').setArray(t).setBuffer(this.buffer);
    list.push({ times: t, accessor });
    this.byKey.set(key, list);
    return accessor;
  }
}

function sameTimes(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One file of an export: its name relative to the output folder and its bytes. */
export interface OutputFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * Serialises a document as one binary glTF (`.glb`) through glTF-Transform's `writeBinary`.
 * Works in browsers and Node (WebIO needs no file system to write).
 */
export function writeGlb(document: Document): Promise<Uint8Array> {
  return io().writeBinary(document);
}

/** glTF-Transform's I/O with its extensions, so that a document read with them (e.g. KHR_mesh_quantization) is written with them. */
function io(): WebIO {
  return new WebIO().registerExtensions(ALL_EXTENSIONS);
}

/**
 * Serialises a document as JSON glTF: `<name>.gltf` (indented JSON) and `<name>.bin`, which holds
 * every buffer and every image (as buffer views, glTF 2.0 §3.6.1), so that the output is exactly
 * these two files and outputs of several inputs in one folder cannot share an image name. The
 * buffers' URIs are set to `<name>.bin` (percent-encoded), so `document` is modified.
 */
export async function writeGltf(document: Document, name: string): Promise<OutputFile[]> {
  // A URI is percent-encoded (glTF 2.0 §3.3.2, RFC 3986): a `#` or space in the file name must still load.
  const binUri = encodeURIComponent(`${name}.bin`);
  const root = document.getRoot();
  if (root.listBuffers().length === 0 && root.listTextures().some((t) => t.getImage())) document.createBuffer();
  for (const b of root.listBuffers()) b.setURI(binUri);
  const { json, resources } = await io().writeJSON(document);
  const images = (json.images ?? []).filter((image) => image.uri !== undefined && resources[image.uri] !== undefined);
  if (images.length > 0) {
    const chunks = [resources[binUri] ?? new Uint8Array(0)];
    let length = chunks[0]!.byteLength;
    json.bufferViews ??= [];
    for (const image of images) {
      const bytes = resources[image.uri!]!;
      delete resources[image.uri!];
      const pad = (4 - (length % 4)) % 4; // 4-byte aligned, as glTF-Transform lays out its views
      chunks.push(new Uint8Array(pad), bytes);
      image.bufferView = json.bufferViews.push({ buffer: 0, byteOffset: length + pad, byteLength: bytes.byteLength }) - 1;
      image.mimeType ??= ImageUtils.getMimeType(bytes) ?? undefined;
      delete image.uri;
      length += pad + bytes.byteLength;
    }
    const bin = new Uint8Array(length);
    let at = 0;
    for (const c of chunks) {
      bin.set(c, at);
      at += c.byteLength;
    }
    resources[binUri] = bin;
    json.buffers![0]!.byteLength = length;
  }
  return [
    { name: `${name}.gltf`, bytes: new TextEncoder().encode(JSON.stringify(json, null, 2)) },
    ...Object.entries(resources).map(([uri, bytes]) => ({ name: decodeURIComponent(uri), bytes })),
  ];
}
