import { resolve } from 'node:path';
import { Piscina } from 'piscina';
import { AnimCore } from '../core/index.js';
import { UsageError } from '../errors.js';
import { expandInputs } from './batch-inputs.js';
import { batchProgress } from './batch-progress.js';
import { type BatchSummary, summarise } from './batch-summary.js';
import { type ConvertJob, type ConvertResult, convertFile } from './convert-file.js';
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

/** Checks and converts the raw `resample` options. @throws UsageError */
export function resampleOptions(raw: Record<string, unknown>): ResampleCommandOptions {
  const fps = Number(raw.fps);
  if (!(fps > 0) || !Number.isFinite(fps)) throw new UsageError(`--fps takes keys per second (a number > 0), got "${raw.fps}"`);
  const to = String(raw.to ?? 'glb');
  if (!(TARGETS as readonly string[]).includes(to)) throw new UsageError(`--to takes ${TARGETS.join(', ')}, got "${to}"`);
  if (typeof raw.out !== 'string' || raw.out === '') throw new UsageError('--out <dir> is required');
  const jobs = Number(raw.jobs ?? 1);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs takes a whole number >= 1, got "${raw.jobs}"`);
  return { fps, to: to as Target, out: raw.out, jobs, force: raw.force === true, ...(typeof raw.format === 'string' && { format: raw.format }) };
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
    ...(options.format !== undefined && { format: options.format }),
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
