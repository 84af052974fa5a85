import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // `animcore/three` imports the core as `animcore`; tests run both from the sources.
  resolve: {
    alias: [
      { find: /^animcore\/three$/, replacement: here('src/three/index.ts') },
      { find: /^animcore$/, replacement: here('src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    globalSetup: ['test/setup/print-seed.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
