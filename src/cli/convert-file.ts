import { lstatSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import prettyBytes from 'pretty-bytes';
import type { AnimResource } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';
import { convertibleAtRoots, convertResource, type ExportUp } from '../export/axis-conversion.js';
import { FormatError } from '../errors.js';
import { toGltfDocument, writeGlb, writeGltf } from '../export/gltf.js';
import { rewriteGltf } from '../export/gltf-rewrite.js';
import { gltfSource } from '../formats/gltf/index.js';
import type { ClipReduction, ToleranceOption } from '../export/reduce-clip.js';
import { animJson } from '../export/json.js';
import { estimateOutput } from '../export/output-estimate.js';
import { AnimcoreError } from '../errors.js';
import { formatHandler } from '../formats/registry.js';
import { codeOf, isExpected, isFsError, reasonOf } from './errors.js';
import { companionText } from './info.js';
import { makeFolder } from './make-folder.js';
import { toNax3 } from './nax3-output.js';
import { openFile, type ReadFile } from './open-file.js';
import { currentSha256, type HashedFile, isEarlierOutput, recordOutputs, sha256 } from './output-log.js';
import { writeOutputsAtomically } from './write-outputs.js';
import { bakeSequence } from '../sequencer/index.js';
import { inSequenceFile } from './sequence-option.js';
import { outputFiles, type Target } from './output-names.js';

/** One file of a resample batch, as sent to a worker (plain data). */
export interface ConvertJob {
  input: string;
  /** The folder the files the input names must lie in (`BatchInput.root`); undefined: the input's own. */
  root?: string;
  /** Output base: `--out` joined with the base from `outputBases`. */
  outputBase: string;
  target: Target;
  /** Keys per second. */
  fps: number;
  /** Keyframe reduction (glb, gltf, json); 0 writes every key. */
  tolerance: ToleranceOption;
  /** glTF rotations as normalized 16-bit integers (`--quantize`). */
  quantize?: true;
  /** Output axes and length factor. */
  up: ExportUp;
  scale: number;
  /** Replace outputs of earlier runs (`--force`, and `--resume`, which redoes what it cannot skip). */
  force: boolean;
  /** `--out`: where the output log (`OUTPUT_LOG`) is. */
  outRoot: string;
  /** The output log's SHA-256s of each of this job's outputs that an earlier run wrote (absolute path → hashes). */
  recorded: Record<string, string[]>;
  /** Largest input file read, in bytes (`--max-input-mb`). */
  maxInputBytes: number;
  /** Largest output of this input, in bytes, as `estimateOutput` reckons it (`--max-output-mb`). */
  maxOutputBytes: number;
  /** Absolute paths that must never be written (the batch's inputs and the files beside them). */
  protectedPaths: string[];
  format?: string;
  /** What the folder walk's detection found (format id and parsed document; plain data for worker threads). */
  detected?: { format: string; parsed: unknown; rank?: number };
  /**
   * A walked file no format detects although its extension is one a format reads: that format's
   * id. The file is read as that format, so it ends converted or failed with the reader's reason.
   */
  byExtension?: string;
  /** Companion files by role (`--skeleton`, `--bnc`, …), given to every input. */
  companions?: Record<string, string>;
  /** `--resume`: what an earlier run with the same options recorded for this input as converted. */
  earlier?: EarlierConversion;
  /** `--sequence`: the sequence baked into the output's one clip instead of the input's clips. */
  sequence?: SequenceJob;
}

/** A sequence to bake (`bakeSequence`): its file, its text and `--length`. */
export interface SequenceJob {
  path: string;
  text: string;
  /** Seconds; default the end of the sequence's last job. */
  length?: number;
}

/** The numbers of one conversion. */
export interface ConversionCounts {
  clips: number;
  /** Keys stored in the source / written. */
  keysIn: number;
  keysOut: number;
  /** Bytes of the input / of the outputs. */
  bytesIn: number;
  bytesOut: number;
}

/** What an earlier run converted for one input (a `--report` line), compared with the files now. */
export interface EarlierConversion extends ConversionCounts {
  /** SHA-256 of the input. */
  sha256: string;
  /** Every other file read for it (companions, files it names). */
  companions: HashedFile[];
  outputs: HashedFile[];
}

/**
 * What became of one input of a batch: converted; unchanged (`--resume`: an earlier run converted
 * it and nothing it depends on changed); failed; skipped (its output exists, or a walked file that
 * is no input: a companion, a file of no animation format).
 */
export type ConvertStatus = 'converted' | 'unchanged' | 'failed' | 'skipped';

/** Why a walked file or an input was skipped (`ConvertResult.code`). */
export type SkipCode = 'output-exists' | 'companion' | 'unused-companion' | 'unknown-extension';

/** Whether `r` is a file of a walked folder that is no input (a companion, a file of no animation format), not an input skipped. */
export function isWalkSkip(r: ConvertResult): boolean {
  return r.status === 'skipped' && r.code !== ('output-exists' satisfies SkipCode);
}

/** What converting one file gave: one record per input (plain data, so it crosses worker threads). */
export interface ConvertResult extends ConversionCounts {
  input: string;
  status: ConvertStatus;
  /** Why the file failed, was skipped or is unchanged: one line. */
  reason?: string;
  /** For failures: the error's name (`FormatError`, `UsageError`, a file-system code such as `ENOENT`). */
  errorName?: string;
  /** Machine-readable reason: for failures the error's code (`codeOf`), for skips a `SkipCode`, `resumed` for unchanged. */
  code?: string;
  /** For an error that is no animcore or file-system error (a bug): its stack, printed with `--verbose`. */
  stack?: string;
  /** SHA-256 of the input, when it was read. */
  sha256?: string;
  /** The other files read to convert it (companions, files it names), with their SHA-256. */
  companions: HashedFile[];
  /** Files written (converted) or kept (unchanged), with their SHA-256. */
  outputs: HashedFile[];
  /** Milliseconds spent on this input (reading, converting, writing). */
  ms: number;
  warnings: string[];
  /** Per clip what keyframe reduction kept and its largest error (converted glb, gltf and json; empty without reduction). */
  reductions: ClipReduction[];
  /**
   * What the summary reports for a converted file, one line each: a companion paired by content
   * (`companions: paired <file> (<role>, by content: why)`), a role left empty because several
   * files could fill it, what `--to nax3` changed to fit (`nax3: …`, the rate and the largest event move).
   */
  notes: string[];
}

/** A record of an input that was not converted; `code` is the failure's `codeOf` or the `SkipCode`. */
export function notConverted(input: string, status: 'failed' | 'skipped', reason: string, code: string, errorName?: string): ConvertResult {
  return {
    input,
    status,
    reason,
    code,
    ...(errorName !== undefined && { errorName }),
    companions: [],
    outputs: [],
    clips: 0,
    keysIn: 0,
    keysOut: 0,
    bytesIn: 0,
    bytesOut: 0,
    ms: 0,
    warnings: [],
    reductions: [],
    notes: [],
  };
}

/** A failed record for the error `e` met while converting `input`. */
export function failed(input: string, e: unknown): ConvertResult {
  if (isExpected(e)) return notConverted(input, 'failed', reasonOf(e, input), codeOf(e), isFsError(e) ? e.code : (e as Error).name);
  const error = e instanceof Error ? e : new Error(String(e));
  return { ...notConverted(input, 'failed', `internal error (a bug in animcore, please report it): ${error.message}`, error.name, error.name), ...(error.stack !== undefined && { stack: error.stack }) };
}

/** Whether a path exists as anything (a dangling link too). */
function occupied(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the job's outputs must not be written, or undefined: an output is an input of the batch
 * (failed); an output exists and `force` is not given (skipped); `force` is given but an existing
 * output is no unchanged output of an earlier run (failed: never an unrelated file, such as a
 * user's `x.bin` beside `x.gltf`).
 */
function refusal(job: ConvertJob, targets: readonly string[]): ConvertResult | undefined {
  const input = targets.find((path) => job.protectedPaths.includes(resolve(path)));
  if (input !== undefined) return notConverted(job.input, 'failed', `${input} is an input file; choose another --out`, 'UsageError', 'UsageError');
  const existing = targets.filter(occupied);
  if (existing.length === 0) return undefined;
  if (!job.force) return notConverted(job.input, 'skipped', `${existing[0]} exists (--force replaces it)`, 'output-exists' satisfies SkipCode);
  const foreign = existing.find((path) => !isEarlierOutput(path, job.recorded[path]));
  if (foreign !== undefined) {
    return notConverted(job.input, 'failed', `${foreign} exists and is no output of an earlier animcore run; not replaced, even with --force (move it away)`, 'UsageError', 'UsageError');
  }
  return undefined;
}

/** Whether two lists name the same files (compared as absolute paths) with the same SHA-256s. */
function sameFiles(a: readonly HashedFile[], b: readonly HashedFile[]): boolean {
  const key = (files: readonly HashedFile[]) => files.map((f) => `${resolve(f.path)}\0${f.sha256}`).sort().join('\n');
  return key(a) === key(b);
}

/** Whether `recorded` are exactly `targets`, each still with its recorded SHA-256. */
function outputsUnchanged(recorded: readonly HashedFile[], targets: readonly string[]): boolean {
  const now = targets.map((path) => ({ path, sha256: currentSha256(path) ?? '' }));
  return sameFiles(recorded, now);
}

/** The files read for an input, hashed once each: the input's own SHA-256 and the others'. */
function hashReads(input: string, read: readonly ReadFile[]): { sha256: string; companions: HashedFile[] } {
  const seen = new Map<string, string>();
  for (const f of read) if (!seen.has(f.path)) seen.set(f.path, sha256(f.bytes));
  const companions = [...seen].filter(([path]) => path !== input).map(([path, sha]) => ({ path, sha256: sha }));
  return { sha256: seen.get(input)!, companions };
}

/**
 * JSON text beyond this cannot be built: a JavaScript string holds at most 2^29 − 24 UTF-16 units
 * (V8), about 512 MB; above it `--to json` is refused whatever `--max-output-mb` says.
 */
const JSON_MAX_BYTES = 500 * 1000 * 1000;

/** An output that would exceed a limit (`--max-output-mb`, or what JSON text can hold). */
export class OutputLimitError extends AnimcoreError {
  override name = 'OutputLimitError';
}

/**
 * Refuses, before anything is resampled or allocated, an input whose output would be larger than
 * `job.maxOutputBytes` (or than JSON text can be): a 90-byte .nax2 of a long clip at 60 fps can
 * ask for gigabytes. The message names the largest clip and the estimate.
 * @throws OutputLimitError
 */
function checkOutputSize(job: ConvertJob, resource: AnimResource): void {
  const clips = estimateOutput(resource, job.fps, job.target);
  const total = clips.reduce((n, c) => n + c.bytes, 0);
  const json = job.target === 'json' && total > JSON_MAX_BYTES;
  if (total <= job.maxOutputBytes && !json) return;
  const top = clips[0]!;
  const why = json
    ? `over what JSON text can hold (${prettyBytes(JSON_MAX_BYTES)}; write glb instead, or choose a lower --fps)`
    : `over the output limit of ${prettyBytes(job.maxOutputBytes)} (raise it with --max-output-mb, or choose a lower --fps)`;
  throw new OutputLimitError(
    `resampling at ${job.fps} fps makes about ${prettyBytes(total)} of ${job.target} keys (clip "${top.clip}": ${top.keys} keys per curve, ${prettyBytes(top.bytes)}), ${why}`,
  );
}

/**
 * Opens one file (with its companions), resamples every clip to `fps` and writes it as `target`:
 * glb / gltf through `toGltfDocument` (a glTF input through `rewriteGltf`: its own file, animations replaced),
 * json through `animJson`, nax3 through `toNax3` (at the nearest whole-millisecond key duration,
 * events moved to the nearest key). Existing outputs are
 * handled by `refusal` before the file is read. With `earlier` (`--resume`), an input whose
 * outputs still have their recorded SHA-256 and whose files read (the input and every companion)
 * are the same as recorded is `unchanged` and not converted again. Outputs are recorded in the
 * output log, then written with `writeOutputsAtomically` (temporary files, then renames: an old
 * output is replaced whole or not at all). Every error becomes a failed result, so the batch goes
 * on: animcore's and the file system's with their message; any other (a bug) as an internal
 * error with its stack. `ms` is the time spent.
 */
export async function convertFile(core: AnimCore, job: ConvertJob): Promise<ConvertResult> {
  const started = performance.now();
  let result: ConvertResult;
  try {
    result = await convert(core, job);
  } catch (e) {
    result = failed(job.input, e);
  }
  return { ...result, ms: performance.now() - started };
}

async function convert(core: AnimCore, job: ConvertJob): Promise<ConvertResult> {
  const targets = outputFiles(job.outputBase, job.target);
  const refused = refusal(job, targets);
  if (refused) return refused;
  const resumable = job.earlier !== undefined && outputsUnchanged(job.earlier.outputs, targets);
  const format = job.format ?? job.byExtension;
  const detection = job.detected && { handler: formatHandler(job.detected.format), detected: { parsed: job.detected.parsed, ...(job.detected.rank !== undefined && { rank: job.detected.rank }) } };
  let opened: Awaited<ReturnType<typeof openFile>>;
  try {
    opened = await openFile(job.input, {
      ...(job.root !== undefined && { root: job.root }),
      ...(job.companions && { companions: job.companions }),
      ...(format !== undefined && { format }),
      ...(detection && { detection }),
      maxInputBytes: job.maxInputBytes,
    });
  } catch (e) {
    if (job.byExtension === undefined || !isExpected(e)) throw e;
    // The reader's FormatError says where the bytes break; anything else (a Meteor .amb's missing
    // .bnc) would hide that detection found no format at all.
    if (!(e instanceof FormatError)) return notConverted(job.input, 'failed', `no format recognises its content (its extension is that of ${job.byExtension} files)`, 'unrecognised', 'FormatError');
    return { ...failed(job.input, e), reason: `no format recognises its content; read as ${job.byExtension} for its extension: ${reasonOf(e, job.input)}` };
  }
  const input = opened.resource;
  let resource = input;
  try {
    const read = hashReads(job.input, opened.read);
    if (resumable && job.earlier!.sha256 === read.sha256 && sameFiles(job.earlier!.companions, read.companions)) {
      const reason = 'converted by an earlier run (--resume): the input, its companions, the options and the outputs are unchanged';
      return { ...notConverted(job.input, 'skipped', reason, 'resumed'), ...job.earlier!, ...read, status: 'unchanged' };
    }
    const sequence = job.sequence;
    if (sequence) {
      resource = inSequenceFile(sequence.path, () => bakeSequence(core, input, sequence.text, { fps: job.fps, ...(sequence.length !== undefined && { length: sequence.length }) }));
    }
    checkOutputSize(job, resource);
    core.load(resource);
    const name = basename(job.outputBase);
    let files: { name: string; bytes: Uint8Array }[];
    let counts: { clips: number; keysIn: number; keysOut: number };
    let warnings: readonly string[] = [];
    let reductions: ClipReduction[] = [];
    const notes: string[] = [];
    const options = { fps: job.fps, tolerance: job.tolerance, up: job.up, scale: job.scale };
    if (job.target === 'glb' || job.target === 'gltf') {
      // A glTF input keeps its file: only its animations are rewritten (meshes, skins, materials and
      // textures byte for byte; --up and --scale applied at its root nodes) — unless the root nodes
      // cannot hold the conversion (a mirror), which needs a new document.
      let source = gltfSource(input);
      if (source && !convertibleAtRoots(resource, options)) {
        source = undefined;
        notes.push('written as a new glTF document: the conversion --up asks for mirrors the file, which its root nodes cannot hold; nodes, meshes, skins and animations converted; materials, textures, extensions and morph targets of the input are not kept');
      }
      const exported = source ? rewriteGltf(core, resource, source, { ...options, quantize: job.quantize === true }) : toGltfDocument(core, resource, { ...options, quantize: job.quantize === true });
      if ('glb' in exported) files = job.target === 'glb' ? [{ name: `${name}.glb`, bytes: exported.glb() }] : exported.gltf(name);
      else files = job.target === 'glb' ? [{ name: `${name}.glb`, bytes: await writeGlb(exported.document) }] : await writeGltf(exported.document, name);
      ({ counts, warnings } = exported);
      reductions = [...exported.reductions];
    } else if (job.target === 'json') {
      const { json, counts: c, reductions: r } = animJson(core, resource, options);
      files = [{ name: `${name}.json`, bytes: new TextEncoder().encode(JSON.stringify(json)) }];
      counts = c;
      reductions = r;
    } else {
      const nax3 = toNax3(core, convertResource(resource, options), job.fps);
      files = [{ name: `${name}.nax3`, bytes: nax3.bytes }];
      counts = { clips: nax3.clips.length, keysIn: resource.clips.reduce((n, c) => n + c.storedKeyCount, 0), keysOut: nax3.clips.reduce((n, c) => n + c.storedKeyCount, 0) };
      notes.push(...nax3.notes);
    }
    makeFolder(dirname(job.outputBase));
    const written = files.map((f) => ({ path: join(dirname(job.outputBase), f.name), bytes: f.bytes }));
    const outputs = written.map((f) => ({ path: f.path, sha256: sha256(f.bytes) }));
    recordOutputs(job.outRoot, outputs);
    writeOutputsAtomically(written, job.force);
    return {
      input: job.input,
      status: 'converted',
      ...read,
      outputs,
      ...counts,
      bytesIn: opened.bytes,
      bytesOut: files.reduce((n, f) => n + f.bytes.byteLength, 0),
      ms: 0,
      warnings: [...warnings],
      reductions,
      notes: [
        ...opened.companions.filter((c) => c.how === 'content').map((c) => `companions: paired ${companionText(c)}`),
        ...opened.pairingWarnings.map((w) => `companions: ${w}`),
        ...notes,
      ],
    };
  } finally {
    resource.dispose();
    input.dispose();
  }
}
