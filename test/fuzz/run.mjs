// Entry of `npm run fuzz` (see test/fuzz/main.ts for the options; entry.ts runs it): loads the TypeScript fuzzer
// through Vite's module runner (a devDependency already), in the main thread and in each worker.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { runnerImport } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
if (isMainThread) {
  await runnerImport(join(here, 'entry.ts'));
} else {
  // An error while loading or running the worker would otherwise end it without a word.
  await runnerImport(join(here, 'worker.ts')).catch((e) => {
    console.error(e);
    process.exit(70);
  });
}
