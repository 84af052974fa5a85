import cliProgress from 'cli-progress';
import type { ConvertResult } from './convert-file.js';

/** Reports a batch's progress: a bar on a TTY, one line per file otherwise. */
export interface BatchProgress {
  done(result: ConvertResult): void;
  stop(): void;
}

/**
 * A `cli-progress` bar on stderr when it is a TTY (failures are listed in the summary), else a line
 * per file on stdout: `ok <input> -> <outputs> (<clips> clips, <keys> keys)` or
 * `FAILED <input>: <error>`.
 */
export function batchProgress(total: number): BatchProgress {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar({ format: 'resample [{bar}] {value}/{total} files | {file}', stream: process.stderr }, cliProgress.Presets.shades_classic);
    bar.start(total, 0, { file: '' });
    return { done: (r) => bar.increment(1, { file: r.input }), stop: () => bar.stop() };
  }
  return {
    done(r) {
      if (r.ok) console.log(`ok ${r.input} -> ${r.outputs.join(', ')} (${r.clips} clips, ${r.keysOut} keys)`);
      else console.log(`FAILED ${r.input}: ${r.errorName}: ${r.error}`);
    },
    stop() {},
  };
}
