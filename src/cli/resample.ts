import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { Piscina } from 'piscina';
import { version } from '../../package.json';
import { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { EXPORT_UPS, type ExportUp } from '../export/axis-conversion.js';
import { DEFAULT_KEY_TOLERANCE, keyTolerance, type ToleranceOption } from '../export/reduce-clip.js';
import { expandInputs } from './batch-inputs.js';
import { type BatchProgress, batchProgress, linePerFile, type Verbosity } from './batch-progress.js';
import { type BatchReport, type ConversionOptions, conversionOptions, openReport, readResume } from './batch-report.js';
import { type BatchSummary, summarise, summaryText } from './batch-summary.js';
import { type ConvertJob, type ConvertResult, convertFile, type EarlierConversion, notConverted, type SequenceJob } from './convert-file.js';
import { makeFolder } from './make-folder.js';
import { readOutputLog } from './output-log.js';
import { addCompanionOptions, addFormatOption, addInputLimitOption, companionsOf, formatIdsHelp, maxInputBytes } from './common-options.js';
import { checkOutputCollisions, outputBases, outputFiles, TARGETS, type Target } from './output-names.js';
import { COMPLETION_INDEX_VARIABLE, parseShard, type Shard, shardFromEnvironment, shardOf, shardText } from './shard.js';
import { removeStaleTemporaries } from './write-outputs.js';
import { inSequenceFile, readSequenceFile } from './sequence-option.js';
import { parseSequence } from '../sequencer/index.js';
import { sha256 } from './output-log.js';

export interface ResampleCommandOptions {
  fps: number;
  to: Target;
  out: string;
  /** Worker threads; 1 runs on the main thread. */
  jobs: number;
  force: boolean;
  format?: string;
  /** Companion files by role, given to every input. */
  companions?: Record<string, string>;
  /** Largest input file read, in bytes. */
  maxInputBytes: number;
  /** Largest output of one input, in bytes, as `estimateOutput` reckons it before resampling. */
  maxOutputBytes: number;
  /** Keyframe reduction (`--tolerance`, `--angle-tolerance`); 0 writes every key. */
  tolerance: ToleranceOption;
  /** Output axes (`--up`). */
  up: ExportUp;
  /** Factor on lengths (`--scale`). */
  scale: number;
  /** `--quantize`: glTF rotations as normalized 16-bit integers (absent: float). */
  quantize?: true;
  /** Convert only this shard's inputs (`--shard i/n`, `--shard-count n` with `JOB_COMPLETION_INDEX`). */
  shard?: Shard;
  /** `--report FILE.jsonl`: a line per input as it finishes, then the summary. */
  report?: string;
  /** `--resume FILE.jsonl`: skip inputs a report says were converted, with nothing changed since. */
  resume?: string;
  /** `--sequence FILE` (and `--length`): bake the sequence played on each input into one clip `sequence`. */
  sequence?: SequenceJob;
}

/** Options of `ResampleCommandOptions` that do not change an output's bytes (left out of `ConversionOptions`). */
const RUN_ONLY: readonly (keyof ResampleCommandOptions)[] = ['out', 'jobs', 'force', 'maxInputBytes', 'maxOutputBytes', 'shard', 'report', 'resume'];

/**
 * The reduction `--tolerance` and `--angle-tolerance` (degrees) ask for: `--tolerance 0` alone
 * writes every key; otherwise the defaults (`DEFAULT_KEY_TOLERANCE`) with what was given.
 */
export function toleranceOf(tolerance: number | undefined, angleDegrees: number | undefined): ToleranceOption {
  if (tolerance === 0 && angleDegrees === undefined) return 0;
  return {
    ...(tolerance !== undefined && { translation: tolerance, scale: tolerance, other: tolerance }),
    ...(angleDegrees !== undefined && { rotation: (angleDegrees * Math.PI) / 180 }),
  };
}

/** `--max-output-mb`'s default: enough for hours of a 100-joint character at 60 fps. */
const DEFAULT_MAX_OUTPUT_MB = 200;

/** A number option's value: `check` says whether it is allowed, `what` what it takes. @throws UsageError */
function numberOption(name: string, what: string, check: (n: number) => boolean): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !check(n)) throw new UsageError(`--${name} takes ${what}, got "${value}"`);
    return n;
  };
}

/** `animcore resample`: declared here with its options. */
export function resampleCommand(): Command {
  const command = new Command('resample')
    .description('Resample every clip of files, folders (walked recursively) or glob patterns to a uniform rate and write glb, gltf, nax3 or json')
    .argument('<inputs...>', 'files, folders or quoted glob patterns ("anims/**/*.nax2")')
    .requiredOption('--fps <n>', 'keys per second of the output (required)', numberOption('fps', 'keys per second (a number > 0)', (n) => n > 0 && Number.isFinite(n)))
    .addOption(new Option('--to <target>', 'output format').choices(TARGETS).default('glb'))
    .requiredOption('--out <dir>', 'output folder; sub-folders of the inputs are mirrored (required)')
    .option(
      '--tolerance <n>',
      `keyframe reduction: largest error of translations, scales and weights, in output units (default ${DEFAULT_KEY_TOLERANCE.translation}; 0 writes every key)`,
      numberOption('tolerance', 'a number >= 0 (0 writes every key)', (n) => n >= 0 && Number.isFinite(n)),
    )
    .option(
      '--angle-tolerance <degrees>',
      `keyframe reduction: largest rotation error in degrees (default ${(DEFAULT_KEY_TOLERANCE.rotation * 180) / Math.PI})`,
      numberOption('angle-tolerance', 'degrees from 0 to 360', (n) => n >= 0 && n <= 360),
    )
    .addOption(new Option('--up <axis>', 'output axes: y = glTF (Y-up, right-handed), z = Z-up right-handed (keeps a Z-up source such as Meteor as it is), source = no conversion').choices(EXPORT_UPS).default('y'))
    .option('--quantize', 'glTF output: rotations as 16-bit normalized integers, as gltfpack writes them (half the bytes; within --angle-tolerance)')
    .option('--scale <n>', 'factor on lengths, e.g. 0.01 for centimetre data (recorded in the output)', numberOption('scale', 'a number > 0', (n) => n > 0 && Number.isFinite(n)), 1)
    .option('--jobs <n>', 'worker threads', numberOption('jobs', 'a whole number >= 1', (n) => Number.isInteger(n) && n >= 1), 1)
    .option('--force', 'replace outputs that exist (else those inputs are skipped)')
    .option('--dry-run', 'print what would be written where, and write nothing')
    .option('--json', 'print one JSON object: the summary (or, with --dry-run, the plan)')
    .addOption(new Option('--quiet', 'print only failures (on stderr)').conflicts('verbose'))
    .option('--verbose', "a line per file even on a terminal, with each file's warnings and the files of the folders that are no input")
    .option(
      '--max-output-mb <n>',
      'largest output of one input, in MiB, estimated before resampling (a longer file fails)',
      numberOption('max-output-mb', 'a number of MiB > 0', (n) => n > 0 && Number.isFinite(n)),
      DEFAULT_MAX_OUTPUT_MB,
    )
    .addOption(new Option('--shard <i/n>', 'convert only shard i of n (0 <= i < n): the inputs whose path below its walk root hashes to i').argParser(parseShard).conflicts('shardCount'))
    .option('--shard-count <n>', `convert only shard $${COMPLETION_INDEX_VARIABLE} of n (a Kubernetes Indexed Job sets it in each pod)`)
    .option('--report <file.jsonl>', 'write a JSON line per input as it finishes (status, reason, SHA-256 of input and outputs, counts, ms), then a summary line')
    .option('--resume <file.jsonl>', 'skip inputs a report says were converted with these options, when the input, its companions and the outputs are unchanged; redo the rest')
    .option('--sequence <file>', 'bake a sequence file (layered jobs with fades, masks, additive layers) played on each input into one clip named "sequence", from 0 to the end of its last job')
    .option('--length <seconds>', 'with --sequence: seconds to bake (required when a job plays forever)', numberOption('length', 'seconds (a number >= 0)', (n) => n >= 0 && Number.isFinite(n)));
  addFormatOption(command, 'skip detection and read every file as this format');
  addCompanionOptions(command);
  addInputLimitOption(command);
  command.addHelpText(
    'after',
    `\n${formatIdsHelp()}\n\nCompanion options apply to every input; without them companions are found beside each file by name.\nAn input whose output exists is skipped (not failed) unless --force, which replaces only outputs of\nearlier runs (recorded in <out>/.animcore-outputs.jsonl), never an unrelated file of the same name.\nKeys are baked at --fps, then keyframe reduction drops the keys that interpolation between the kept\nones reproduces within --tolerance (translations, scales, weights; output units) and --angle-tolerance\n(rotations); --tolerance 0 writes every baked key. nax3 stores uniform keys, so it is not reduced.\n--quantize writes glTF rotations as 16-bit integers (half their bytes), still within --angle-tolerance.\nOutputs are in glTF's Y-up, right-handed axes (Meteor's Z-up and MRTK's left-handed Unity space are\nconverted; animcore info names a file's axes) unless --up z or --up source; --scale multiplies lengths.\nExit status: 0 when no file failed (skipped ones do not count), 1 when any failed, 2 for a usage error.\n\nAt scale: every shard walks all inputs (collisions are decided over the whole set) and converts its own;\nthe shards' outputs together are those of one run. --resume with the report of a killed run redoes only what\ndid not finish (give the same file to --report and --resume).\n\nExamples:\n  animcore resample walk.nax3 --fps 30 --out out\n  animcore resample anims/ --fps 60 --to gltf --out out --jobs 2\n  animcore resample p0.amb --fps 30 --tolerance 0.01 --angle-tolerance 0.25 --scale 0.01 --out out\n  animcore resample CesiumMan.glb --fps 30 --quantize --out out\n  animcore resample "game/**/*.amb" --fps 30 --to json --out out --dry-run\n  animcore resample anims/ --fps 30 --out out --shard 2/8 --report shard-2.jsonl --resume shard-2.jsonl\n  animcore resample Unit_Footman.nax3 --sequence walk-to-run.json --fps 30 --to glb --out out`,
  );
  return command.action(async (inputs: string[], raw: ResampleCliOptions) => {
    if (raw.length !== undefined && raw.sequence === undefined) throw new UsageError('--length applies to --sequence only');
    if (raw.quantize === true && raw.to !== 'glb' && raw.to !== 'gltf') throw new UsageError(`--quantize applies to --to glb and gltf (not ${raw.to})`);
    const options: ResampleCommandOptions = {
      fps: raw.fps,
      to: raw.to,
      out: raw.out,
      jobs: raw.jobs,
      force: raw.force === true,
      ...(raw.format !== undefined && { format: raw.format }),
      companions: companionsOf(raw),
      maxInputBytes: maxInputBytes(raw),
      maxOutputBytes: Math.floor(raw.maxOutputMb * 1024 * 1024),
      tolerance: toleranceOf(raw.tolerance, raw.angleTolerance),
      ...(raw.quantize === true && { quantize: true }),
      up: raw.up,
      scale: raw.scale,
      ...((raw.shard ?? raw.shardCount) !== undefined && { shard: raw.shard ?? shardFromEnvironment(raw.shardCount!, process.env) }),
      ...(raw.report !== undefined && { report: raw.report }),
      ...(raw.resume !== undefined && { resume: raw.resume }),
      ...(raw.sequence !== undefined && { sequence: sequenceJob(raw.sequence, raw.length) }),
    };
    const verbosity: Verbosity = raw.quiet ? 'quiet' : raw.verbose ? 'verbose' : 'normal';
    const json = raw.json === true;
    if (raw.dryRun) {
      const plan = await planResample(inputs, options);
      if (json) console.log(JSON.stringify({ dryRun: true, files: plan }, null, 2));
      else if (verbosity !== 'quiet') console.log(plan.map(plannedLine).join('\n'));
      return;
    }
    const summary = await runResample(inputs, options, (total) => batchProgress(total, verbosity, json));
    if (json) console.log(JSON.stringify(summary, null, 2));
    else if (verbosity === 'quiet') for (const f of summary.failures) console.error(`animcore: ${f.input}: ${f.reason}`);
    else console.log(summaryText(summary, linePerFile(verbosity, json)));
    if (summary.failed > 0) process.exitCode = 1;
  });
}

interface ResampleCliOptions extends Record<string, unknown> {
  fps: number;
  tolerance?: number;
  angleTolerance?: number;
  quantize?: boolean;
  up: ExportUp;
  scale: number;
  to: Target;
  out: string;
  jobs: number;
  force?: boolean;
  format?: string;
  dryRun?: boolean;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  maxOutputMb: number;
  shard?: Shard;
  shardCount?: string;
  report?: string;
  resume?: string;
  sequence?: string;
  length?: number;
}

/**
 * `--sequence FILE` read and its shape checked (`parseSequence`) before any input is opened; what
 * depends on an input (clips, joints) is checked when each input is converted.
 * @throws UsageError naming the file and the JSON path
 */
function sequenceJob(path: string, length: number | undefined): SequenceJob {
  const text = readSequenceFile(path);
  inSequenceFile(path, () => parseSequence(text));
  return { path, text, ...(length !== undefined && { length }) };
}

/** One input of a `--dry-run`: the files it would write, and which of them exist already. */
export interface PlannedFile {
  input: string;
  outputs: string[];
  /** Outputs that exist: the input is skipped unless `--force`, which replaces them. */
  existing: string[];
}

function plannedLine(p: PlannedFile): string {
  const note = p.existing.length === 0 ? '' : ' (exists: skipped; --force replaces it)';
  return `${p.input} -> ${p.outputs.join(', ')}${note}`;
}

/** A batch as planned: this shard's conversion jobs and its records of paths that are no input. */
interface BatchPlan {
  jobs: ConvertJob[];
  /** Problems (failed) and the walked files that are no input (skipped), of this shard. */
  records: ConvertResult[];
  options: ConversionOptions;
}

/**
 * The conversion jobs of a batch: inputs expanded (`expandInputs`), their outputs named
 * (`outputBases`) and checked for collisions over the whole input set before anything is
 * written, then only the shard's inputs and records kept (`shardOf` their walk-relative path);
 * with `resume`, each job carries what the report recorded for its input.
 * @throws UsageError when two inputs would write the same file
 */
async function batchJobs(paths: readonly string[], options: ResampleCommandOptions): Promise<BatchPlan> {
  const { inputs, problems, skipped, protectedPaths } = await expandInputs(paths, options.maxInputBytes, options.companions);
  const bases = outputBases(inputs).map((b) => resolve(options.out, b));
  checkOutputCollisions(inputs.map((i) => i.path), bases.map((b) => outputFiles(b, options.to)));
  const mine = (key: string) => options.shard === undefined || shardOf(key, options.shard.count) === options.shard.index;
  // The sequence counts by its content (and length), so --resume redoes inputs when the file changes.
  const sequence = options.sequence && { sha256: sha256(new TextEncoder().encode(options.sequence.text)), length: options.sequence.length };
  // The tolerances in effect, so that a tolerance given at its default value resumes like the default.
  const conversion = conversionOptions(version, { ...options, tolerance: keyTolerance(options.tolerance) ?? 0, sequence }, RUN_ONLY);
  const earlier = options.resume === undefined ? new Map<string, EarlierConversion>() : readResume(options.resume, conversion);
  const recorded = readOutputLog(resolve(options.out));
  const jobs = inputs.flatMap((input, i): ConvertJob[] => {
    if (!mine(input.key)) return [];
    const before = earlier.get(resolve(input.path));
    const targets = outputFiles(bases[i]!, options.to);
    const known = (f: string) => [...(recorded.get(f) ?? []), ...(before?.outputs.filter((o) => resolve(o.path) === f).map((o) => o.sha256) ?? [])];
    return [{
      input: input.path,
      ...(input.root !== undefined && { root: input.root }),
      outputBase: bases[i]!,
      target: options.to,
      fps: options.fps,
      tolerance: options.tolerance,
      ...(options.quantize && { quantize: true }),
      up: options.up,
      scale: options.scale,
      force: options.force || options.resume !== undefined,
      outRoot: resolve(options.out),
      recorded: Object.fromEntries(targets.flatMap((f) => (known(f).length > 0 ? [[f, known(f)]] : []))),
      maxInputBytes: options.maxInputBytes,
      maxOutputBytes: options.maxOutputBytes,
      protectedPaths: [...protectedPaths],
      ...(options.format !== undefined ? { format: options.format } : input.detection ? { detected: { format: input.detection.handler.id, ...input.detection.detected } } : input.byExtension !== undefined && { byExtension: input.byExtension }),
      ...(options.companions !== undefined && { companions: options.companions }),
      ...(options.sequence !== undefined && { sequence: options.sequence }),
      ...(before !== undefined && { earlier: before }),
    }];
  });
  const records = [
    ...problems.filter((p) => mine(p.key)).map((p) => notConverted(p.path, 'failed', p.reason, p.code, p.errorName)),
    ...skipped.filter((k) => mine(k.key)).map((k) => notConverted(k.path, 'skipped', k.reason, k.code)),
  ];
  return { jobs, records, options: conversion };
}

/** `--dry-run`: what each input (of the shard) would write, without reading or writing any file beyond the folder walk. */
export async function planResample(paths: readonly string[], options: ResampleCommandOptions): Promise<PlannedFile[]> {
  const { jobs } = await batchJobs(paths, options);
  return jobs.map((job) => {
    const outputs = outputFiles(job.outputBase, job.target);
    return { input: job.input, outputs, existing: outputs.filter((o) => existsSync(o)) };
  });
}

/**
 * `--report FILE`, refused when it would be written over an input or an output of the batch.
 * @throws UsageError naming the file it would replace
 */
function startReport(path: string, plan: BatchPlan): BatchReport {
  const at = resolve(path);
  const clash = plan.jobs.find((j) => resolve(j.input) === at || outputFiles(j.outputBase, j.target).includes(at));
  if (clash) throw new UsageError(`--report ${path} would replace ${resolve(clash.input) === at ? 'an input' : `an output of ${clash.input}`}; choose another file`);
  return openReport(path, plan.options);
}

/**
 * `animcore resample`: expands `paths` (`expandInputs`), converts every file of the shard
 * (`convertFile`) on the main thread or, with `jobs` > 1, on that many piscina worker threads,
 * reports progress (`progressFor(total)`) and, with `report`, a line per file as it finishes, and
 * returns the summary. One file's failure does not stop the batch. Temporary files a killed run
 * left beside this run's outputs are removed first.
 */
export async function runResample(paths: readonly string[], options: ResampleCommandOptions, progressFor: (total: number) => BatchProgress): Promise<BatchSummary> {
  const started = performance.now();
  const plan = await batchJobs(paths, options);
  const { jobs, records } = plan;
  makeFolder(options.out);
  removeStaleTemporaries(jobs.flatMap((j) => outputFiles(j.outputBase, j.target)));
  const report = options.report === undefined ? undefined : startReport(options.report, plan);
  const progress = progressFor(jobs.length + records.length);
  const finished = (r: ConvertResult) => {
    report?.add(r);
    progress.done(r);
  };
  records.forEach(finished);
  let results: ConvertResult[];
  try {
    if (options.jobs > 1) {
      const pool = new Piscina({ filename: new URL('./resample-worker.js', import.meta.url).href, maxThreads: options.jobs, minThreads: 0 });
      try {
        results = await Promise.all(jobs.map(async (job) => {
          const r = (await pool.run(job)) as ConvertResult;
          finished(r);
          return r;
        }));
      } finally {
        await pool.destroy();
      }
    } else {
      const core = await AnimCore.create();
      results = [];
      for (const job of jobs) {
        const r = await convertFile(core, job);
        finished(r);
        results.push(r);
      }
    }
  } finally {
    progress.stop();
  }
  const summary = summarise([...records, ...results], (performance.now() - started) / 1000);
  const shard = options.shard === undefined ? undefined : shardText(options.shard);
  report?.finish(summary, shard ?? null);
  return shard === undefined ? summary : { ...summary, shard };
}
