import cliProgress from 'cli-progress';
import { type ConvertResult, isWalkSkip } from './convert-file.js';

/** How much `animcore resample` prints while it works. */
export type Verbosity = 'quiet' | 'normal' | 'verbose';

/** Reports a batch's progress. */
export interface BatchProgress {
  done(result: ConvertResult): void;
  stop(): void;
}

/** Whether progress is a line per file (which names every failed and skipped file, so the summary need not). */
export function linePerFile(verbosity: Verbosity, json: boolean): boolean {
  return verbosity !== 'quiet' && !json && (verbosity === 'verbose' || !process.stderr.isTTY);
}

/** One line for a file: `ok <input> -> <outputs> (…)`, `unchanged <input>`, `skipped <input>: <reason>` or `FAILED <input>: <name>: <reason>`. */
export function resultLine(r: ConvertResult): string {
  if (r.status === 'converted') return `ok ${r.input} -> ${r.outputs.map((o) => o.path).join(', ')} (${r.clips} clips, ${r.keysOut} keys written)`;
  if (r.status === 'unchanged') return `unchanged ${r.input} -> ${r.outputs.map((o) => o.path).join(', ')}`;
  if (r.status === 'skipped') return `skipped ${r.input}: ${r.reason}`;
  return `FAILED ${r.input}: ${r.errorName}: ${r.reason}`;
}

/**
 * Progress of a batch: nothing when `quiet` or when `json` (stdout holds the JSON alone); a line
 * per file on stdout when `verbose` or when stderr is no TTY (with each file's warnings, and the
 * walked files that are no input, when verbose); else a `cli-progress` bar on stderr.
 */
export function batchProgress(total: number, verbosity: Verbosity, json: boolean): BatchProgress {
  if (verbosity === 'quiet' || json) return { done() {}, stop() {} };
  if (!linePerFile(verbosity, json)) {
    const bar = new cliProgress.SingleBar({ format: 'resample [{bar}] {value}/{total} files | {file}', stream: process.stderr }, cliProgress.Presets.shades_classic);
    bar.start(total, 0, { file: '' });
    return { done: (r) => bar.increment(1, { file: r.input }), stop: () => bar.stop() };
  }
  return {
    done(r) {
      if (isWalkSkip(r) && verbosity !== 'verbose') return;
      console.log(resultLine(r));
      if (verbosity === 'verbose') {
        for (const w of r.warnings) console.log(`  warning: ${w}`);
        if (r.stack !== undefined) console.log(r.stack.replace(/^/gm, '  '));
      }
    },
    stop() {},
  };
}
