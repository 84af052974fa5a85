import { cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'tsup';

/** piscina's own worker script, beside its main module wherever npm installed it. */
const piscinaWorker = join(dirname(createRequire(import.meta.url).resolve('piscina')), 'worker.js');

// tsup leaves `dependencies` and `peerDependencies` external and bundles everything else, so what
// only the CLI or a format reader needs (devDependencies) ships inside the bundles and a browser
// user's install stays small. `npm run build` empties dist/ first and then lists the bundled packages'
// licences in dist/THIRD_PARTY_LICENSES.md (scripts/third-party-licenses.mjs).
export default defineConfig([
  {
    // The library: `animcore` and `animcore/three`, ESM and CommonJS, platform-neutral.
    entry: { index: 'src/index.ts', three: 'src/three/index.ts' },
    format: ['esm', 'cjs'],
    // One named declaration file per entry (no hashed chunks): `animcore/three` imports the core
    // from `animcore` itself, so both entries share one AnimCore, one UsageError, one set of types.
    dts: true,
    target: 'node20',
    platform: 'neutral',
    shims: true,
    splitting: false,
    sourcemap: false,
    external: ['node:*', 'three', 'animcore'],
    async onSuccess() {
      // The wasm builds sit next to the bundles, where `packagedWasmUrl` looks for them.
      mkdirSync('dist/wasm', { recursive: true });
      for (const build of ['simd', 'scalar']) cpSync(`build/animcore-${build}.wasm`, `dist/wasm/animcore-${build}.wasm`);
    },
  },
  {
    // The `animcore` command (ESM, Node only) with its dependencies bundled. piscina's bundled pool
    // starts its own worker script as `<bundle dir>/worker.js`, so that script is an entry too;
    // the `require` banner lets the bundled CommonJS code load Node's built-in modules.
    entry: { cli: 'src/cli/main.ts', 'resample-worker': 'src/cli/resample-worker.ts', worker: piscinaWorker },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    shims: true,
    splitting: true, // the command and its worker threads share one chunk of library code
    sourcemap: false,
    // piscina loads @napi-rs/nice only for a `niceIncrement` (never set here) and tolerates its absence.
    external: ['@napi-rs/nice'],
    banner: { js: "import { createRequire as __animcoreRequire } from 'node:module'; const require = __animcoreRequire(import.meta.url);" },
  },
]);
