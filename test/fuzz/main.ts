// `npm run fuzz -- [options]` (`--help` lists them) or `npm run fuzz -- --replay DIR`: random file sets for every reader (test/fuzz/targets.ts) through the whole
// pipeline (pipeline.ts) for N seconds, with a random seed unless one is given (printed first, so
// any run can be repeated). Failing inputs are written to DIR (default fuzz-failures/), one folder
// each; figures per target are printed and written to test-results/fuzz-summary.json. Exit code 1
// when anything failed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import * as lib from '../../src/index.js';
import { allocationBound, type FailureKind, type Outcome, runInput } from './pipeline.js';
import { loadInput, saveInput } from './saved-input.js';
import { makeInput, TARGETS } from './targets.js';
import type { WorkerData, WorkerReport } from './worker.js';

interface TargetStats {
  inputs: number;
  accepted: number;
  formatErrors: number;
  /** FormatError codes and their counts. */
  codes: Record<string, number>;
  failures: Partial<Record<FailureKind, number>>;
  exportRefused: number;
  modelOverflow: number;
  ms: number;
  slowest: { ms: number; index: number; bytes: number };
  peak: { allocation: number; index: number; bytes: number };
  largest: number;
}

interface Options {
  seconds: number;
  seed: number;
  jobs: number;
  targets: string[];
  out: string;
  maxMs: number;
  validate: boolean;
}

const USAGE = `npm run fuzz -- [options]        random inputs for every reader through the whole pipeline
npm run fuzz -- --replay DIR     one saved input (a failure folder or a kept regression)

  --seconds N     how long to run (default 60)
  --seed S        the run's seed (default: drawn at random and printed first)
  --jobs J        worker threads (default 1, at most 64)
  --only T1,T2    targets to run (default all): ${Object.keys(TARGETS).join(', ')}
  --out DIR       where failing inputs are written (default fuzz-failures/)
  --max-ms MS     an input slower than this is a failure (default 2000)
  --no-validate   skip the glTF validator on exports
  --help          this text`;

/** Options of a run; strict: an unknown option or a bad number throws, naming it. */
function parseOptions(argv: string[]): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      seconds: { type: 'string' },
      seed: { type: 'string' },
      jobs: { type: 'string' },
      only: { type: 'string' },
      out: { type: 'string' },
      'max-ms': { type: 'string' },
      'no-validate': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const number = (name: keyof typeof values, fallback: number): number => {
    const v = values[name];
    if (v === undefined) return fallback;
    const n = Number(v);
    if (typeof v !== 'string' || !Number.isFinite(n) || n < 0) throw new Error(`--${name} takes a number ≥ 0, got "${String(v)}"`);
    return n;
  };
  const only = values.only?.split(',');
  for (const t of only ?? []) if (!(t in TARGETS)) throw new Error(`unknown target "${t}"; targets: ${Object.keys(TARGETS).join(', ')}`);
  return {
    seconds: number('seconds', 60),
    seed: number('seed', Math.floor(Math.random() * 2 ** 32)) >>> 0,
    jobs: Math.max(1, Math.min(64, number('jobs', 1))),
    targets: only ?? Object.keys(TARGETS),
    out: values.out ?? 'fuzz-failures',
    maxMs: number('max-ms', 2000),
    validate: !values['no-validate'],
  };
}

const emptyStats = (): TargetStats => ({
  inputs: 0,
  accepted: 0,
  formatErrors: 0,
  codes: {},
  failures: {},
  exportRefused: 0,
  modelOverflow: 0,
  ms: 0,
  slowest: { ms: 0, index: -1, bytes: 0 },
  peak: { allocation: 0, index: -1, bytes: 0 },
  largest: 0,
});

export async function main(argv: string[], runFile: string, root: string): Promise<number> {
  const replay = argv.indexOf('--replay');
  if (replay >= 0) return replayInput(argv[replay + 1] ?? '', root);
  let o: Options | 'help';
  try {
    o = parseOptions(argv);
  } catch (e) {
    console.error(`fuzz: ${(e as Error).message}\n(npm run fuzz -- --help lists the options)`);
    return 2;
  }
  if (o === 'help') {
    console.log(USAGE);
    return 0;
  }
  console.log(`fuzz: seed ${o.seed} (repeat with --seed ${o.seed}), ${o.seconds} s, ${o.jobs} job(s), ${o.targets.length} targets: ${o.targets.join(', ')}`);
  const stats = new Map(o.targets.map((t) => [t, emptyStats()]));
  let failures = 0;
  const deadline = Date.now() + 1000 * o.seconds;
  const progress = new SharedArrayBuffer(1024);
  const busy = new Int32Array(progress);
  const since = new Float64Array(progress, 8 * 64);
  const hangMs = Math.max(20_000, 10 * o.maxMs);

  const fail = (index: number, kind: FailureKind, outcome: Outcome) => {
    failures++;
    const input = makeInput(o.seed, index, o.targets);
    const dir = join(o.out, `${input.target}-${kind}-${o.seed}-${index}`);
    saveInput(dir, input, o.seed, index, { ...outcome, result: 'failure', code: kind });
    console.log(`FAIL ${kind} ${input.target} #${index}: ${(outcome.message ?? '').slice(0, 200)} → ${dir}`);
  };

  const record = ({ index, target, bytes, outcome }: WorkerReport) => {
    const s = stats.get(target)!;
    s.inputs++;
    s.ms += outcome.ms;
    s.largest = Math.max(s.largest, bytes);
    if (outcome.ms > s.slowest.ms) s.slowest = { ms: outcome.ms, index, bytes };
    if (outcome.allocation > s.peak.allocation) s.peak = { allocation: outcome.allocation, index, bytes };
    if (outcome.exportRefused) s.exportRefused++;
    if (outcome.modelOverflow) s.modelOverflow++;
    const kinds: FailureKind[] = [];
    if (outcome.result === 'failure') kinds.push(outcome.code as FailureKind);
    if (outcome.ms > o.maxMs) kinds.push('slow');
    if (outcome.allocation > allocationBound(bytes)) kinds.push('over-allocation');
    if (outcome.result === 'accepted') s.accepted++;
    if (outcome.result === 'format-error') {
      s.formatErrors++;
      s.codes[outcome.code] = (s.codes[outcome.code] ?? 0) + 1;
    }
    for (const kind of kinds) {
      s.failures[kind] = (s.failures[kind] ?? 0) + 1;
      fail(index, kind, { ...outcome, message: kind === 'slow' ? `${outcome.ms.toFixed(0)} ms` : kind === 'over-allocation' ? `${outcome.allocation} bytes for ${bytes} input bytes` : outcome.message });
    }
  };

  const workers = new Set<Worker>();
  const start = (slot: number, first: number) =>
    new Promise<void>((resolve) => {
      const data: WorkerData = { root, seed: o.seed, targets: o.targets, start: first, step: o.jobs, deadline, progress, slot, validate: o.validate };
      const worker = new Worker(runFile, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
      workers.add(worker);
      worker.on('message', record);
      let restarted = false;
      const watchdog = setInterval(() => {
        if (Atomics.load(busy, 2 * slot + 1) === 1 && Date.now() - since[slot]! > hangMs) {
          restarted = true;
          void worker.terminate();
        }
      }, 1000);
      const finish = (crash?: Error) => {
        clearInterval(watchdog);
        workers.delete(worker);
        if (Atomics.load(busy, 2 * slot + 1) === 1 && (restarted || crash)) {
          const index = Atomics.load(busy, 2 * slot);
          Atomics.store(busy, 2 * slot + 1, 0);
          const target = o.targets[index % o.targets.length]!;
          const s = stats.get(target)!;
          s.inputs++;
          const kind: FailureKind = restarted ? 'hang' : 'over-allocation';
          s.failures[kind] = (s.failures[kind] ?? 0) + 1;
          fail(index, kind, { result: 'failure', code: kind, message: crash ? `worker died: ${crash.message}` : `no result after ${hangMs} ms`, ms: hangMs, allocation: 0 });
          if (Date.now() < deadline) {
            void start(slot, index + o.jobs).then(resolve);
            return;
          }
        }
        resolve();
      };
      worker.on('error', (e) => {
        console.error(`fuzz: worker ${slot}: ${e.stack ?? e}`);
        finish(e);
      });
      worker.on('exit', () => finish());
    });

  const ticker = setInterval(() => {
    const total = [...stats.values()].reduce((n, s) => n + s.inputs, 0);
    console.log(`fuzz: ${total} inputs, ${failures} failures, ${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s left`);
  }, 30_000);
  await Promise.all(Array.from({ length: o.jobs }, (_, slot) => start(slot, slot)));
  clearInterval(ticker);

  report(o, stats, failures);
  return failures > 0 ? 1 : 0;
}

/** `--replay DIR`: runs one saved input (a failure folder or a kept regression) and prints the outcome with its stack. */
async function replayInput(dir: string, root: string): Promise<number> {
  const core = await lib.AnimCore.create({ wasm: readFileSync(join(root, 'build', 'animcore-simd.wasm')) });
  const outcome = await runInput(lib, core, loadInput(dir));
  console.log(outcome);
  return outcome.result === 'failure' ? 1 : 0;
}

function report(o: Options, stats: Map<string, TargetStats>, failures: number): void {
  const rows = [...stats].map(([target, s]) => ({
    target,
    inputs: s.inputs,
    accepted: s.accepted,
    'format errors': s.formatErrors,
    failures: Object.values(s.failures).reduce((a, b) => a + (b ?? 0), 0),
    'export refused': s.exportRefused,
    'model overflow': s.modelOverflow,
    'mean ms': s.inputs ? +(s.ms / s.inputs).toFixed(2) : 0,
    'slowest ms': +s.slowest.ms.toFixed(1),
    'peak alloc MiB': +(s.peak.allocation / 2 ** 20).toFixed(1),
    'largest input KiB': +(s.largest / 1024).toFixed(0),
  }));
  console.table(rows);
  const total = rows.reduce((n, r) => n + r.inputs, 0);
  console.log(`fuzz: seed ${o.seed}, ${total} inputs in ${o.seconds} s, ${failures} failures${failures ? ` (inputs in ${o.out}/)` : ''}`);
  mkdirSync('test-results', { recursive: true });
  writeFileSync(
    join('test-results', 'fuzz-summary.json'),
    JSON.stringify({ seed: o.seed, seconds: o.seconds, jobs: o.jobs, maxMs: o.maxMs, failures, targets: Object.fromEntries(stats) }, null, 2) + '\n',
  );
}
