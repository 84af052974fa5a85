// The animcore viewer: `npm run viewer` (dev server), `npm run build:viewer` (static site in
// viewer/dist). It uses the built package (dist/, as an app using the npm package would), so the
// `.wasm` files are emitted as assets; the bundled examples are served from ../examples.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: here('../examples'),
  resolve: {
    alias: [
      { find: /^animcore\/three$/, replacement: here('../dist/three.js') },
      { find: /^animcore$/, replacement: here('../dist/index.js') },
    ],
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: { input: { viewer: here('index.html'), bench: here('bench.html'), benchGltf: here('bench-gltf.html') } },
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', fs: { allow: [here('..')] } },
  preview: { host: '127.0.0.1' },
});
