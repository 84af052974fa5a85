// A consumer app (issue 8): the packed tarball (`npm pack`) installed into a fresh Vite app in a
// temporary folder (`npm ci --offline`, test/helpers/packed-package.ts), built and served, and run
// in Vite's dev server (with dependency pre-bundling on, no `optimizeDeps.exclude`); in both the
// `.wasm` must load and sample in Chromium. A second page is the README's Web Worker example, its
// two files exactly as the README writes them.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileSet } from 'animcore';
import { haveChromium, launchChromium, serveStatic } from '../../scripts/browser.mjs';
import { installPacked, packAnimcore } from '../helpers/packed-package.js';
import { readmeBlocks } from '../helpers/readme-blocks.js';

const root = join(import.meta.dirname, '..', '..');

const MAIN = `
import { AnimClip, AnimCore, AnimResource } from 'animcore';
const clip = new AnimClip({ name: 'c', keyCount: 2, keyDuration: 1, postInfinity: 'cycle', curves: [{
  curveType: 'translation', active: true, target: { joint: 'a', property: 'translation' },
  keys: { encoding: 'uniform', values: Float32Array.of(0, 0, 0, 0, 2, 4, 6, 0) } }] });
const core = await AnimCore.create();
const resource = new AnimResource({ format: 'consumer', clips: [clip] });
core.load(resource);
const job = core.createSampleMany({ clip, instances: 2 });
job.run([0.5, 0.25]);
window.__result = { build: core.simd ? 'simd' : 'scalar', samples: Array.from(job.samples) };
`;

/** What the app must read back: clip keys (0,0,0) → (2,4,6) at 0.5 s and 0.25 s. */
const EXPECTED = [1, 2, 3, 0, 0.5, 1, 1.5, 0];

const enabled = haveChromium('consumer browser test');

describe.skipIf(!enabled)('a Vite app using the packed package', () => {
  let dir: string;
  let app: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'animcore-consumer-'));
    app = join(dir, 'app');
    installPacked(app, packAnimcore(dir), 'module', ['vite']);
    writeFileSync(join(app, 'index.html'), '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>');
    writeFileSync(join(app, 'main.js'), MAIN);
    // The README's Web Worker example: its page fetches wave.nax3 from the app's public folder.
    for (const block of readmeBlocks(join(root, 'README.md')).filter((b) => b.file)) writeFileSync(join(app, block.file!), block.code);
    writeFileSync(join(app, 'worker.html'), '<!doctype html><html><body><script type="module" src="./main.ts"></script></body></html>');
    mkdirSync(join(app, 'public'));
    copyFileSync(join(root, 'examples', 'nebula', 'wave.nax3'), join(app, 'public', 'wave.nax3'));
    writeFileSync(join(app, 'vite.config.js'), "export default { build: { rollupOptions: { input: ['index.html', 'worker.html'] } } };\n");
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function result(url: string): Promise<{ build: string; samples: number[] }> {
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, null, { timeout: 30_000 });
      return await page.evaluate(() => (window as unknown as { __result: { build: string; samples: number[] } }).__result);
    } finally {
      await page.close();
    }
  }

  /** What the README's worker page logs: the clip names and the length of the samples it got back. */
  async function workerLog(url: string): Promise<unknown[]> {
    const page = await browser.newPage();
    try {
      // Vite's dev client logs its own lines ("[vite] connecting..."); the example logs one.
      const logged = new Promise<unknown[]>((resolve) =>
        page.on('console', (m) => {
          if (!m.text().startsWith('[vite]')) void Promise.all(m.args().map((a) => a.jsonValue())).then(resolve);
        }),
      );
      page.on('pageerror', (e) => console.error(e));
      await page.goto(url);
      return await logged;
    } finally {
      await page.close();
    }
  }

  /** The README worker's reply for wave.nax3: its clip names, and 4 floats × curves × 64 instances. */
  async function expectedWorkerLog(): Promise<unknown[]> {
    const { resource } = await openFileSet([{ name: 'wave.nax3', bytes: new Uint8Array(readFileSync(join(root, 'examples', 'nebula', 'wave.nax3'))) }]);
    return [resource.clips.map((c) => c.name), 4 * resource.clip(0).curves.length * 64];
  }

  it('builds with vite build, and the built app samples with the SIMD .wasm, in the page and in the README\'s worker', async () => {
    execFileSync(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'inherit' });
    const server = await serveStatic({ '/': join(app, 'dist') });
    try {
      const r = await result(`${server.url}/index.html`);
      expect(r.build).toBe('simd');
      r.samples.forEach((v, i) => expect(v).toBeCloseTo(EXPECTED[i]!, 6));
      expect(await workerLog(`${server.url}/worker.html`)).toEqual(await expectedWorkerLog());
    } finally {
      await server.close();
    }
  });

  it('runs in the Vite dev server with dependency pre-bundling (no optimizeDeps.exclude), the README\'s worker too', async () => {
    const { createServer } = (await import(join(app, 'node_modules', 'vite', 'dist', 'node', 'index.js'))) as typeof import('vite');
    const server = await createServer({ root: app, logLevel: 'warn', server: { host: '127.0.0.1', port: 0 } });
    await server.listen();
    try {
      const r = await result(server.resolvedUrls!.local[0]!);
      expect(r.build).toBe('simd');
      r.samples.forEach((v, i) => expect(v).toBeCloseTo(EXPECTED[i]!, 6));
      expect(await workerLog(`${server.resolvedUrls!.local[0]!}worker.html`)).toEqual(await expectedWorkerLog());
    } finally {
      await server.close();
    }
  });
});
