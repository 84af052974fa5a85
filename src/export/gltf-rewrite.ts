import { ImageUtils } from '@gltf-transform/core';
import type { AnimClip, AnimResource, Skeleton } from '../anim/index.js';
import { KernelAlignedRotations } from '../core/aligned-rotations.js';
import type { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { shorten } from '../formats/text.js';
import { decodeDataUri } from '../formats/gltf/buffers.js';
import { morphTargetCount } from '../formats/gltf/check-document.js';
import { animationOnlyAccessors, renumberAccessorRefs } from '../formats/gltf/accessor-refs.js';
import type { JsonObject } from '../formats/gltf/json-fields.js';
import { DECODED_EXTENSIONS, READ_EXTENSIONS } from '../formats/gltf/read-extensions.js';
import { type GltfSource, gltfSource } from '../formats/gltf/source.js';
import { type ChannelNodes, type PlannedAnimation, type PlannedChannel, planAnimations } from './animation-channels.js';
import { type AxisConversion, axisConversion, convertRoots } from './axis-conversion.js';
import type { ExportCounts } from './export-counts.js';
import { exportAxes, type GltfExportOptions, type OutputFile } from './gltf.js';
import { type ClipReduction, keyTolerance, type ToleranceOption } from './reduce-clip.js';
import type { RotationWriter } from './curve-track.js';
import { SharedTimes } from './shared-times.js';
import { uninitializedBytes } from './uninitialized-bytes.js';

/** GLB header and chunk types (glTF 2.0 §4.4). */
const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const FLOAT = 5126;
const SHORT = 5122;

/** A glTF file with its animations rewritten (`rewriteGltf`), ready to be written as `.glb` or `.gltf` + `.bin`. */
export interface GltfRewrite {
  /** The file as one binary glTF. */
  glb(): Uint8Array;
  /** The file as `<name>.gltf` (indented JSON) and `<name>.bin` (every buffer view and image). */
  gltf(name: string): OutputFile[];
  /** The clips written, in animation order (baked, reduced unless the tolerance is 0). */
  readonly clips: readonly AnimClip[];
  readonly counts: ExportCounts;
  /** Per clip what keyframe reduction kept and its largest error (empty with tolerance 0). */
  readonly reductions: readonly ClipReduction[];
  /** Curves with no glTF target, clips with no channel, extensions left out. */
  readonly warnings: readonly string[];
}

/**
 * The glTF file `resource` was read from (`gltfSource`) with its animations replaced by the
 * resource's clips, baked and reduced as `toGltfDocument` does them (`planAnimations`, the same
 * channels), without building a document model: the JSON is kept as it is — nodes, meshes, skins,
 * materials, textures, samplers, cameras, scenes, extensions animcore reads, extras — and so is
 * every buffer view that is not animation data, byte for byte, while the animations, their
 * accessors and the views only they use are replaced. Everything lands in one buffer (the GLB
 * `BIN` chunk or `<name>.bin`): views 4-byte aligned in their order, then external and `data:`
 * images as views, then the new animation data; accessor and view indices are renumbered where the
 * file refers to them (meshes, skins, images, `EXT_mesh_gpu_instancing`). Extensions animcore does
 * not read are left out (their references could not be renumbered), with a warning. Channels
 * drive node i for skeleton joint i, else the node of the joint's name. The file's own resource
 * keeps its animations' names as the file writes them (none, or one name twice: `openGltf`'s
 * `animation<i>` and `#<i>` are not written back). `asset.extras.animcore`
 * records the axes as `toGltfDocument` does. With `up` or `scale` the conversion is applied where
 * the hierarchy starts (`convertRoots`: the parentless nodes and their channels), so meshes, skins
 * and everything else stay byte for byte while every model-space matrix and skinned vertex is
 * converted.
 * @param resource the resource to write: `openGltf`'s, or one made from it with the same skeleton (`bakeSequence`)
 * @param source the file it came from (`gltfSource(input)`)
 * @throws UsageError for a conversion the root nodes cannot hold (a mirror: a glTF input recorded
 *   as left-handed; Unity curves on a root) or a conversion of a resource whose skeleton is not the
 *   file's node for node, and as `toGltfDocument`
 */
export function rewriteGltf(core: AnimCore, resource: AnimResource, source: GltfSource, options: GltfExportOptions = {}): GltfRewrite {
  const conversion = axisConversion(resource.axes, options);
  const converted = convertRoots(resource, options);
  // The parentless nodes take the conversion from the resource's root joints: node i is joint i.
  if (converted !== resource && converted.skeleton?.joints.length !== source.skeleton.joints.length) {
    throw new UsageError(`up and scale need the file's own skeleton (${source.skeleton.joints.length} nodes) to convert its root nodes; the resource has ${converted.skeleton?.joints.length ?? 0} joints`);
  }
  // The conversion is in `converted` already: planned in its own axes.
  const plan = planAnimations(core, converted, { ...options, up: 'source', scale: 1, tolerance: rootTolerance(options.tolerance, conversion.scale) }, () => sourceNodes(source, converted));
  const warnings = [...plan.warnings];
  const json = withReadExtensions(source.json, warnings);
  const layout = layOut(source, json, warnings);
  // The file's own clips keep its animations' names as written (none, or one repeated), as
  // glTF-Transform does: `animation<i>` and `#<i>` only make clip names unique in the model.
  const own = gltfSource(resource) === source ? source.collections.animations! : null;
  const named = plan.animations.flatMap((a, c) => (a === null ? [] : [{ planned: a, name: own ? fileName(own[c]!) : a.name }]));
  const animations = addAnimations(layout, named, plan.interpolation);
  const out = rewrittenJson(json, layout, animations);
  if (converted !== resource) out.nodes = convertedRootNodes(out.nodes as JsonObject[], conversion, converted);
  if (out.nodes !== undefined) out.nodes = animatedMatricesAsTrs(out.nodes as JsonObject[], animations, restSkeleton(source, converted));
  (out.asset as JsonObject).extras = { ...((out.asset as JsonObject).extras as JsonObject | undefined), animcore: exportAxes(resource, options) };
  return {
    glb: () => glb(out, layout, core),
    gltf: (name) => gltfFiles(out, layout, name, core),
    clips: plan.clips,
    counts: plan.counts,
    reductions: plan.reductions,
    warnings,
  };
}

/**
 * The tolerance to reduce keys with when only the root nodes carry the length factor `scale`: the
 * other joints' translations stay in the input's units, where an error becomes `scale` times larger
 * in the output, so above a factor of 1 their tolerance is divided by it (the output's stays within
 * the asked one; below 1 it is smaller anyway).
 */
function rootTolerance(option: ToleranceOption | undefined, scale: number): ToleranceOption | undefined {
  const tolerance = keyTolerance(option);
  return tolerance === null || scale <= 1 ? option : { ...tolerance, translation: tolerance.translation / scale };
}

/**
 * `nodes` with every parentless node placed by the conversion (`convertRoots`): a `matrix` node's
 * matrix premultiplied by it, a TRS node's translation, rotation and scale those of its converted
 * rest pose (node i is skeleton joint i). New objects; `nodes` is not modified.
 */
function convertedRootNodes(nodes: JsonObject[], c: AxisConversion, converted: AnimResource): JsonObject[] {
  const children = new Set(nodes.flatMap((n) => (n.children as number[] | undefined) ?? []));
  return nodes.map((node, i) => {
    if (children.has(i)) return node;
    if (node.matrix !== undefined) {
      const m = node.matrix as number[];
      // Column-major: row r of column k becomes sign[r] × scale × row from[r]; the last row stays.
      return { ...node, matrix: m.map((v, e) => (e % 4 === 3 ? v : c.sign[e % 4]! * c.scale * m[e - (e % 4) + c.from[e % 4]!]!)) };
    }
    const rest = converted.skeleton!.joints[i]!.rest;
    return { ...node, translation: [...rest.translation], rotation: [...rest.rotation], scale: [...rest.scale] };
  });
}

/**
 * `nodes` with the rest TRS of `rests` (node i is joint i) in place of the `matrix` of each node a
 * channel of `animations` targets: glTF 2.0 §3.11 forbids a matrix on an animated node (the
 * validator's ANIMATION_CHANNEL_TARGET_NODE_MATRIX), and the reader, as three.js's GLTFLoader,
 * took that matrix decomposed as the rest pose under the channels. Other nodes stay as they are.
 */
function animatedMatricesAsTrs(nodes: JsonObject[], animations: readonly JsonObject[], rests: Skeleton): JsonObject[] {
  const animated = new Set<number>();
  for (const a of animations) for (const c of a.channels as JsonObject[]) animated.add((c.target as JsonObject).node as number);
  return nodes.map((node, i) => {
    if (node.matrix === undefined || !animated.has(i)) return node;
    const { matrix: _matrix, ...rest } = node;
    const trs = rests.joints[i]!.rest;
    return { ...rest, translation: [...trs.translation], rotation: [...trs.rotation], scale: [...trs.scale] };
  });
}

/** The rest poses of the source's nodes: `resource`'s skeleton when it is the source's joint for joint (roots converted), else as read (matrices decomposed). */
function restSkeleton(source: GltfSource, resource: AnimResource): Skeleton {
  return resource.skeleton?.joints.length === source.skeleton.joints.length ? resource.skeleton : source.skeleton;
}

/** The source's nodes as channel targets: node i for skeleton joint i, then nodes by name; rest poses of `restSkeleton`. */
function sourceNodes(source: GltfSource, resource: AnimResource): ChannelNodes<number> {
  const byName = new Map<string, number>();
  const count = source.skeleton.joints.length;
  const rests = restSkeleton(source, resource);
  const joints = resource.skeleton?.joints ?? [];
  for (let i = 0; i < Math.min(count, joints.length); i++) if (!byName.has(joints[i]!.name)) byName.set(joints[i]!.name, i);
  // Curves of joints the skeleton lacks (a Nebula2 blend-shape node's weights) find the node by name.
  const nodes = source.collections.nodes!;
  for (let i = 0; i < nodes.length; i++) {
    const name = nodes[i]!.name;
    if (typeof name === 'string' && name !== '' && !byName.has(name)) byName.set(name, i);
  }
  return {
    byName,
    rest: (i, property) => rests.joints[i]!.rest[property],
    morphTargets: (i) => morphTargetCount(source.collections, nodes[i]!),
  };
}

/**
 * The JSON without the extensions `openGltf` does not read and without those it turns into core
 * glTF (`DECODED_EXTENSIONS`: meshopt views are written decoded): a copy without them, or the JSON
 * itself when it uses none.
 */
function withReadExtensions(json: JsonObject, warnings: string[]): JsonObject {
  const listed = (json.extensionsUsed as string[] | undefined) ?? [];
  const used = listed.filter((e) => !READ_EXTENSIONS.has(e));
  const decoded = listed.filter((e) => DECODED_EXTENSIONS.has(e));
  if (used.length === 0 && decoded.length === 0) return json;
  if (used.length > 0) warnings.push(`extension(s) ${used.join(', ')} not read by animcore; left out of the output`);
  for (const e of decoded) warnings.push(`${e}: ${DECODED_EXTENSIONS.get(e)!}; left out of the output`);
  const drop = new Set([...used, ...decoded]);
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'extensions') {
        const kept = Object.entries(v as JsonObject).filter(([name]) => !drop.has(name));
        if (kept.length > 0) out[k] = Object.fromEntries(kept.map(([name, e]) => [name, strip(e)]));
      } else out[k] = strip(v);
    }
    return out;
  };
  const out = strip(json) as JsonObject;
  for (const key of ['extensionsUsed', 'extensionsRequired']) {
    const kept = ((out[key] as string[] | undefined) ?? []).filter((e) => !drop.has(e));
    if (kept.length > 0) out[key] = kept;
    else delete out[key];
  }
  return out;
}

/** Where everything goes in the one output buffer, and the new accessor and view indices. */
interface Layout {
  /** New index of each source accessor kept, −1 for those only the animations used. */
  readonly accessor: Int32Array;
  /** New index of each source view kept, −1 for those only dropped accessors used. */
  readonly view: Int32Array;
  /** New views: the kept ones with their new offsets, then images and animation data. */
  readonly views: JsonObject[];
  /** New accessors: the kept ones (not yet renumbered), then the animations'. */
  readonly accessors: JsonObject[];
  /** The view index of each embedded image, by image index. */
  readonly imageViews: Map<number, { view: number; mimeType: string | undefined }>;
  /** The buffer's bytes: the kept views, images, then the animation data. */
  readonly buffer: OutputBuffer;
}

function layOut(source: GltfSource, json: JsonObject, warnings: string[]): Layout {
  const c = source.collections;
  const accessors = c.accessors!;
  const animationData = animationOnlyAccessors(json);
  const accessor = new Int32Array(accessors.length).fill(-1);
  const viewUsers = new Int32Array(c.bufferViews!.length); // views a kept accessor or an image uses, or none at all
  const viewDropped = new Uint8Array(c.bufferViews!.length);
  const keptAccessors: JsonObject[] = [];
  for (let i = 0; i < accessors.length; i++) {
    const views = accessorViews(accessors[i]!);
    if (animationData.has(i)) {
      for (const v of views) viewDropped[v] = 1;
      continue;
    }
    accessor[i] = keptAccessors.push(accessors[i]!) - 1;
    for (const v of views) viewUsers[v]!++;
  }
  for (const image of c.images!) if (image.bufferView !== undefined) viewUsers[image.bufferView as number]!++;
  const buffer = new OutputBuffer();
  const view = new Int32Array(c.bufferViews!.length).fill(-1);
  const views: JsonObject[] = [];
  // The views of `json`: without the extensions left out (a meshopt view's, whose bytes are decoded).
  (json.bufferViews as JsonObject[] | undefined)?.forEach((v, i) => {
    if (viewUsers[i] === 0 && viewDropped[i] === 1) return;
    const from = (v.byteOffset as number | undefined) ?? 0;
    const bytes = source.buffers[v.buffer as number]!.subarray(from, from + (v.byteLength as number));
    view[i] = views.push({ ...v, buffer: 0, byteOffset: buffer.append(bytes) }) - 1;
  });
  const imageViews = new Map<number, { view: number; mimeType: string | undefined }>();
  c.images!.forEach((image, i) => {
    const uri = image.uri as string | undefined;
    if (uri === undefined) return;
    const bytes = uri.startsWith('data:') ? decodeDataUri(uri, `/images/${i}/uri`) : source.images.get(uri);
    if (bytes === undefined) {
      warnings.push(`/images/${i}: image file "${shorten(uri, 200)}" was not found when read; the output refers to it as the input did`);
      return;
    }
    const at = buffer.append(bytes);
    imageViews.set(i, { view: views.push({ buffer: 0, byteOffset: at, byteLength: bytes.byteLength }) - 1, mimeType: (image.mimeType as string | undefined) ?? ImageUtils.getMimeType(bytes) ?? undefined });
  });
  return { accessor, view, views, accessors: keptAccessors, imageViews, buffer };
}

/**
 * The one output buffer's parts and their offsets (4-byte aligned; the padding between them is left
 * as the output has it, zeros when new). A class, not closures made per file, which V8 compiled
 * again for most files written (--trace-opt; issue 15, gltf-resample).
 */
class OutputBuffer {
  private readonly parts: (Uint8Array | BinaryPart)[] = [];
  private readonly offsets: number[] = [];
  private length = 0;

  /** Appends bytes (kept by reference, or made by `part.writeTo`, when written) and returns their offset. */
  append(part: Uint8Array | BinaryPart): number {
    const at = this.length + ((4 - (this.length % 4)) % 4);
    this.parts.push(part);
    this.offsets.push(at);
    this.length = at + part.byteLength;
    return at;
  }

  /** Bytes of the buffer, padded to 4. */
  get byteLength(): number {
    return this.length + ((4 - (this.length % 4)) % 4);
  }

  /** Writes the buffer's bytes, padding zeros included, into `out` from byte `at` (which may hold anything), baked rotations aligned by `core`'s kernel (`KernelAlignedRotations`). */
  copyTo(out: Uint8Array, at: number, core: AnimCore): void {
    const rotations = new KernelAlignedRotations(core);
    try {
      let end = 0;
      for (let i = 0; i < this.parts.length; i++) {
        const part = this.parts[i]!;
        out.fill(0, at + end, at + this.offsets[i]!);
        if (part instanceof Uint8Array) out.set(part, at + this.offsets[i]!);
        else part.writeTo(out, at + this.offsets[i]!, rotations);
        end = this.offsets[i]! + part.byteLength;
      }
      out.fill(0, at + end, at + this.byteLength);
    } finally {
      rotations.dispose();
    }
  }
}

/** Bytes of the output buffer made when the file is written: a channel's output (`PlannedChannel.writeValues`). */
interface BinaryPart {
  readonly byteLength: number;
  /** Writes the bytes into `out` from byte `at` (rotations aligned by `rotations`). */
  writeTo(out: Uint8Array, at: number, rotations: RotationWriter): void;
}

/** A channel's output as bytes, written by the channel into the file's buffer (element-aligned there, as the buffer's 4-byte alignment and a new output make it; else copied from its `values`). */
class ChannelBytes implements BinaryPart {
  readonly byteLength: number;

  constructor(private readonly channel: PlannedChannel<number>) {
    this.byteLength = (channel.quantized ? 2 : 4) * channel.valueCount;
  }

  writeTo(out: Uint8Array, at: number, rotations: RotationWriter): void {
    const { channel } = this;
    const start = out.byteOffset + at;
    if (start % (channel.quantized ? 2 : 4) !== 0) out.set(new Uint8Array(channel.values.buffer, channel.values.byteOffset, this.byteLength), at);
    else channel.writeValues(channel.quantized ? new Int16Array(out.buffer, start, channel.valueCount) : new Float32Array(out.buffer, start, channel.valueCount), 0, rotations);
  }
}

/** An animation's `name` as the file writes it, undefined when it has none. */
function fileName(animation: JsonObject): string | undefined {
  return typeof animation.name === 'string' ? animation.name : undefined;
}

/** The views an accessor reads: its own and its sparse indices' and values'. */
function accessorViews(a: JsonObject): number[] {
  const out: number[] = [];
  if (a.bufferView !== undefined) out.push(a.bufferView as number);
  const sparse = a.sparse as JsonObject | undefined;
  if (sparse) out.push((sparse.indices as JsonObject).bufferView as number, (sparse.values as JsonObject).bufferView as number);
  return out;
}

/**
 * The planned animations as glTF JSON, their data appended to the layout in one view: each
 * distinct key-time array once (SCALAR FLOAT with min and max, as inputs need), each output after
 * it (FLOAT, or normalized SHORT for quantized rotations).
 */
function addAnimations(layout: Layout, planned: readonly { planned: PlannedAnimation<number>; name: string | undefined }[], interpolation: 'linear' | 'step'): JsonObject[] {
  if (planned.length === 0) return [];
  const data = new AnimationData(layout);
  const interp = interpolation === 'step' ? 'STEP' : 'LINEAR';
  const animations: JsonObject[] = [];
  for (const { planned: a, name } of planned) animations.push(data.animation(a, name, interp));
  // Appended as they are (written only when the file is): each is whole 4-byte words, so they lie end to end.
  const start = layout.buffer.append(new Uint8Array(0));
  for (const part of data.parts) layout.buffer.append(part);
  layout.views.push({ buffer: 0, byteOffset: start, byteLength: data.byteLength });
  return animations;
}

/**
 * The new animation data of `addAnimations`: its parts, in order, and the accessors of them. A
 * class, not closures made per file, which V8 compiled again for most files written (issue 15).
 */
class AnimationData {
  readonly parts: (Uint8Array | BinaryPart)[] = [];
  byteLength = 0;
  private readonly times = new SharedTimes<number>();

  constructor(private readonly layout: Layout) {}

  /** One planned animation as glTF JSON (`name` left out when undefined), its inputs (each distinct time array once) and outputs added. */
  animation(a: PlannedAnimation<number>, name: string | undefined, interpolation: string): JsonObject {
    const samplers: JsonObject[] = [];
    const channels: JsonObject[] = [];
    for (const channel of a.channels) {
      const input = this.input(channel.times);
      const type = channel.path === 'weights' ? 'SCALAR' : channel.path === 'rotation' ? 'VEC4' : 'VEC3';
      const quantized = channel.quantized;
      const width = type === 'SCALAR' ? 1 : type === 'VEC4' ? 4 : 3;
      const output = this.accessor(new ChannelBytes(channel), { componentType: quantized ? SHORT : FLOAT, ...(quantized && { normalized: true }), count: channel.valueCount / width, type });
      channels.push({ sampler: samplers.push({ input, output, interpolation }) - 1, target: { node: channel.node, path: channel.path } });
    }
    return { ...(name !== undefined && { name }), channels, samplers, ...(a.extras && { extras: { animcore: a.extras } }) };
  }

  /** The input accessor of times `t` (SCALAR FLOAT with min and max, as inputs need), added the first time. */
  private input(t: Float32Array): number {
    const known = this.times.find(t);
    if (known !== undefined) return known;
    const index = this.accessor(new Uint8Array(t.buffer, t.byteOffset, t.byteLength), { componentType: FLOAT, count: t.length, type: 'SCALAR', min: [t[0]], max: [t[t.length - 1]] });
    this.times.add(t, index);
    return index;
  }

  private accessor(part: Uint8Array | BinaryPart, def: JsonObject): number {
    const at = this.byteLength;
    this.parts.push(part);
    this.byteLength += part.byteLength; // every part is a whole number of 4-byte words (float32, or int16 × 4)
    return this.layout.accessors.push({ bufferView: this.layout.views.length, byteOffset: at, ...def }) - 1;
  }
}

/** The output JSON: the source's with accessors, views, buffers, images and animations replaced and references renumbered (`renumberAccessorRefs`). */
function rewrittenJson(json: JsonObject, layout: Layout, animations: JsonObject[]): JsonObject {
  const view = (i: unknown) => layout.view[i as number]!;
  const out = renumberAccessorRefs(json, (i) => layout.accessor[i]!);
  // A Draco primitive's compressed view, kept byte for byte, is named by its extension.
  if (out.meshes !== undefined) out.meshes = (out.meshes as JsonObject[]).map((mesh) => ({ ...mesh, primitives: (mesh.primitives as JsonObject[]).map((p) => withDracoView(p, view)) }));
  out.asset = { ...(json.asset as JsonObject) };
  // Loops, not callbacks made per file: V8 compiled those again every few files (issue 15).
  let keptCount = 0;
  for (let i = 0; i < layout.accessor.length; i++) if (layout.accessor[i]! >= 0) keptCount++;
  const accessors: JsonObject[] = [];
  for (let i = 0; i < layout.accessors.length; i++) {
    const a = layout.accessors[i]!;
    if (i >= keptCount) {
      accessors.push(a);
      continue;
    }
    const copy: JsonObject = { ...a };
    if (a.bufferView !== undefined) copy.bufferView = view(a.bufferView);
    const sparse = a.sparse as JsonObject | undefined;
    if (sparse) {
      const indices = sparse.indices as JsonObject;
      const values = sparse.values as JsonObject;
      copy.sparse = { ...sparse, indices: { ...indices, bufferView: view(indices.bufferView) }, values: { ...values, bufferView: view(values.bufferView) } };
    }
    accessors.push(copy);
  }
  out.accessors = accessors;
  out.bufferViews = layout.views;
  out.buffers = [{}]; // byteLength (and, for .gltf, uri) set when written
  if (json.images !== undefined) {
    out.images = (json.images as JsonObject[]).map((image, i) => {
      const embedded = layout.imageViews.get(i);
      if (embedded) {
        const { uri: _uri, ...rest } = image;
        return { ...rest, bufferView: embedded.view, ...(embedded.mimeType !== undefined && { mimeType: embedded.mimeType }) };
      }
      return image.bufferView === undefined ? image : { ...image, bufferView: view(image.bufferView) };
    });
  }
  if (animations.length > 0) out.animations = animations;
  else delete out.animations;
  return out;
}

/** Primitive `p` with its `KHR_draco_mesh_compression` view renumbered (`view`), or `p` itself without one. */
function withDracoView(p: JsonObject, view: (i: unknown) => number): JsonObject {
  const extensions = p.extensions as JsonObject | undefined;
  const draco = extensions?.KHR_draco_mesh_compression as JsonObject | undefined;
  if (draco === undefined) return p;
  return { ...p, extensions: { ...extensions, KHR_draco_mesh_compression: { ...draco, bufferView: view(draco.bufferView) } } };
}

/** Drops an empty buffer (and its views), which glTF forbids (byteLength ≥ 1), and sets its byteLength. */
function withBuffer(json: JsonObject, byteLength: number, uri?: string): JsonObject {
  if (byteLength === 0) {
    const { buffers: _b, bufferViews: _v, ...rest } = json;
    return rest;
  }
  return { ...json, buffers: [{ ...(uri !== undefined && { uri }), byteLength }] };
}

function glb(json: JsonObject, layout: Layout, core: AnimCore): Uint8Array {
  const binLength = layout.buffer.byteLength;
  const text = new TextEncoder().encode(JSON.stringify(withBuffer(json, binLength)));
  const jsonLength = text.byteLength + ((4 - (text.byteLength % 4)) % 4);
  const binChunk = binLength > 0 ? 8 + binLength : 0;
  // Every byte is written below: the header, the JSON and its padding, the BIN chunk (`copyTo`).
  const out = uninitializedBytes(12 + 8 + jsonLength + binChunk);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.byteLength, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.byteLength, 20 + jsonLength); // JSON chunks are padded with spaces (§4.4.3.1)
  if (binChunk > 0) {
    view.setUint32(20 + jsonLength, binLength, true);
    view.setUint32(24 + jsonLength, CHUNK_BIN, true);
    layout.buffer.copyTo(out, 28 + jsonLength, core);
  }
  return out;
}

function gltfFiles(json: JsonObject, layout: Layout, name: string, core: AnimCore): OutputFile[] {
  // A URI is percent-encoded (glTF 2.0 §3.3.2, RFC 3986): a `#` or space in the file name must still load.
  const out = withBuffer(json, layout.buffer.byteLength, encodeURIComponent(`${name}.bin`));
  const files: OutputFile[] = [{ name: `${name}.gltf`, bytes: new TextEncoder().encode(JSON.stringify(out, null, 2)) }];
  if (layout.buffer.byteLength > 0) {
    const bin = uninitializedBytes(layout.buffer.byteLength);
    layout.buffer.copyTo(bin, 0, core);
    files.push({ name: `${name}.bin`, bytes: bin });
  }
  return files;
}
