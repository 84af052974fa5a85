import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnimCore } from '../../src/core/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Both builds, loaded from `build/` (run `npm run asbuild` first; `npm test` does). */
export const BUILDS = ['simd', 'scalar'] as const;

export function createCore(build: 'simd' | 'scalar'): Promise<AnimCore> {
  return AnimCore.create({ wasm: readFileSync(join(root, 'build', `animcore-${build}.wasm`)) });
}
