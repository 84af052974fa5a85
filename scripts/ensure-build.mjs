// Builds (asc + tsup) when dist/ is missing or older than any source file, so `npm start`,
// `npm test` and `npm run bench` work on a fresh clone without a separate build step.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const outputs = ['dist/index.js', 'dist/index.cjs', 'dist/cli.js', 'dist/worker.js', 'dist/three.js', 'dist/THIRD_PARTY_LICENSES.md', 'dist/wasm/animcore-simd.wasm', 'dist/wasm/animcore-scalar.wasm'];
const inputs = ['assembly', 'src', 'asconfig.json', 'tsup.config.ts', 'package.json'];

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((e) => newest(join(path, e))));
}

const stale =
  outputs.some((o) => !existsSync(o)) ||
  Math.max(...inputs.filter(existsSync).map(newest)) > Math.min(...outputs.map((o) => statSync(o).mtimeMs));
if (stale) {
  // The build's own output (the AssemblyScript warning, tsup's file list) shows only when it fails
  // or with ANIMCORE_VERBOSE=1, so `npm start` shows the main job's output.
  const verbose = process.env.ANIMCORE_VERBOSE === '1';
  const started = Date.now();
  console.log('animcore: building (asc + tsup)…');
  try {
    execSync('npm run build', { stdio: verbose ? 'inherit' : 'pipe' });
  } catch (e) {
    process.stderr.write(`${e.stdout ?? ''}${e.stderr ?? ''}`);
    console.error('animcore: the build failed (output above)');
    process.exit(e.status ?? 1);
  }
  console.log(`animcore: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
