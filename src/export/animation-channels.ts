import type { AnimClip, AnimCurve, AnimResource } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { type ExportAxisOptions, convertResource } from './axis-conversion.js';
import { type ClipExportOptions, exportClips } from './export-clip.js';
import type { ExportCounts } from './export-counts.js';
import { boolTrack } from './bool-track.js';
import { type CurveTrack, curveTrack, type RotationWriter, writeTrackValues } from './curve-track.js';
import { isNodeProperty } from './joint-nodes.js';
import { type ClipReduction, keyTolerance, type KeyTolerance } from './reduce-clip.js';
import { onSharedTimes } from './shared-times.js';
import { trackFromZero } from './track-from-zero.js';
import { quantizedRotations, toleranceWithQuantization } from './quantize-rotations.js';

/** The output nodes an animation's channels can target, whatever holds them (a glTF-Transform `Node`, a node index). */
export interface ChannelNodes<N> {
  /** The node of each joint name (skeleton joints first, then names of other nodes). */
  readonly byName: ReadonlyMap<string, N>;
  /** The node's rest translation, rotation (x y z w) or scale. */
  rest(node: N, property: 'translation' | 'rotation' | 'scale'): ArrayLike<number>;
  /** Morph targets of the node's mesh (its first primitive's), 0 without a mesh. */
  morphTargets(node: N): number;
}

/** One glTF sampler and its channel: the node and path it drives and its keys as the file stores them. */
export interface PlannedChannel<N> {
  readonly node: N;
  readonly path: 'translation' | 'rotation' | 'scale' | 'weights';
  /** Key times, seconds from 0, strictly increasing (the sampler's input). */
  readonly times: Float32Array;
  /**
   * The sampler's output, element after element: VEC3 for translation and scale, VEC4 for rotation
   * (Int16Array: normalized signed shorts, `quantize`), SCALAR × morph targets per key for weights.
   * Made when first read; `writeValues` writes them without making them.
   */
  readonly values: Float32Array | Int16Array;
  /** `values.length`, known without making them. */
  readonly valueCount: number;
  /** Whether `values` is an Int16Array (normalized signed shorts). */
  readonly quantized: boolean;
  /**
   * Writes `values` into `out` from element `at` (an Int16Array when `quantized`, else a
   * Float32Array): straight from the track where `values` is not made yet (`writeTrackValues`,
   * rotations aligned by `rotations` where given), so a file writer copies a baked track's keys once.
   */
  writeValues(out: Float32Array | Int16Array, at: number, rotations?: RotationWriter): void;
}

/** What one clip becomes in glTF (`planAnimation`). */
export interface PlannedAnimation<N> {
  readonly name: string;
  readonly channels: readonly PlannedChannel<N>[];
  /** `extras.animcore` of the animation (Bool curves and events), or null when it has neither. */
  readonly extras: { bools: { joint: string | null; property: string; times: number[]; values: number[] }[]; events: { name: string; category: string; time: number }[] } | null;
  /** Keys written: per sampler its key count (× targets for weights), per Bool curve its transitions. */
  readonly keys: number;
}

/** How channels are written: the samplers' interpolation and whether rotations are quantized. */
export interface ChannelOptions {
  readonly interpolation: 'linear' | 'step';
  readonly quantize: boolean;
  /** With reduction: a static curve within this tolerance of its node's rest value is left out (glTF-Transform issue #1143). */
  readonly restDrop: KeyTolerance | null;
}

/** What a glTF writer needs of an export (`planAnimations`). */
export interface PlannedExport<N> {
  /** The resource in the output's space (`convertResource`). */
  readonly resource: AnimResource;
  /** The clips written, in the output's space, baked and reduced (`exportClips`). */
  readonly clips: readonly AnimClip[];
  /** Per clip its animation, or null when it gives none (then a warning says so). */
  readonly animations: readonly (PlannedAnimation<N> | null)[];
  readonly counts: ExportCounts;
  readonly reductions: readonly ClipReduction[];
  readonly warnings: readonly string[];
  readonly interpolation: 'linear' | 'step';
}

/**
 * The animations of `input` as glTF writes them: converted to the output's space, baked and
 * reduced (`exportClips`; with `quantize`, at the rotation tolerance less the rounding), and
 * planned per clip (`planAnimation`) on the nodes `nodesOf` gives for the converted resource and
 * the written clips.
 * @throws UsageError as `convertResource` and `exportClips`
 */
export function planAnimations<N>(
  core: AnimCore,
  input: AnimResource,
  options: ExportAxisOptions & ClipExportOptions & { quantize?: boolean },
  nodesOf: (resource: AnimResource, clips: readonly AnimClip[]) => ChannelNodes<N>,
): PlannedExport<N> {
  const resource = convertResource(input, options);
  const { clips, reductions } = exportClips(core, resource.clips, options.quantize ? { ...options, tolerance: toleranceWithQuantization(options.tolerance) } : options);
  const nodes = nodesOf(resource, clips);
  const interpolation = options.interpolation ?? 'linear';
  const channelOptions: ChannelOptions = { interpolation, quantize: options.quantize === true, restDrop: reductions.length > 0 ? keyTolerance(options.tolerance) : null };
  const counts: ExportCounts = { clips: clips.length, keysIn: 0, keysOut: 0 };
  const skipped = new Map<string, number>();
  const empty: string[] = [];
  const animations = resource.clips.map((source, c) => {
    counts.keysIn += source.storedKeyCount;
    const planned = planAnimation(clips[c]!, nodes, channelOptions, skipped);
    if (planned === null) empty.push(clips[c]!.name);
    else counts.keysOut += planned.keys;
    return planned;
  });
  const warnings = [
    ...[...skipped].map(([what, n]) => `${n} ${what} curve(s) drive no glTF node property; not exported`),
    ...empty.map((name) => `clip "${name}" has no active translation, rotation or scale curve on a node; glTF animations need one, so it is not exported`),
  ];
  return { resource, clips, animations, counts, reductions, warnings, interpolation };
}

/**
 * The glTF animation of `clip` (glTF 2.0 §3.11), independent of how the file is then built — the
 * one place for which curve becomes which channel, so that a new document (`toGltfDocument`) and a
 * rewritten source file (`rewriteGltf`) agree:
 * - one channel per active translation, rotation or scale curve on a node (the first per node and
 *   property), keys as `curveTrack` gives them, from 0 s (`trackFromZero`); a static curve at its
 *   node's rest value (within `restDrop`) is left out, unless every channel is, when the first stays;
 * - `weights/<k>` curves that cover a node's morph targets exactly: one `weights` channel on the
 *   union of their key times (`onSharedTimes`);
 * - Bool curves and events as `extras`; curves no node property takes are counted in `skipped`
 *   (per `"<curve type> \"<property>\""`).
 * Returns null when no curve gives a channel: glTF animations need at least one (glTF 2.0 §5.1).
 */
export function planAnimation<N>(clip: AnimClip, nodes: ChannelNodes<N>, options: ChannelOptions, skipped: Map<string, number>): PlannedAnimation<N> | null {
  const step = options.interpolation === 'step';
  const channels: PlannedChannel<N>[] = [];
  const bools: NonNullable<PlannedAnimation<N>['extras']>['bools'] = [];
  const driven = new Set<string>();
  let keys = 0;
  const addChannel = (curve: AnimCurve, node: N, path: 'translation' | 'rotation' | 'scale') => {
    const track = trackFromZero(curveTrack(clip, curve), path === 'rotation', step);
    const quantized = path === 'rotation' && options.quantize ? quantizedRotations(track.values) : null;
    channels.push(quantized ? arrayChannel(node, path, track.times, quantized) : trackChannel(node, path, track));
    keys += track.times.length;
  };
  const morphs = morphCurves(clip, nodes);
  for (const [node, curves] of morphs) {
    const tracks = onSharedTimes(
      curves.map((c) => trackFromZero(curveTrack(clip, c), false, step)),
      step,
    );
    const n = tracks[0]!.times.length;
    const values = new Float32Array(n * tracks.length);
    for (let k = 0; k < n; k++) tracks.forEach((t, m) => (values[k * tracks.length + m] = t.values[4 * k]!));
    channels.push(arrayChannel(node, 'weights', tracks[0]!.times, values));
    keys += n * tracks.length;
  }
  // A clip whose every channel is at rest keeps its first one: glTF animations need a channel.
  let firstAtRest: Parameters<typeof addChannel> | null = null;
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
    if (node === undefined || !isNodeProperty(property)) {
      const what = `${curve.curveType} "${property}"`;
      skipped.set(what, (skipped.get(what) ?? 0) + 1);
      continue;
    }
    if (driven.has(`${joint}\0${property}`)) continue;
    driven.add(`${joint}\0${property}`);
    if (options.restDrop && atRest(curve, nodes.rest(node, property), property, options.restDrop)) firstAtRest ??= [curve, node, property];
    else addChannel(curve, node, property);
  }
  if (channels.length === 0 && firstAtRest) addChannel(...firstAtRest);
  if (channels.length === 0) return null;
  const events = clip.events.map((e) => ({ name: e.name, category: e.category, time: e.time }));
  return { name: clip.name, channels, extras: bools.length > 0 || events.length > 0 ? { bools, events } : null, keys };
}

/**
 * Active `weights/<k>` curves of each node with a mesh whose morph targets they cover exactly
 * (`weights/0` … `weights/N-1` of its N targets, first curve per target), by node.
 */
function morphCurves<N>(clip: AnimClip, nodes: ChannelNodes<N>): Map<N, AnimCurve[]> {
  const byNode = new Map<N, AnimCurve[]>();
  for (const curve of clip.curves) {
    const k = /^weights\/(\d+)$/.exec(curve.target.property);
    const node = curve.target.joint === null ? undefined : nodes.byName.get(curve.target.joint);
    if (!curve.active || !k || node === undefined) continue;
    const list = byNode.get(node) ?? [];
    list[Number(k[1])] ??= curve;
    byNode.set(node, list);
  }
  for (const [node, list] of byNode) {
    const targets = nodes.morphTargets(node);
    const complete = targets > 0 && list.length === targets && [...list].every((c) => c !== undefined);
    if (!complete) byNode.delete(node);
  }
  return byNode;
}

/**
 * Whether a static curve holds its node's rest value within tolerance (distance; for rotations
 * the angle, q and −q alike), so that its channel changes nothing and is left out.
 */
function atRest(curve: AnimCurve, rest: ArrayLike<number>, property: 'translation' | 'rotation' | 'scale', tolerance: KeyTolerance): boolean {
  if (curve.keys.encoding !== 'static') return false;
  const v = curve.keys.value;
  if (property === 'rotation') {
    const len = Math.hypot(v[0]!, v[1]!, v[2]!, v[3]!);
    const s = v[0]! * rest[0]! + v[1]! * rest[1]! + v[2]! * rest[2]! + v[3]! * rest[3]! < 0 ? -1 : 1;
    // The angle from the chord between unit quaternions, 4 asin(|a − b| / 2): exact for small angles, unlike acos of the dot.
    const chord = Math.hypot(v[0]! / len - s * rest[0]!, v[1]! / len - s * rest[1]!, v[2]! / len - s * rest[2]!, v[3]! / len - s * rest[3]!);
    return 4 * Math.asin(Math.min(1, chord / 2)) <= tolerance.rotation;
  }
  return Math.hypot(v[0]! - rest[0]!, v[1]! - rest[1]!, v[2]! - rest[2]!) <= tolerance[property];
}

/** A channel whose output is `values` as they are. */
function arrayChannel<N>(node: N, path: PlannedChannel<N>['path'], times: Float32Array, values: Float32Array | Int16Array): PlannedChannel<N> {
  return new TrackChannel(node, path, times, values.length, values instanceof Int16Array, null, 4, values);
}

/** A float channel of a translation, rotation or scale track: VEC4 rotations, VEC3 (x y z of each float4 key) otherwise, made or written (`writeTrackValues`) when asked for. */
function trackChannel<N>(node: N, path: 'translation' | 'rotation' | 'scale', track: CurveTrack): PlannedChannel<N> {
  const width = path === 'rotation' ? 4 : 3;
  return new TrackChannel(node, path, track.times, width * track.times.length, false, track, width, undefined);
}

/** A planned channel (a class: closures made per channel were compiled again for most files written; --trace-opt, issue 15). */
class TrackChannel<N> implements PlannedChannel<N> {
  constructor(
    readonly node: N,
    readonly path: PlannedChannel<N>['path'],
    readonly times: Float32Array,
    readonly valueCount: number,
    readonly quantized: boolean,
    /** The track the values come from, `width` floats per key; null when `made` is given. */
    private readonly track: CurveTrack | null,
    private readonly width: 3 | 4,
    private made: Float32Array | Int16Array | undefined,
  ) {}

  get values(): Float32Array | Int16Array {
    if (this.made === undefined) {
      if (this.width === 4) this.made = this.track!.values;
      else writeTrackValues(this.track!, (this.made = new Float32Array(this.valueCount)), 0, 3);
    }
    return this.made;
  }

  writeValues(out: Float32Array | Int16Array, at: number, rotations?: RotationWriter): void {
    if (this.made !== undefined) out.set(this.made, at);
    else writeTrackValues(this.track!, out as Float32Array, at, this.width, rotations);
  }
}
