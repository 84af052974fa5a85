// A consumer app (issue 8): the packed tarball (`npm pack`) installed into a fresh Vite app in a
// temporary folder, built and served, and run in Vite's dev server (with dependency
// pre-bundling on, no `optimizeDeps.exclude`); in both the `.wasm` must load and sample in
// Chromium. The tarball is unpacked into the app's node_modules and its dependencies are linked
// from this checkout's node_modules, so the test needs no registry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, serveStatic } from '../../scripts/browser.mjs';

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
  let app: string;
  let browser: Browser;

  beforeAll(async () => {
    app = mkdtempSync(join(tmpdir(), 'animcore-consumer-'));
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', app], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop()!;
    const packageDir = join(app, 'node_modules', 'animcore');
    mkdirSync(packageDir, { recursive: true });
    execFileSync('tar', ['xzf', join(app, tarball), '-C', packageDir, '--strip-components=1']);
    const { dependencies } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of [...Object.keys(dependencies), 'vite']) {
      mkdirSync(join(app, 'node_modules', name, '..'), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), join(app, 'node_modules', name));
    }
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(app, 'index.html'), '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>');
    writeFileSync(join(app, 'main.js'), MAIN);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (app) rmSync(app, { recursive: true, force: true });
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

  it('builds with vite build, and the built app samples with the SIMD .wasm', async () => {
    execFileSync(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'inherit' });
    const server = await serveStatic({ '/': join(app, 'dist') });
    try {
      const r = await result(`${server.url}/index.html`);
      expect(r.build).toBe('simd');
      r.samples.forEach((v, i) => expect(v).toBeCloseTo(EXPECTED[i]!, 6));
    } finally {
      await server.close();
    }
  });

  it('runs in the Vite dev server with dependency pre-bundling (no optimizeDeps.exclude)', async () => {
    const { createServer } = (await import(join(app, 'node_modules', 'vite', 'dist', 'node', 'index.js'))) as typeof import('vite');
    const server = await createServer({ root: app, configFile: false, logLevel: 'warn', server: { host: '127.0.0.1', port: 0 } });
    await server.listen();
    try {
      const r = await result(server.resolvedUrls!.local[0]!);
      expect(r.build).toBe('simd');
      r.samples.forEach((v, i) => expect(v).toBeCloseTo(EXPECTED[i]!, 6));
    } finally {
      await server.close();
    }
  });
});
