import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { Piscina } from 'piscina';
import { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { EXPORT_UPS, type ExportUp } from '../export/axis-conversion.js';
import { DEFAULT_KEY_TOLERANCE, type ToleranceOption } from '../export/reduce-clip.js';
import { expandInputs } from './batch-inputs.js';
import { type BatchProgress, batchProgress, linePerFile, type Verbosity } from './batch-progress.js';
import { type BatchSummary, summarise, summaryText } from './batch-summary.js';
import { type ConvertJob, type ConvertResult, convertFile, notConverted } from './convert-file.js';
import { makeFolder } from './make-folder.js';
import { readOutputLog } from './output-log.js';
import { addCompanionOptions, addFormatOption, addInputLimitOption, companionsOf, formatIdsHelp, maxInputBytes } from './common-options.js';
import { checkOutputCollisions, outputBases, outputFiles, TARGETS, type Target } from './output-names.js';

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
}

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
    .option('--scale <n>', 'factor on lengths, e.g. 0.01 for centimetre data (recorded in the output)', numberOption('scale', 'a number > 0', (n) => n > 0 && Number.isFinite(n)), 1)
    .option('--jobs <n>', 'worker threads', numberOption('jobs', 'a whole number >= 1', (n) => Number.isInteger(n) && n >= 1), 1)
    .option('--force', 'replace outputs that exist (else those inputs are skipped)')
    .option('--dry-run', 'print what would be written where, and write nothing')
    .option('--json', 'print one JSON object: the summary (or, with --dry-run, the plan)')
    .addOption(new Option('--quiet', 'print only failures (on stderr)').conflicts('verbose'))
    .option('--verbose', "a line per file even on a terminal, with each file's warnings")
    .option(
      '--max-output-mb <n>',
      'largest output of one input, in MiB, estimated before resampling (a longer file fails)',
      numberOption('max-output-mb', 'a number of MiB > 0', (n) => n > 0 && Number.isFinite(n)),
      DEFAULT_MAX_OUTPUT_MB,
    );
  addFormatOption(command, 'skip detection and read every file as this format');
  addCompanionOptions(command);
  addInputLimitOption(command);
  command.addHelpText(
    'after',
    `\n${formatIdsHelp()}\n\nCompanion options apply to every input; without them companions are found beside each file by name.\nAn input whose output exists is skipped (not failed) unless --force, which replaces only outputs of\nearlier runs (recorded in <out>/.animcore-outputs.jsonl), never an unrelated file of the same name.\nKeys are baked at --fps, then keyframe reduction drops the keys that interpolation between the kept\nones reproduces within --tolerance (translations, scales, weights; output units) and --angle-tolerance\n(rotations); --tolerance 0 writes every baked key. nax3 stores uniform keys, so it is not reduced.\nOutputs are in glTF's Y-up, right-handed axes (Meteor's Z-up and MRTK's left-handed Unity space are\nconverted; animcore info names a file's axes) unless --up z or --up source; --scale multiplies lengths.\nExit status: 0 when no file failed (skipped ones do not count), 1 when any failed, 2 for a usage error.\n\nExamples:\n  animcore resample walk.nax3 --fps 30 --out out\n  animcore resample anims/ --fps 60 --to gltf --out out --jobs 2\n  animcore resample p0.amb --fps 30 --tolerance 0.01 --angle-tolerance 0.25 --scale 0.01 --out out\n  animcore resample "game/**/*.amb" --fps 30 --to json --out out --dry-run`,
  );
  return command.action(async (inputs: string[], raw: ResampleCliOptions) => {
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
      up: raw.up,
      scale: raw.scale,
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

/**
 * The conversion jobs of a batch: inputs expanded (`expandInputs`), their outputs named
 * (`outputBases`) and checked for collisions before anything is written, and the paths that
 * cannot be inputs as failed records.
 * @throws UsageError when two inputs would write the same file
 */
async function batchJobs(paths: readonly string[], options: ResampleCommandOptions): Promise<{ jobs: ConvertJob[]; problems: ConvertResult[]; ignored: number }> {
  const { inputs, problems, ignored, protectedPaths } = await expandInputs(paths, options.maxInputBytes);
  const bases = outputBases(inputs).map((b) => resolve(options.out, b));
  checkOutputCollisions(inputs.map((i) => i.path), bases.map((b) => outputFiles(b, options.to)));
  const recorded = readOutputLog(resolve(options.out));
  const jobs = inputs.map((input, i): ConvertJob => ({
    input: input.path,
    outputBase: bases[i]!,
    target: options.to,
    fps: options.fps,
    tolerance: options.tolerance,
    up: options.up,
    scale: options.scale,
    force: options.force,
    outRoot: resolve(options.out),
    recorded: Object.fromEntries(outputFiles(bases[i]!, options.to).flatMap((f) => (recorded.has(f) ? [[f, recorded.get(f)!]] : []))),
    maxInputBytes: options.maxInputBytes,
    maxOutputBytes: options.maxOutputBytes,
    protectedPaths: [...protectedPaths],
    ...(options.format !== undefined ? { format: options.format } : input.detection && { detected: { format: input.detection.handler.id, ...input.detection.detected } }),
    ...(options.companions !== undefined && { companions: options.companions }),
  }));
  return { jobs, problems: problems.map((p) => notConverted(p.path, 'failed', p.reason, p.errorName)), ignored };
}

/** `--dry-run`: what each input would write, without reading or writing any file beyond the folder walk. */
export async function planResample(paths: readonly string[], options: ResampleCommandOptions): Promise<PlannedFile[]> {
  const { jobs } = await batchJobs(paths, options);
  return jobs.map((job) => {
    const outputs = outputFiles(job.outputBase, job.target);
    return { input: job.input, outputs, existing: outputs.filter((o) => existsSync(o)) };
  });
}

/**
 * `animcore resample`: expands `paths` (`expandInputs`), converts every file (`convertFile`) on
 * the main thread or, with `jobs` > 1, on that many piscina worker threads, reports progress
 * (`progressFor(total)`), and returns the summary. One file's failure does not stop the batch.
 */
export async function runResample(paths: readonly string[], options: ResampleCommandOptions, progressFor: (total: number) => BatchProgress): Promise<BatchSummary> {
  const started = performance.now();
  const { jobs, problems, ignored } = await batchJobs(paths, options);
  makeFolder(options.out);
  const progress = progressFor(jobs.length + problems.length);
  for (const p of problems) progress.done(p);
  let results: ConvertResult[];
  try {
    if (options.jobs > 1) {
      const pool = new Piscina({ filename: new URL('./resample-worker.js', import.meta.url).href, maxThreads: options.jobs, minThreads: 0 });
      try {
        results = await Promise.all(jobs.map(async (job) => {
          const r = (await pool.run(job)) as ConvertResult;
          progress.done(r);
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
        progress.done(r);
        results.push(r);
      }
    }
  } finally {
    progress.stop();
  }
  return summarise([...problems, ...results], ignored, (performance.now() - started) / 1000);
}
