// The built viewer in headless Chromium (issue 8): every bundled example and a fixture of each
// format opens, plays, draws, and reads back the pose Node samples; SIMD in Chromium, scalar when
// the page cannot use SIMD; the stress mode and the Web Worker run. Screenshots go to test-results/.
import { execSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFile } from '../../src/cli/open-file.js';
import type { AnimCore } from '../../src/core/index.js';
import { haveChromium, launchChromium, serveStatic } from '../../scripts/browser.mjs';
import { createCore } from '../helpers/core.js';
import { FIXTURES, haveFixtures } from '../helpers/fixtures.js';

const root = join(import.meta.dirname, '..', '..');
const results = join(root, 'test-results');

interface Case {
  name: string;
  /** `examples` or a fixtures format folder. */
  source: 'examples' | 'nebula' | 'meteor' | 'mrtk';
  files: string[];
}

const CASES: Case[] = [
  { name: 'example-nebula-wave', source: 'examples', files: ['nebula/wave.nax3'] },
  { name: 'example-aaf-teapot-man', source: 'examples', files: ['aaf/teapot-man.scene.aaf', 'aaf/teapot-man.anim.aaf'] },
  { name: 'nebula-nax3', source: 'nebula', files: ['Unit_Footman.nax3', 'Unit_Footman.constants'] },
  { name: 'nebula-nax2', source: 'nebula', files: ['eagle.nax2', 'eagle.n2'] },
  { name: 'nebula-nanim2', source: 'nebula', files: ['bouncingball.nanim2'] },
  { name: 'meteor', source: 'meteor', files: ['p0.amb', 'P0.bnc', 'P0.pos', 'p0.skc'] },
  { name: 'mrtk', source: 'mrtk', files: ['InputAnimation-20201027-134946.bin'] },
];

/** Makes the page's SIMD feature test fail, as on a host without WebAssembly SIMD. */
function hideSimd(): void {
  const validate = WebAssembly.validate;
  // wasm-feature-detect's SIMD probe is the only module validated that uses the 0xfd (SIMD) prefix.
  WebAssembly.validate = (bytes: BufferSource) => {
    const b = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
    return b.includes(0xfd) ? false : validate(bytes);
  };
}

type Hook = {
  build: string;
  open(urls: string[]): Promise<{ format: string; clips: string[] }>;
  pose(time: number): { samples: number[]; counts: number[] };
  workerPose(time: number): Promise<{ samples: number[]; counts: number[] }>;
  play(): void;
  pause(): void;
  setTime(t: number): void;
  frames(): number;
  canvas(): { differing: number; hash: string };
  stress(n: number, engine: string): Promise<void>;
  samplingMs(): number;
};
declare const window: { __animcore: Hook };

const enabled = haveChromium('viewer browser tests');

describe.skipIf(!enabled)('viewer in headless Chromium', () => {
  let server: { url: string; close(): Promise<void> };
  let browser: Browser;
  const cores: Partial<Record<'simd' | 'scalar', AnimCore>> = {};

  beforeAll(async () => {
    execSync('npx vite build viewer --logLevel warn', { cwd: root, stdio: 'inherit' });
    mkdirSync(results, { recursive: true });
    server = await serveStatic({ '/': join(root, 'viewer', 'dist'), '/fixtures/': FIXTURES });
    browser = await launchChromium();
    cores.simd = await createCore('simd');
    cores.scalar = await createCore('scalar');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openPage(page: Page, c: Case): Promise<{ format: string; clips: string[] }> {
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => window.__animcore !== undefined);
    const urls = c.files.map((f) => (c.source === 'examples' ? `${server.url}/${f}` : `${server.url}/fixtures/${c.source}/${f}`));
    return page.evaluate((u) => window.__animcore.open(u), urls);
  }

  /** Node's sampling of the same file set at `time` with `build`. */
  async function nodePose(c: Case, time: number, build: 'simd' | 'scalar') {
    const dir = c.source === 'examples' ? join(root, 'examples') : join(FIXTURES, c.source);
    const { resource } = await openFile(join(dir, c.files[0]!));
    const core = cores[build]!;
    core.load(resource);
    const clip = resource.clips[0]!;
    const buffer = core.createSampleBuffer(clip);
    core.sampler.sample(clip, time, buffer);
    const out = { samples: Array.from(buffer.samples), counts: Array.from(buffer.counts), duration: clip.duration };
    buffer.dispose();
    resource.dispose();
    return out;
  }

  function expectPose(page: { samples: number[]; counts: number[] }, node: { samples: number[]; counts: number[] }): void {
    expect(page.counts).toEqual(node.counts);
    expect(page.samples.length).toBe(node.samples.length);
    page.samples.forEach((v, i) => {
      if (!(Math.abs(v - node.samples[i]!) <= 1e-5 * Math.max(1, Math.abs(node.samples[i]!)))) throw new Error(`sample ${i}: page ${v}, node ${node.samples[i]}`);
    });
  }

  it.each(CASES)('$name: opens, draws, plays, and reads back Node\'s pose (SIMD)', async (c) => {
    if (c.source !== 'examples' && !haveFixtures(c.source)) return;
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    try {
      const opened = await openPage(page, c);
      expect(opened.clips.length).toBeGreaterThan(0);
      expect(await page.evaluate(() => window.__animcore.build)).toBe('simd');
      const { duration } = await nodePose(c, 0, 'simd');
      const time = 0.37 * duration;
      await page.evaluate((t) => {
        window.__animcore.pause();
        window.__animcore.setTime(t);
      }, time);
      const frames = await page.evaluate(() => window.__animcore.frames());
      await page.waitForFunction((f) => window.__animcore.frames() > f + 2, frames);
      expectPose(await page.evaluate((t) => window.__animcore.pose(t), time), await nodePose(c, time, 'simd'));
      const still = await page.evaluate(() => window.__animcore.canvas());
      expect(still.differing).toBeGreaterThan(0.005); // not blank
      await page.screenshot({ path: join(results, `viewer-${c.name}.png`) });
      await page.evaluate(() => window.__animcore.play());
      await page.waitForTimeout(400);
      const playing = await page.evaluate(() => window.__animcore.canvas());
      expect(playing.hash).not.toBe(still.hash); // the frame changes while playing
    } finally {
      await page.close();
    }
  });

  it('samples the same pose in its Web Worker', async () => {
    const page = await browser.newPage();
    try {
      await openPage(page, CASES[1]!);
      const [main, worker] = await page.evaluate(async () => [window.__animcore.pose(0.61), await window.__animcore.workerPose(0.61)]);
      expectPose(worker, main);
    } finally {
      await page.close();
    }
  });

  it.each(['simd', 'scalar', 'threejs'])('runs the stress mode with %s', async (engine) => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    try {
      await openPage(page, CASES[1]!);
      await page.evaluate((e) => window.__animcore.stress(300, e), engine);
      await page.waitForTimeout(500);
      const a = await page.evaluate(() => window.__animcore.canvas());
      await page.waitForTimeout(300);
      const b = await page.evaluate(() => window.__animcore.canvas());
      expect(a.differing).toBeGreaterThan(0.005);
      expect(b.hash).not.toBe(a.hash);
      expect(await page.evaluate(() => window.__animcore.samplingMs())).toBeGreaterThan(0);
      if (engine === 'simd') await page.screenshot({ path: join(results, 'viewer-stress.png') });
    } finally {
      await page.close();
    }
  });

  it('falls back to the scalar build when the page cannot use SIMD', async () => {
    // Chromium 156 honours neither --js-flags=--no-experimental-wasm-simd nor --no-wasm-simd (SIMD
    // is no longer behind a V8 flag), so the page's feature test is made to fail instead.
    const context = await browser.newContext();
    await context.addInitScript(hideSimd);
    const page = await context.newPage();
    try {
      const c = CASES[1]!;
      await openPage(page, c);
      expect(await page.evaluate(() => window.__animcore.build)).toBe('scalar');
      expectPose(await page.evaluate(() => window.__animcore.pose(0.5)), await nodePose(c, 0.5, 'scalar'));
    } finally {
      await context.close();
    }
  });
});
