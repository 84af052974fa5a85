// The fuzzer's oracle (issue 13): one input goes open → load (float keys, or compressed and then
// compared with the float clip) → sample at extreme times (every rotation mode, linear and step) →
// mix → local-to-model → resample → (a sequence file: played, and its bake exported instead) →
// glTF export (checked by the Khronos validator) → JSON export → dispose, and the outcome says
// whether anything went wrong.
// Shared by `npm run fuzz` and the regression test over saved counterexamples.
import validator from 'gltf-validator';
import type * as Animcore from '../../src/index.js';
import type { FuzzInput } from './input.js';

type Lib = typeof Animcore;
type AnimResource = Animcore.AnimResource;
type AnimClip = Animcore.AnimClip;

/** What the library must never do with any input; each is a fuzz failure. */
export type FailureKind =
  | 'usage-error' // file data reported as misuse of the API
  | 'exception' // anything that is not an AnimcoreError (RangeError, TypeError, …)
  | 'bad-location' // a FormatError without a valid offset, line or JSON pointer
  | 'long-message' // an error message longer than one short line
  | 'non-finite-data' // an accepted resource holding NaN/Inf where no format needs it
  | 'non-finite-sample' // NaN/Inf sampled, mixed or resampled from finite keys
  | 'non-finite-model' // NaN/Inf model-space matrices from finite samples and rest pose
  | 'pipeline-error' // an accepted resource that a later stage cannot use
  | 'wrong-sample' // a compressed clip sampled beyond its error bounds from the float clip
  | 'invalid-gltf' // the export of an accepted resource fails the Khronos validator
  | 'slow' // over the time limit (set by the caller)
  | 'over-allocation' // more memory than the bound (set by the caller)
  | 'hang'; // never finished (the runner's watchdog)

export interface Outcome {
  result: 'accepted' | 'format-error' | 'failure';
  /** FormatError code, failure kind, or `ok`. */
  code: string;
  message?: string;
  stack?: string;
  /** The handler that opened (or refused) the file. */
  handler?: string;
  /** Wall time of the library's work (open to export; the validator excluded), ms. */
  ms: number;
  /** JS heap + ArrayBuffer growth (the larger of after sampling and after the export) plus wasm memory growth, bytes. */
  allocation: number;
  /** Whether the glTF export was refused with a UsageError (a resample limit), not a failure. */
  exportRefused?: boolean;
  /** Whether model-space matrices overflowed float32 in the float64 reference too (not a failure). */
  modelOverflow?: boolean;
}

/** The memory one input may cost: 64 MiB plus 64 times its bytes (pools, copies, wasm blocks, exports). */
export function allocationBound(inputBytes: number): number {
  return 64 * 2 ** 20 + 64 * inputBytes;
}

/** The longest error message that still counts as one short line. */
export const MAX_MESSAGE = 300;

const EXTREME_TIMES = (d: number) => [
  -Number.MAX_VALUE, -1e30, -1, -1e-9, 0, 5e-324, 1e-9, d / 3, d / 2, d - 1e-9, d, d + 1e-9, d + 1, 1e9, 1e30, Number.MAX_VALUE,
];

/** Keys per resampled clip the fuzzer asks for at most (the resample limit is issue 13 item 5's). */
const RESAMPLE_KEYS = 1 << 18;

class Failure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

function allFinite(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return i;
  return -1;
}

function checkFinite(values: ArrayLike<number>, kind: FailureKind, what: string): void {
  const i = allFinite(values);
  if (i >= 0) throw new Failure(kind, `${what}: value ${i} is ${values[i]}`);
}

/** Every number an accepted resource holds must be finite, except Unity's stepped (±Inf) tangents. */
function checkResourceData(resource: AnimResource): void {
  const data = (values: ArrayLike<number>, what: string) => checkFinite(values, 'non-finite-data', what);
  for (const clip of resource.clips) {
    const at = `clip "${clip.name}"`;
    if (!Number.isFinite(clip.duration)) throw new Failure('non-finite-data', `${at}: duration ${clip.duration}`);
    data(
      clip.events.map((e) => e.time),
      `${at} events`,
    );
    clip.curves.forEach((c, i) => {
      const keys = c.keys;
      const what = `${at} curve ${i}`;
      if (keys.encoding === 'static') data(keys.value, what);
      else if (keys.encoding === 'uniform') data(keys.values, what);
      else if (keys.encoding === 'keyed') {
        data(keys.times, `${what} times`);
        data(keys.values, what);
      } else if (keys.encoding === 'unity') {
        for (const lane of keys.lanes) {
          data(lane.time, `${what} times`);
          data(lane.value, what);
          data(lane.inWeight, `${what} weights`);
          data(lane.outWeight, `${what} weights`);
          for (const t of [lane.inTangent, lane.outTangent]) {
            for (let k = 0; k < t.length; k++) if (Number.isNaN(t[k]!)) throw new Failure('non-finite-data', `${what} tangent ${k} is NaN`);
          }
        }
      }
    });
  }
  resource.skeleton?.joints.forEach((j, i) => data([...j.rest.translation, ...j.rest.rotation, ...j.rest.scale, ...(j.morphWeights ?? [])], `joint ${i} rest pose`));
  for (const skin of resource.skeleton?.skins ?? []) data(skin.inverseBindMatrices, `skin "${skin.name}" inverse bind matrices`);
  for (const m of resource.meshes) data(m.positions, `mesh "${m.name}" positions`);
  for (const s of resource.skins) {
    data(s.positions, `skin "${s.name}" positions`);
    data(s.weights, `skin "${s.name}" weights`);
  }
}

/** The largest float32: a float64 value beyond it rounds to ±Infinity. */
const F32_MAX = 3.4028234663852886e38;

/**
 * Non-finite model-space matrices are a failure unless composing the transforms overflows float32
 * anyway: finite keys within ±1e38 can still multiply past it down a joint chain (a scale of 1e20
 * under a translation of 1e20). The float64 reference decides: if its matrices stay within the
 * float32 range, the kernel had no excuse.
 */
function checkModelOverflow(lib: Lib, buf: Animcore.AnimSampleBuffer, binding: Animcore.JointBinding, matrices: Float32Array, what: string, notes: Notes): void {
  const reference = new Float64Array(matrices.length);
  lib.referenceLocalToModel({ samples: buf.samples.slice(), counts: buf.counts.slice() }, binding, reference as unknown as Float32Array);
  if (reference.every((v) => Math.abs(v) <= F32_MAX)) {
    const i = allFinite(matrices);
    throw new Failure('non-finite-model', `${what}: value ${i} is ${matrices[i]}, the float64 reference ${reference[i]}`);
  }
  notes.modelOverflow = true;
}

/**
 * Non-finite values in a sequencer's result are a failure unless the blend overflows float32
 * anyway: samples of keys up to ±3.4e38 extrapolated by weights up to 3.4e38 (spec §1 does not
 * clamp them). The float64 twin of the update's blend (`referenceBlend`) decides lane by lane: the
 * kernel may give ±Infinity (of the twin's sign) where the twin's result is beyond float32, and
 * any non-finite value where the twin's running result leaves float32 on the way — the kernel
 * keeps it in float32 layer by layer (normal layers in order, then additive ones), so a `priority`
 * layer extrapolating past 3.4e38 stays ±Infinity (or ∞ − ∞) though a later one would pull it
 * back. Running results are the twin's over each prefix of that order.
 */
function checkBlendOverflow(lib: Lib, sequencer: Animcore.AnimSequencer, samples: Float32Array, what: string, notes: Notes): void {
  const { curveTypes, rest, layers, options } = sequencer.blendInputs();
  const blend = (prefix: Animcore.BlendLayer[]): Float64Array => {
    const out = { samples: new Float64Array(samples.length), counts: new Uint8Array(curveTypes.length) };
    lib.referenceBlend(curveTypes, rest, prefix, out as unknown as Animcore.SampleArrays, options);
    return out.samples;
  };
  const reference = blend(layers);
  const normal = layers.filter((l) => l.mode !== 'additive');
  const additive = layers.filter((l) => l.mode === 'additive');
  const prefixes = [...normal.map((_, k) => normal.slice(0, k + 1)), ...additive.map((_, k) => [...normal, ...additive.slice(0, k + 1)])];
  const leaves = new Uint8Array(samples.length);
  for (const prefix of prefixes.slice(0, -1)) blend(prefix).forEach((v, i) => (leaves[i] ||= Number(!(Math.abs(v) <= F32_MAX))));
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!;
    const r = reference[i]!;
    if (!Number.isFinite(v) && !leaves[i] && !(Math.abs(r) > F32_MAX && Math.sign(r) === Math.sign(v))) {
      throw new Failure('non-finite-sample', `${what}: value ${i} is ${v}, the float64 reference ${r}`);
    }
  }
  notes.modelOverflow = true;
}

/** What an accepted input showed that is not a failure. */
interface Notes {
  /** Model-space matrices (or a sequencer's blend) overflowed float32 in the float64 reference too. */
  modelOverflow: boolean;
}

/**
 * A clip loaded compressed samples within its bounds of the float clip (the plain-TypeScript
 * reference of the float keys): translations and scales within the bound (a lerp of keys each
 * within it), rotation components within 8 × the bound (a key's components within the bound, the
 * nlerp's normalisation of keys whose lerp stays away from 0), plus float32 rounding of the keys.
 */
function checkCompressed(lib: Lib, clip: AnimClip, buf: Animcore.AnimSampleBuffer, t: number, compression: NonNullable<FuzzInput['compression']>, sampleType: 'linear' | 'step'): void {
  const reference = { samples: new Float32Array(buf.samples.length), counts: new Uint8Array(buf.counts.length) };
  lib.referenceSample(clip, t, reference, { rotation: 'nlerp', sampleType });
  clip.curves.forEach((c, i) => {
    if (c.keys.encoding !== 'uniform') return; // only uniform curves are quantized
    // The float32 kernel and the float64 reference part by a few float32 ulps of the keys lerped (keys of 1e20 lerped to 6e12).
    const keys = c.keys.values;
    let largest = 1;
    let shortest = Infinity;
    for (let k = 0; k < keys.length; k++) largest = Math.max(largest, Math.abs(keys[k]!));
    for (let k = 0; k < keys.length; k += 4) shortest = Math.min(shortest, Math.hypot(keys[k]!, keys[k + 1]!, keys[k + 2]!, keys[k + 3]!));
    // A rotation key near zero makes the blend's direction a matter of rounding (and of the 1e-6 identity threshold): not comparable.
    if (c.curveType === 'rotation' && shortest < 1e-3) return;
    const bound = c.curveType === 'rotation' ? 8 * compression.rotation : c.curveType === 'scale' ? compression.scale : c.curveType === 'translation' ? compression.translation : 0;
    for (let k = 4 * i; k < 4 * i + 4; k++) {
      const a = buf.samples[k]!;
      const b = reference.samples[k]!;
      if (!(Math.abs(a - b) <= bound * (1 + 1e-6) + 1e-6 * largest)) {
        throw new Failure('wrong-sample', `clip "${clip.name}" loaded with compression ${JSON.stringify(compression)}: curve ${i} (${c.curveType}) component ${k % 4} at ${t} s (${sampleType}) is ${a}, the float clip's ${b}`);
      }
    }
  });
}

function sampleClip(lib: Lib, core: Animcore.AnimCore, resource: AnimResource, clip: AnimClip, notes: Notes, compression: FuzzInput['compression']): void {
  const unity = clip.curves.some((c) => c.keys.encoding === 'unity');
  const buf = core.createSampleBuffer(clip);
  const other = core.createSampleBuffer(clip);
  const skeleton = resource.skeleton;
  const binding = skeleton ? lib.bindJoints(clip.curves, skeleton) : null;
  const matrices = skeleton ? new Float32Array(16 * skeleton.size) : null;
  try {
    for (const rotation of unity ? (['nlerp', 'raw'] as const) : (['nlerp', 'slerp'] as const)) {
      for (const sampleType of ['linear', 'step'] as const) {
        for (const t of EXTREME_TIMES(clip.duration)) {
          core.sampler.sample(clip, t, buf, { rotation, sampleType });
          checkFinite(buf.samples, 'non-finite-sample', `clip "${clip.name}" at ${t} s (${rotation}, ${sampleType})`);
          if (compression && rotation === 'nlerp' && ['quantized', 'mixed'].includes(core.loadedSize(clip).encoding)) checkCompressed(lib, clip, buf, t, compression, sampleType);
          if (binding && matrices && rotation !== 'raw') {
            lib.localToModel(core, buf, binding, matrices);
            if (allFinite(matrices) >= 0) checkModelOverflow(lib, buf, binding, matrices, `clip "${clip.name}" model space at ${t} s (${rotation}, ${sampleType})`, notes);
          }
        }
      }
    }
    core.sampler.sample(clip, clip.duration / 3, other);
    core.mixer.mix(buf, other, 0.5, buf);
    checkFinite(buf.samples, 'non-finite-sample', `clip "${clip.name}" mixed`);
  } finally {
    buf.dispose();
    other.dispose();
  }
  const curves = Math.max(1, clip.curves.length);
  const fps = Math.min(30, RESAMPLE_KEYS / curves / Math.max(clip.duration, 1e-9));
  const result = lib.resample(core, clip, { fps, rotation: 'nlerp' });
  for (const c of result.clip.curves) {
    if (c.keys.encoding === 'uniform') checkFinite(c.keys.values, 'non-finite-sample', `clip "${clip.name}" resampled`);
  }
}

/** The time-critical part: open → load → sample → resample. Returns the resource (or the refusal). */
async function openAndSample(lib: Lib, core: Animcore.AnimCore, input: FuzzInput, notes: Notes): Promise<{ resource: AnimResource; handler: string; exported: AnimResource }> {
  const { sequence, ...files } = input.companions;
  const companions = Object.fromEntries(Object.entries(files).map(([role, f]) => [role, { file: f.name, bytes: f.bytes }]));
  const opened = await lib.openFormatFile({ name: input.main.name, bytes: input.main.bytes }, { companions, ...(input.format !== undefined && { format: input.format }) });
  const resource = opened.resource;
  try {
    checkResourceData(resource);
    core.load(resource, input.compression ? { compression: input.compression } : {});
    for (const clip of resource.clips.slice(0, 8)) sampleClip(lib, core, resource, clip, notes, input.compression);
    const exported = sequence ? playSequence(lib, core, resource, Buffer.from(sequence.bytes).toString('latin1'), notes) : resource;
    return { resource, handler: opened.handler.id, exported };
  } catch (e) {
    resource.dispose();
    throw e instanceof Failure || e instanceof lib.FormatError || e instanceof SequenceRefused ? e : new Failure('pipeline-error', describe(e));
  }
}

/** A sequence file refused with a UsageError that names the JSON path and why (issue 19): not a failure. */
class SequenceRefused extends Error {}

/** The paths a refusal of a sequence file may name (spec sequencer.md §7), or its JSON syntax. */
const SEQUENCE_PATH = /^(\(top level\)|(rule|rotation|threshold|names|masks|jobs)\b)|^not valid JSON/;

/** A limit refusing work before it is done (events of one window, keys or events of a bake): a UsageError, not a failure. */
function refusedByLimit(lib: Lib, e: unknown): boolean {
  return e instanceof lib.UsageError && /at most \d+ are (listed|kept)|over \d+ keys in all/.test(e.message) && e.message.length <= MAX_MESSAGE;
}

/**
 * A sequence file (issue 19) played on the resource: loaded (a UsageError naming the JSON path is
 * a refusal), updated at increasing and extreme times with model-space output, its events taken
 * between them, and baked (`bakeSequence`) to a resource of finite keys, which is what the input
 * exports.
 */
function playSequence(lib: Lib, core: Animcore.AnimCore, resource: AnimResource, text: string, notes: Notes): AnimResource {
  let sequencer: Animcore.AnimSequencer;
  try {
    sequencer = lib.loadSequence(core, resource, text);
  } catch (e) {
    if (!(e instanceof lib.UsageError)) throw e;
    if (!SEQUENCE_PATH.test(e.message) || e.message.length > MAX_MESSAGE) throw new Failure('long-message', `sequence refused without a JSON path or in a long message: ${e.message.slice(0, 200)}`);
    throw new SequenceRefused(e.message);
  }
  try {
    const model = resource.skeleton ? new lib.LocalToModelJob(core, sequencer.layout.binding()) : undefined;
    const end = sequencer.end();
    let previous = 0;
    for (const t of [0, 1e-9, 0.1, 0.5, 1, 1.5, 2, 3, Number.isFinite(end) ? end : 4, 10, 1e3, 1e9, 1e30, Number.MAX_VALUE]) {
      if (t < previous) continue;
      const result = sequencer.update(t, model ? { model } : {});
      if (allFinite(result.samples) >= 0) checkBlendOverflow(lib, sequencer, result.samples, `sequence at ${t} s`, notes);
      if (model && allFinite(model.matrices) >= 0) {
        const reference = new Float64Array(model.matrices.length);
        // A blend result: every curve is read, as the update's model job reads it (a curve of count 0 holds its rest value or an additive delta on it).
        lib.referenceLocalToModel({ samples: result.samples.slice(), counts: new Uint8Array(result.counts.length).fill(1) }, model.binding, reference as unknown as Float32Array);
        if (reference.every((v) => Math.abs(v) <= F32_MAX)) throw new Failure('non-finite-model', `sequence model space at ${t} s`);
      }
      try {
        checkFinite(
          sequencer.events(previous, t).map((e) => e.sequenceTime),
          'non-finite-sample',
          `sequence events (${previous}, ${t}]`,
        );
      } catch (e) {
        if (!refusedByLimit(lib, e)) throw e;
      }
      previous = t;
    }
    model?.dispose();
    const length = Number.isFinite(end) && end > 0 ? Math.min(end, 1e6) : 2;
    // At most 4,096 keys (a sequencer update each: a bake of 1e6 s took 2 s at the resample limit).
    const curves = Math.max(1, sequencer.layout.curveCount, RESAMPLE_KEYS / 4096);
    let baked: AnimResource;
    try {
      baked = lib.bakeSequence(core, resource, text, { fps: Math.min(30, RESAMPLE_KEYS / curves / length), length });
    } catch (e) {
      if (refusedByLimit(lib, e)) return resource;
      const message = e instanceof lib.UsageError ? e.message : '';
      const overflow = /^the sequence's pose at (\S+) s overflows float32/.exec(message);
      if (!overflow) throw e;
      // A pose beyond float32 is no clip's: refused, if the float64 twin overflows there too.
      const again = lib.loadSequence(core, resource, text);
      try {
        const samples = again.update(Number(overflow[1])).samples;
        if (allFinite(samples) < 0) throw new Failure('non-finite-sample', `sequence bake refused (${message.slice(0, 150)}), yet the pose is finite`);
        checkBlendOverflow(lib, again, samples, 'sequence baked', notes);
      } finally {
        again.dispose();
      }
      return resource;
    }
    for (const c of baked.clips[0]!.curves) {
      if (c.keys.encoding === 'uniform') checkFinite(c.keys.values, 'non-finite-sample', 'sequence baked');
    }
    return baked;
  } finally {
    sequencer.dispose();
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Sizes and line counts of the input's files, to check error locations against. */
function extent(input: FuzzInput): { bytes: number; lines: number } {
  let bytes = 0;
  let lines = 0;
  for (const f of [input.main, ...Object.values(input.companions)]) {
    bytes = Math.max(bytes, f.bytes.length);
    let n = 1;
    for (let i = 0; i < f.bytes.length; i++) if (f.bytes[i] === 10 || f.bytes[i] === 13) n++;
    lines = Math.max(lines, n);
  }
  return { bytes, lines };
}

/** Classifies an error thrown while opening: FormatError (checked) or a failure. */
function classify(lib: Lib, input: FuzzInput, e: unknown): Pick<Outcome, 'result' | 'code' | 'message' | 'stack'> {
  if (e instanceof Failure) return { result: 'failure', code: e.kind, message: e.message };
  if (e instanceof SequenceRefused) return { result: 'format-error', code: 'sequence-refused', message: e.message };
  const message = e instanceof Error ? e.message : String(e);
  const stack = e instanceof Error ? e.stack : undefined;
  if (e instanceof lib.FormatError) {
    const { bytes, lines } = extent(input);
    const offsetOk = e.offset !== undefined && Number.isInteger(e.offset) && e.offset >= 0 && e.offset <= bytes;
    const lineOk = e.line !== undefined && Number.isInteger(e.line) && e.line >= 1 && e.line <= lines;
    // glTF errors point into the JSON document (RFC 6901).
    const pointerOk = e.pointer !== undefined && (e.pointer === '' || e.pointer.startsWith('/'));
    if (!offsetOk && !lineOk && !pointerOk) return { result: 'failure', code: 'bad-location', message: `offset ${e.offset}, line ${e.line}: ${message.slice(0, 200)}`, stack };
    if (message.length > MAX_MESSAGE) return { result: 'failure', code: 'long-message', message: `${message.length} characters: ${message.slice(0, 200)}…`, stack };
    return { result: 'format-error', code: e.code, message };
  }
  if (e instanceof lib.UsageError) return { result: 'failure', code: 'usage-error', message, stack };
  return { result: 'failure', code: 'exception', message: describe(e).slice(0, 500), stack };
}

/** Exports an accepted resource to glTF and JSON: the glb, or null when a bake limit refused the export. */
async function exportResource(lib: Lib, core: Animcore.AnimCore, resource: AnimResource): Promise<Uint8Array | null> {
  try {
    const exported = lib.toGltfDocument(core, resource);
    const glb = await lib.writeGlb(exported.document);
    lib.animJson(core, resource);
    return glb;
  } catch (e) {
    // A bake or resample limit refusing a huge export is issue 13 item 5's clean refusal, not a broken file.
    if (e instanceof lib.UsageError) return null;
    throw new Failure('pipeline-error', `export: ${describe(e)}`);
  }
}

/** Runs the Khronos validator on an export. */
async function validateGlb(glb: Uint8Array): Promise<void> {
  const report = await validator.validateBytes(glb, { maxIssues: 20 });
  const errors = report.issues.messages.filter((m) => m.severity === 0);
  if (errors.length > 0) {
    throw new Failure('invalid-gltf', errors.slice(0, 3).map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`).join('; '));
  }
}

/** Bytes of JS heap and ArrayBuffers in use (what an allocation grows). */
function inUse(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Runs one input through the whole pipeline and says what happened. Never throws. `validate`
 * (default true) exports accepted resources and runs the Khronos validator on the glb.
 */
export async function runInput(lib: Lib, core: Animcore.AnimCore, input: FuzzInput, validate = true): Promise<Outcome> {
  const base = inUse();
  const wasmBase = core.memory.buffer.byteLength;
  let peak = 0;
  const probe = () => {
    peak = Math.max(peak, inUse() - base);
  };
  const start = performance.now();
  let opened: { resource: AnimResource; handler: string; exported: AnimResource };
  const notes: Notes = { modelOverflow: false };
  try {
    opened = await openAndSample(lib, core, input, notes);
  } catch (e) {
    probe();
    const ms = performance.now() - start;
    return { ...classify(lib, input, e), ms, allocation: peak + core.memory.buffer.byteLength - wasmBase };
  }
  probe();
  const outcome: Outcome = { result: 'accepted', code: 'ok', handler: opened.handler, ms: performance.now() - start, allocation: 0, ...(notes.modelOverflow && { modelOverflow: true }) };
  try {
    if (validate) {
      // The export is the library's work too (a bake can be its largest part); the validator is not.
      const glb = await exportResource(lib, core, opened.exported);
      probe();
      outcome.ms = performance.now() - start;
      if (glb) await validateGlb(glb);
      else outcome.exportRefused = true;
    }
  } catch (e) {
    Object.assign(outcome, classify(lib, input, e));
  } finally {
    if (opened.exported !== opened.resource) opened.exported.dispose();
    opened.resource.dispose();
  }
  outcome.allocation = peak + core.memory.buffer.byteLength - wasmBase;
  return outcome;
}
