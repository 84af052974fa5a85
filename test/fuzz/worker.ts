// One fuzz worker: makes inputs `start`, `start + step`, … of the run and reports each outcome to
// the runner (main.ts), until the deadline. The shared `progress` array tells the runner which
// input is in work and since when, so it can stop a worker that hangs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import * as lib from '../../src/index.js';
import { runInput } from './pipeline.js';
import { makeInput } from './targets.js';

export interface WorkerData {
  root: string;
  seed: number;
  targets: string[];
  start: number;
  step: number;
  /** Date.now() at which to stop. */
  deadline: number;
  /** Int32 pairs per worker: [input index, 1 while busy]; Float64 start times beside them. */
  progress: SharedArrayBuffer;
  slot: number;
  validate: boolean;
}

/** What the worker posts per input. */
export interface WorkerReport {
  index: number;
  target: string;
  bytes: number;
  outcome: import('./pipeline.js').Outcome;
}

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

/** Wasm memory above which the worker starts a fresh core (memory never shrinks). */
const CORE_RECYCLE = 256 << 20;

export async function runWorker(data: WorkerData): Promise<void> {
  const wasm = readFileSync(join(data.root, 'build', 'animcore-simd.wasm'));
  let core = await lib.AnimCore.create({ wasm });
  const busy = new Int32Array(data.progress);
  const since = new Float64Array(data.progress, 8 * 64);
  for (let index = data.start; Date.now() < data.deadline; index += data.step) {
    const input = makeInput(data.seed, index, data.targets);
    if (core.memory.buffer.byteLength > CORE_RECYCLE) core = await lib.AnimCore.create({ wasm });
    if (process.memoryUsage().arrayBuffers > 512 << 20) gc();
    Atomics.store(busy, 2 * data.slot, index);
    since[data.slot] = Date.now();
    Atomics.store(busy, 2 * data.slot + 1, 1);
    const outcome = await runInput(lib, core, input, data.validate);
    Atomics.store(busy, 2 * data.slot + 1, 0);
    const bytes = input.main.bytes.length + Object.values(input.companions).reduce((s, f) => s + f.bytes.length, 0);
    parentPort!.postMessage({ index, target: input.target, bytes, outcome } satisfies WorkerReport);
  }
}

if (parentPort && workerData) {
  // Vite's module runner does not hold the worker's event loop open across awaits; a timer does.
  const alive = setInterval(() => {}, 1000);
  await runWorker(workerData as WorkerData).finally(() => clearInterval(alive));
}
