import { cpSync, mkdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli/main.ts', 'resample-worker': 'src/cli/resample-worker.ts', three: 'src/three/index.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', three: 'src/three/index.ts' } },
  target: 'node20',
  platform: 'neutral',
  shims: true,
  clean: true,
  splitting: false,
  sourcemap: false,
  external: ['node:*', 'three'],
  // The wasm builds sit next to the bundles, where `packagedWasmUrl` looks for them.
  async onSuccess() {
    mkdirSync('dist/wasm', { recursive: true });
    for (const build of ['simd', 'scalar']) {
      cpSync(`build/animcore-${build}.wasm`, `dist/wasm/animcore-${build}.wasm`);
    }
  },
});
