// The fuzzer's main thread, run while run.mjs imports this module: Vite's module runner closes
// once `runnerImport` returns, and the pipeline still imports modules on demand (meshoptimizer's
// decoder on the first compressed glTF), so the run happens inside the import.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './main.js';

const here = fileURLToPath(new URL('.', import.meta.url));
process.exitCode = await main(process.argv.slice(2), join(here, 'run.mjs'), join(here, '..', '..'));
