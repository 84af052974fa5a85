import { AnimClip, type AnimCurve, type CurveKeys, type CurveType, packedKeyedKeys } from '../../anim/index.js';
import { readAccessorFloats } from './accessor-values.js';
import { animcoreExtras } from './animcore-extras.js';
import { channelTarget, type GltfCollections, morphTargetCount, PATH_TYPES, TYPE_COMPONENTS } from './check-document.js';
import { describeBadValue, firstBadValue, isFileValue, MAX_FILE_VALUE } from '../value-range.js';
import { fail, type JsonObject } from './json-fields.js';
import { uniqueNames } from './unique-names.js';

const CURVE_TYPES: Readonly<Record<string, CurveType>> = { translation: 'translation', rotation: 'rotation', scale: 'scale', weights: 'float' };

/**
 * One `AnimClip` per glTF animation (glTF 2.0 §3.11), named by the animation (`animation<i>`
 * without a name; duplicates get `#<i>`), in file order. Each channel gives curves in channel
 * order: translation, rotation or scale one curve, `weights` of N morph targets N `float` curves
 * (`weights/0` … `weights/N-1`, value in x); the target is `{ joint: names[node], property }`.
 * Accessors are read from the buffers (`readAccessorFloats`), not through a document model.
 * Keys: LINEAR and STEP samplers → `keyed` curves with that interpolation, CUBICSPLINE → `cubic`
 * curves (in-tangent, value, out-tangent per key). Outputs are decoded per spec (normalized
 * integers included); translation and scale have w = 0. Clips hold the first and last key before
 * and after the keys (constant infinity), time 0 is glTF time 0, the duration is the latest key
 * time, and rotations slerp by default (Appendix C). Channels with no node or a path of an
 * extension are left out with a warning; channels glTF forbids — on a node with a `matrix`, or a
 * second on one node and path — are read with a warning (`channelWarnings`). Events and Bool
 * curves that animcore's export kept in the animation's `extras.animcore` are read back
 * (`animcoreExtras`).
 * @throws FormatError naming the sampler's `input` or `output` for a key time or value that is not
 *   a file value (value-range.ts), or times that decrease; naming the channel when the channels
 *   hold more keys than the buffers' bytes allow (`KEYS_PER_BYTE`: outputs read by many
 *   channels). Without `checkOnOpen`, the values of LINEAR and STEP translation, rotation and
 *   scale outputs are tested when first used instead (`PackedValues.unchecked`): loaded into a
 *   core, or read as `values` (`openGltf`'s `valueChecks`).
 */
export function gltfClips(c: GltfCollections, buffers: readonly Uint8Array[], nodeNames: readonly string[], warnings: string[], checkOnOpen = true): AnimClip[] {
  // Decoded and checked once per accessor: the samplers of a rig usually share one input.
  const timesOf = new Map<number, Float32Array>();
  const names = uniqueNames(
    c.animations!.map((a) => a.name as string | undefined),
    'animation',
  );
  // Plain loops over module-level functions rather than callbacks made per file, which V8
  // compiled again for most files read (--trace-opt; issue 15, gltf-resample).
  let bytes = 0;
  for (let b = 0; b < buffers.length; b++) bytes += buffers[b]!.length;
  const budget: KeyBudget = { keys: 0, bytes, max: KEYS_PER_BYTE * bytes + KEYS_FREE };
  const clips: AnimClip[] = [];
  for (let a = 0; a < c.animations!.length; a++) clips.push(animationClip(c, buffers, nodeNames, warnings, timesOf, a, names[a]!, budget, checkOnOpen));
  return clips;
}

/**
 * Keys the clips of one file may hold (each a float4 of 16 bytes once loaded): 4 per byte of its
 * buffers plus 2^22, i.e. the fuzzer's memory bound of 64 MiB plus 64 times the input. A file's
 * own outputs stay far below it (a key costs at least a byte per component); many channels reading
 * one output accessor do not: 2,000 channels on one 1.6 MB rotation output made 3.2 GB of keys.
 */
const KEYS_PER_BYTE = 4;
const KEYS_FREE = 1 << 22;

/** The keys taken so far and the most a file may hold (`KEYS_PER_BYTE`). */
interface KeyBudget {
  keys: number;
  /** Bytes of the file's buffers. */
  readonly bytes: number;
  readonly max: number;
}

/** Animation `a` of the document as a clip named `name` (`gltfClips`). */
function animationClip(c: GltfCollections, buffers: readonly Uint8Array[], nodeNames: readonly string[], warnings: string[], timesOf: Map<number, Float32Array>, a: number, name: string, budget: KeyBudget, checkOnOpen: boolean): AnimClip {
  const animation = c.animations![a]!;
  const p = `/animations/${a}`;
  const samplers = animation.samplers as JsonObject[];
  const decoded = new Map<number, SamplerOutput>();
  const curves: AnimCurve[] = [];
  let start = Infinity;
  const channels = animation.channels as JsonObject[];
  // The first channel of each target (4 · node + path), for channelWarnings.
  const targeted = new Map<number, number>();
  for (let k = 0; k < channels.length; k++) {
    const target = channelTarget(channels[k]!.target as JsonObject, `${p}/channels/${k}/target`);
    if ('notRead' in target) {
      warnings.push(`${p}/channels/${k}: ${target.notRead}; left out`);
      continue;
    }
    const { node, path } = target;
    channelWarnings(c, targeted, node, path, k, `${p}/channels/${k}`, nodeNames, warnings);
    const s = channels[k]!.sampler as number;
    const sampler = samplers[s]!;
    if (!decoded.has(s)) {
      const input = sampler.input as number;
      if (!timesOf.has(input)) timesOf.set(input, keyTimes(readAccessorFloats(c, buffers, input), `${p}/samplers/${s}/input`, warnings));
      decoded.set(s, new SamplerOutput(timesOf.get(input)!, readAccessorFloats(c, buffers, sampler.output as number), `${p}/samplers/${s}/output`));
    }
    const output = decoded.get(s)!;
    const times = output.times;
    start = Math.min(start, times[0]!);
    const interpolation = (sampler.interpolation as string | undefined) ?? 'LINEAR';
    const width = TYPE_COMPONENTS[PATH_TYPES[path]!]!;
    const targets = path === 'weights' ? morphTargetCount(c, c.nodes![node]!) : 1;
    budget.keys += times.length * targets * (interpolation === 'CUBICSPLINE' ? 3 : 1);
    if (budget.keys > budget.max) {
      fail(`${p}/channels/${k}`, `the channels so far hold ${budget.keys} keys, more than the ${budget.max} that ${budget.bytes} bytes of buffers allow (output accessors read by many channels)`, 'bad-count');
    }
    // One value per key (LINEAR/STEP translation, rotation, scale) may be checked when the keys
    // are first used (curveKeys, `checkOnOpen` false); other outputs always here.
    if (checkOnOpen || interpolation === 'CUBICSPLINE' || targets > 1) output.check();
    if (interpolation === 'CUBICSPLINE') output.checkCubicReach(width * targets);
    for (let m = 0; m < targets; m++) {
      curves.push({
        curveType: CURVE_TYPES[path]!,
        target: { joint: nodeNames[node]!, property: path === 'weights' ? `weights/${m}` : path },
        active: true,
        keys: curveKeys(times, output, interpolation, width, targets, m),
      });
    }
  }
  const extras = animcoreExtras(animation, p, warnings);
  return new AnimClip({ name, curves: [...curves, ...extras.curves], events: extras.events, rotation: 'slerp', metadata: { index: a, start: Number.isFinite(start) ? start : 0 } });
}

// The channel paths glTF 2.0 §3.11 names, in one order for the keys of `channelWarnings`.
const PATHS = Object.keys(CURVE_TYPES);

/**
 * Reports channel `k` (at `q`) on `node`'s `path` where glTF 2.0 §3.11 forbids it: the first
 * channel on a node with a `matrix` (read as three.js's GLTFLoader does: the matrix decomposed is
 * the rest pose, `gltfSkeleton`, and the channels replace its parts), and a second channel on one
 * target (kept as a curve, one per channel; `bindJoints` and the exports take the first, where
 * three.js would blend the two). `targeted`: the first channel of each target (4 · node + path).
 */
function channelWarnings(c: GltfCollections, targeted: Map<number, number>, node: number, path: string, k: number, q: string, nodeNames: readonly string[], warnings: string[]): void {
  const key = 4 * node + PATHS.indexOf(path);
  const first = targeted.get(key);
  if (first !== undefined) {
    warnings.push(`${q}: node ${node} "${nodeNames[node]}" ${path} is already the target of channel ${first} (glTF 2.0 §3.11: one channel per target); the first channel poses the node`);
    return;
  }
  if (c.nodes![node]!.matrix !== undefined && !PATHS.some((_, i) => targeted.has(4 * node + i))) {
    warnings.push(`${q}: node ${node} "${nodeNames[node]}" has a matrix, which glTF 2.0 §3.11 forbids on an animated node; its matrix decomposed is the rest pose under the channels (as three.js's GLTFLoader)`);
  }
  targeted.set(key, k);
}

/**
 * A sampler's decoded accessors, read once per animation, and the test of its output values
 * (`check`: each refused value a `FormatError` naming the output at `pointer`), made once.
 */
class SamplerOutput {
  private checked = false;

  constructor(
    readonly times: Float32Array,
    readonly values: Float32Array,
    readonly pointer: string,
  ) {}

  /**
   * Refuses a CUBICSPLINE segment that can sample beyond ±1e38 (issue 13: no finite key samples
   * as Inf; fuzz seed 4121842410: an in-tangent of 1e30 over a 1e20 s gap). The Hermite segment of
   * Appendix C is the Bézier with control values v_k + d·b_k / 3 and v_k+1 − d·a_k+1 / 3 (d the key
   * gap), so with those within ±1e38 (value-range.ts) every sample is a float32, as
   * `checkSegmentReach` holds Unity's segments (src/formats/mrtk/read.ts). `elements`: floats per
   * part of a key (components × morph targets). Linear in the output's size.
   */
  checkCubicReach(elements: number): void {
    const { times, values } = this;
    const key = 3 * elements; // in-tangents, values, out-tangents
    for (let k = 0; k + 1 < times.length; k++) {
      const d = times[k + 1]! - times[k]!;
      for (let j = 0; j < elements; j++) {
        const out = values[k * key + elements + j]! + (d * values[k * key + 2 * elements + j]!) / 3;
        const into = values[(k + 1) * key + elements + j]! - (d * values[(k + 1) * key + j]!) / 3;
        if (!isFileValue(out)) this.refuseReach(k, 'out-tangent', 'next', j, elements, d, out);
        if (!isFileValue(into)) this.refuseReach(k + 1, 'in-tangent', 'previous', j, elements, d, into);
      }
    }
  }

  private refuseReach(key: number, field: string, toward: string, j: number, elements: number, d: number, reach: number): never {
    fail(this.pointer, `key ${key} ${field} (float ${j} of ${elements}): over the ${d.toPrecision(3)} s to the ${toward} key the spline reaches ${reach.toPrecision(3)}; expected a segment within ±${MAX_FILE_VALUE}`, 'bad-value');
  }

  check(): void {
    if (this.checked) return;
    const bad = firstBadValue(this.values);
    if (bad >= 0) checkValues(this.values, bad, bad + 1, this.pointer);
    this.checked = true;
  }
}

/**
 * Key times, checked: finite and non-decreasing. What the spec forbids but three.js and
 * glTF-Transform read is read and reported: equal neighbours (kept as a step) and negative times
 * (kept as they are: time 0 is glTF time 0, so playing from 0 starts between keys).
 */
function keyTimes(times: Float32Array, pointer: string, warnings: string[]): Float32Array {
  let equal = 0;
  for (let k = 0; k < times.length; k++) {
    if (!isFileValue(times[k]!)) fail(pointer, `key time ${k}: ${describeBadValue(times[k]!)}`, 'bad-value');
    if (k > 0 && times[k]! < times[k - 1]!) fail(pointer, `key time ${k} (${times[k]} s) is before key time ${k - 1} (${times[k - 1]} s)`, 'bad-value');
    if (k > 0 && times[k] === times[k - 1]) equal++;
  }
  if (equal > 0) warnings.push(`${pointer}: ${equal} key time(s) equal to the one before (glTF requires increasing times); each is a step`);
  if (times[0]! < 0) warnings.push(`${pointer}: key time 0 is ${times[0]} s; glTF 2.0 §3.11 requires times of 0 or more (read as they are: playing from 0 starts between keys)`);
  return times.slice();
}

/** Refuses output values `from` … `to` − 1 that are not file values (value-range.ts: within ±1e38, so that lerp's difference of two keys stays a float32). */
function checkValues(values: Float32Array, from: number, to: number, pointer: string): void {
  for (let i = from; i < to; i++) if (!isFileValue(values[i]!)) fail(pointer, `output value ${i}: ${describeBadValue(values[i]!)}`, 'bad-value');
}

/**
 * Float4 keys of lane group `m` of a sampler's output: `width` components per element, `targets`
 * elements per key and group (morph weights), and for CUBICSPLINE the groups of in-tangents,
 * values and out-tangents one after the other per key (§3.11, Appendix C). One value per key
 * (`targets` 1, not CUBICSPLINE) is kept as the accessor holds it (`packedKeyedKeys`: a view of
 * the file's buffer when tightly packed FLOAT; the output holds those values only: §3.11 counts,
 * `checkDocument`) and checked when first used (`output.check` as `PackedValues.unchecked`).
 */
function curveKeys(times: Float32Array, output: SamplerOutput, interpolation: string, width: number, targets: number, m: number): CurveKeys {
  const n = times.length;
  const values = output.values;
  const cubic = interpolation === 'CUBICSPLINE';
  const parts = cubic ? 3 : 1;
  if (parts === 1 && targets === 1) {
    // The common case (LINEAR/STEP translation, rotation, scale): the accessor's floats as they
    // are (packedKeyedKeys: the loader copies them into the kernel's block and tests them there,
    // float4 values are made only when read).
    return packedKeyedKeys(times, { data: values.subarray(0, width * n), width: width as 3 | 4, unchecked: output }, interpolation === 'STEP' ? 'step' : 'linear');
  }
  const out = new Float32Array(4 * parts * n);
  // Element e of the output starts at width·e; key k's part p (in-tangent, value, out-tangent) is element (parts·k + p)·targets + m.
  for (let k = 0; k < n; k++) {
    for (let p = 0; p < parts; p++) {
      const from = width * ((parts * k + p) * targets + m);
      const to = 4 * (parts * k + p);
      for (let c = 0; c < width; c++) out[to + c] = values[from + c]!;
    }
  }
  return keys(times, out, interpolation);
}

function keys(times: Float32Array, values: Float32Array, interpolation: string): CurveKeys {
  if (interpolation === 'CUBICSPLINE') return { encoding: 'cubic', times, values };
  return { encoding: 'keyed', times, values, interpolation: interpolation === 'STEP' ? 'step' : 'linear' };
}
