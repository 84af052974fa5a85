import { type Accessor, type Buffer, Document, ImageUtils, type Node, WebIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { type AnimClip, type AnimResource, axesText } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { type ChannelNodes, type PlannedAnimation, planAnimations } from './animation-channels.js';
import type { ExportAxisOptions } from './axis-conversion.js';
import type { ClipExportOptions } from './export-clip.js';
import type { ClipReduction } from './reduce-clip.js';
import { jointNodes, type JointNodes } from './joint-nodes.js';
import { addRigidMeshes } from './rigid-meshes.js';
import { addSkinnedMeshes } from './skinned-meshes.js';
import { SharedTimes } from './shared-times.js';
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
 * A glTF input keeps its own file with only the animations replaced through `rewriteGltf` instead.
 * `resource` is loaded into `core` when a clip must be resampled.
 * @throws UsageError for an `fps` that is not a finite number > 0, a bad tolerance, and as
 *   `convertResource`
 */
export function toGltfDocument(core: AnimCore, input: AnimResource, options: GltfExportOptions = {}): GltfExport {
  let made: { document: Document; buffer: Buffer; nodes: JointNodes } | undefined;
  const plan = planAnimations(core, input, options, (resource, clips) => {
    made = newDocument(resource, clips);
    return documentNodes(made.nodes);
  });
  const { document, buffer } = made!;
  document.getRoot().getAsset().extras = { animcore: exportAxes(input, options) };
  const times = new SharedTimes<Accessor>();
  for (const planned of plan.animations) if (planned) addAnimation(document, buffer, times, planned, plan.interpolation);
  // A buffer no accessor uses would be written without a byteLength (glTF 2.0 §5.10 requires one).
  if (document.getRoot().listAccessors().length === 0) buffer.dispose();
  return { document, clips: plan.clips, counts: plan.counts, reductions: plan.reductions, warnings: plan.warnings };
}

/** What `asset.extras.animcore` records of an export's space. */
export function exportAxes(input: AnimResource, options: ExportAxisOptions): { up: string; sourceAxes: string; scale: number } {
  return { up: options.up ?? 'y', sourceAxes: axesText(input.axes), scale: options.scale ?? 1 };
}

/** glTF-Transform nodes as channel targets. */
function documentNodes(nodes: JointNodes): ChannelNodes<Node> {
  return {
    byName: nodes.byName,
    rest: (node, property) => (property === 'translation' ? node.getTranslation() : property === 'rotation' ? node.getRotation() : node.getScale()),
    morphTargets: (node) => node.getMesh()?.listPrimitives()[0]?.listTargets().length ?? 0,
  };
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

/** Adds the planned animation to the document; a weights output is SCALAR, a quantized rotation normalized. */
function addAnimation(document: Document, buffer: Buffer, times: SharedTimes<Accessor>, planned: PlannedAnimation<Node>, interpolation: 'linear' | 'step'): void {
  const animation = document.createAnimation(planned.name);
  for (const channel of planned.channels) {
    const type = channel.path === 'weights' ? 'SCALAR' : channel.path === 'rotation' ? 'VEC4' : 'VEC3';
    const output = document.createAccessor().setType(type).setArray(channel.values).setBuffer(buffer);
    if (channel.values instanceof Int16Array) output.setNormalized(true);
    const input = times.get(channel.times, () => document.createAccessor().setType('SCALAR').setArray(channel.times).setBuffer(buffer));
    const sampler = document
      .createAnimationSampler()
      .setInput(input)
      .setOutput(output)
      .setInterpolation(interpolation === 'step' ? 'STEP' : 'LINEAR');
    animation.addSampler(sampler).addChannel(document.createAnimationChannel().setTargetNode(channel.node).setTargetPath(channel.path).setSampler(sampler));
  }
  if (planned.extras) animation.setExtras({ animcore: planned.extras });
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
