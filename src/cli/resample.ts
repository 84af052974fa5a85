import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { Piscina } from 'piscina';
import { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { expandInputs } from './batch-inputs.js';
import { batchProgress } from './batch-progress.js';
import { type BatchSummary, summarise, summaryText } from './batch-summary.js';
import { type ConvertJob, type ConvertResult, convertFile } from './convert-file.js';
import { addCompanionOptions, addFormatOption, companionsOf, formatIdsHelp } from './common-options.js';
import { outputBases, TARGETS, type Target } from './output-names.js';

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
}

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
    .option('--jobs <n>', 'worker threads', numberOption('jobs', 'a whole number >= 1', (n) => Number.isInteger(n) && n >= 1), 1)
    .option('--force', 'replace outputs that exist');
  addFormatOption(command, 'skip detection and read every file as this format');
  addCompanionOptions(command);
  command.addHelpText(
    'after',
    `\n${formatIdsHelp()}\n\nCompanion options apply to every input; without them companions are found beside each file by name.\nExit status: 0 when every file was converted, 1 when any failed, 2 for a usage error.\n\nExamples:\n  animcore resample walk.nax3 --fps 30 --out out\n  animcore resample anims/ --fps 60 --to gltf --out out --jobs 2\n  animcore resample "game/**/*.amb" --fps 30 --to json --out out`,
  );
  return command.action(async (inputs: string[], raw: { fps: number; to: Target; out: string; jobs: number; force?: boolean; format?: string } & Record<string, unknown>) => {
    const summary = await runResample(inputs, {
      fps: raw.fps,
      to: raw.to,
      out: raw.out,
      jobs: raw.jobs,
      force: raw.force === true,
      ...(raw.format !== undefined && { format: raw.format }),
      companions: companionsOf(raw),
    });
    console.log(summaryText(summary));
    if (summary.failures.length > 0) process.exitCode = 1;
  });
}

/**
 * `animcore resample`: expands `paths` (`expandInputs`), converts every file (`convertFile`) on
 * the main thread or, with `jobs` > 1, on that many piscina worker threads, reports progress, and
 * returns the summary. One file's failure does not stop the batch.
 */
export async function runResample(paths: readonly string[], options: ResampleCommandOptions): Promise<BatchSummary> {
  const started = performance.now();
  const { inputs, skipped, protectedPaths } = await expandInputs(paths);
  const bases = outputBases(inputs);
  const jobs: ConvertJob[] = inputs.map((input, i) => ({
    input: input.path,
    outputBase: resolve(options.out, bases[i]!),
    target: options.to,
    fps: options.fps,
    force: options.force,
    protectedPaths: [...protectedPaths],
    ...(options.format !== undefined ? { format: options.format } : input.detection && { detected: { format: input.detection.handler.id, ...input.detection.detected } }),
    ...(options.companions !== undefined && { companions: options.companions }),
  }));
  const progress = batchProgress(jobs.length);
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
  return summarise(results, skipped, (performance.now() - started) / 1000);
}
