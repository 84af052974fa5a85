// Builds (asc + tsup) when dist/ is missing or older than any source file, so `npm start`,
// `npm test` and `npm run bench` work on a fresh clone without a separate build step.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const outputs = ['dist/index.js', 'dist/index.cjs', 'dist/cli.js', 'dist/three.js', 'dist/wasm/animcore-simd.wasm', 'dist/wasm/animcore-scalar.wasm'];
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
  console.log('animcore: building (asc + tsup)…');
  execSync('npm run build', { stdio: 'inherit' });
}
