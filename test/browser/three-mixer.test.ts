// AnimcoreMixer equals three.js's AnimationMixer in Chromium too (issue 19): the glTF scenarios of
// test/three/mixer-scenarios.ts — every fixture, every script, the same seeds as in Node — bundled
// by Vite with the built package (`animcore`, `animcore/three` → dist/, as an app has them) and
// three.js, run in headless Chromium with the SIMD build.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, serveStatic } from '../../scripts/browser.mjs';
import { haveFixtures } from '../helpers/fixtures.js';
import { fixtureGlb, withSecondAnimation } from '../helpers/three-gltf.js';
import { GLTF_CASES } from '../three/mixer-scenarios.js';

const root = join(import.meta.dirname, '..', '..');

/** The page: each case's glb fetched, its scenarios run, what differed (or null) per case. */
const MAIN = `
import { AnimCore, openGltf } from 'animcore';
import { AnimcoreMixer, toThreeSkeleton } from 'animcore/three';
import { GLTF_CASES, runGltfScenarios } from ${JSON.stringify(join(root, 'test', 'three', 'mixer-scenarios.ts'))};
const core = await AnimCore.create();
const results = [];
for (const [i, c] of GLTF_CASES.entries()) {
  const glb = new Uint8Array(await (await fetch('./case-' + i + '.glb')).arrayBuffer());
  try {
    await runGltfScenarios({ openGltf, AnimcoreMixer, toThreeSkeleton }, core, glb, c);
    results.push(null);
  } catch (e) {
    results.push(String(e && e.message));
  }
}
window.__result = { build: core.simd ? 'simd' : 'scalar', results };
`;

const enabled = haveChromium('three.js mixer browser test') && haveFixtures('gltf');

describe.skipIf(!enabled)('AnimcoreMixer against three.js in Chromium', () => {
  let dir: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'animcore-three-mixer-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>');
    writeFileSync(join(dir, 'main.js'), MAIN);
    mkdirSync(join(dir, 'public'));
    for (const [i, c] of GLTF_CASES.entries()) writeFileSync(join(dir, 'public', `case-${i}.glb`), await fixtureGlb(c.file, c.second ? withSecondAnimation : undefined));
    const { build } = await import('vite');
    await build({
      root: dir,
      configFile: false,
      logLevel: 'error',
      publicDir: join(dir, 'public'),
      resolve: {
        alias: [
          { find: /^animcore\/three$/, replacement: join(root, 'dist', 'three.js') },
          { find: /^animcore$/, replacement: join(root, 'dist', 'index.js') },
        ],
      },
      build: { outDir: join(dir, 'dist'), target: 'es2022', chunkSizeWarningLimit: 4096 },
    });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every glTF scenario: world matrices within tolerance every frame, the same events, SIMD build', async () => {
    const server = await serveStatic({ '/': join(dir, 'dist') });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${server.url}/index.html`);
      await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, null, { timeout: 120_000 });
      const r = await page.evaluate(() => (window as unknown as { __result: { build: string; results: (string | null)[] } }).__result);
      expect(errors).toEqual([]);
      expect(r.build).toBe('simd');
      expect(Object.fromEntries(GLTF_CASES.map((c, i) => [`${c.file} ${c.animations.join('+')}`, r.results[i]]))).toEqual(
        Object.fromEntries(GLTF_CASES.map((c) => [`${c.file} ${c.animations.join('+')}`, null])),
      );
    } finally {
      await page.close();
      await server.close();
    }
  }, 180_000);
});
