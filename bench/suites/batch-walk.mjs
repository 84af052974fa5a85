// batch-walk (issue 20): `animcore resample` over a folder of 2,000 small files (four sub-folders of
// 250 copies each of examples/nebula/wave.nax3 and examples/mrtk/hand-wave.bin) with --jobs 2,
// --to json, into a fresh --out each run: files per second of the whole batch (walk, conversion,
// atomic writes), without and with --report. The two contenders alternate, run by run, so the
// machine's load falls on both alike; the time is the summary's `seconds` (--json), which leaves
// out Node's start-up. Full run: 5 runs each of 2,000 files; --quick: 1 each of 400 (so that the
// whole --quick stays under a minute).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The input folder: `files` files, half Nebula (2.8 kB), half MRTK (30 kB). */
function inputs(files) {
  const dir = mkdtempSync(join(tmpdir(), 'animcore-batch-walk-'));
  for (let d = 0; d < 4; d++) {
    mkdirSync(join(dir, 'in', String(d)), { recursive: true });
    for (let i = 0; i < files / 8; i++) {
      copyFileSync(join(root, 'examples', 'nebula', 'wave.nax3'), join(dir, 'in', String(d), `wave${i}.nax3`));
      copyFileSync(join(root, 'examples', 'mrtk', 'hand-wave.bin'), join(dir, 'in', String(d), `hand${i}.bin`));
    }
  }
  return dir;
}

/** One batch of `files` into a fresh --out; its files per second. */
function run(dir, files, report) {
  const out = join(dir, 'out');
  rmSync(out, { recursive: true, force: true });
  const args = [join(root, 'dist', 'cli.js'), 'resample', join(dir, 'in'), '--fps', '30', '--to', 'json', '--out', out, '--jobs', '2', '--json', ...(report ? ['--report', join(dir, 'report.jsonl')] : [])];
  const summary = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 }));
  if (summary.converted !== files) throw new Error(`batch-walk: ${summary.converted} of ${files} converted`);
  return files / summary.seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default function batchWalk({ quick }) {
  return [
    {
      name: 'batch-walk',
      unit: 'files/s',
      where: `Node ${process.version}, the command in child processes`,
      show: (v) => v.toFixed(0),
      async measure() {
        const files = quick ? 400 : 2000;
        const dir = inputs(files);
        try {
          const runs = { 'resample --jobs 2': [], 'resample --jobs 2 --report': [] };
          for (let i = 0; i < (quick ? 1 : 5); i++) {
            // Alternate which goes first, so neither always follows the other's page-cache state.
            const order = i % 2 === 0 ? [false, true] : [true, false];
            for (const report of order) runs[report ? 'resample --jobs 2 --report' : 'resample --jobs 2'].push(run(dir, files, report));
          }
          const result = Object.fromEntries(
            Object.entries(runs).map(([k, xs]) => {
              const m = median(xs);
              return [k, { median: m, spread: median(xs.map((x) => Math.abs(x - m))) / m, runs: xs.map((x) => Math.round(x)) }];
            }),
          );
          const cost = 1 - result['resample --jobs 2 --report'].median / result['resample --jobs 2'].median;
          console.log(`batch-walk: runs (files/s) ${JSON.stringify(Object.fromEntries(Object.entries(result).map(([k, v]) => [k, v.runs])))}; --report costs ${(100 * cost).toFixed(1)} % (median against median)`);
          return result;
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    },
  ];
}
