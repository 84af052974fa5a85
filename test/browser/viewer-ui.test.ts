// The viewer driven as a person drives it (issue 17): files through the file input and by
// dropping them, examples, buttons, the scrub slider and the selects by clicking; what the page
// shows is read from the DOM (the facts table, the error panel, the time label, the curve plot).
// A screenshot of each state goes to test-results/viewer-ui-*.png.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import validator from 'gltf-validator';
import { haveChromium, launchChromium, serveStatic } from '../../scripts/browser.mjs';
import type { AnimJobInfo } from '../../src/index.js';
import { openFile } from '../../src/cli/open-file.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { referenceSample } from '../../src/reference/index.js';
import { loadSequence, type SequenceFile } from '../../src/sequencer/index.js';
import { createCore } from '../helpers/core.js';
import { LocalToModelJob } from '../../src/core/index.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { gltfExpected } from '../helpers/gltf-fixtures.js';
import { gltfpackFile } from '../helpers/producer-corpus.js';

const root = join(import.meta.dirname, '..', '..');
const results = join(root, 'test-results');
const example = (path: string) => join(root, 'examples', path);

type Drawn = { skinnedMeshes: number; morphs: Record<string, number[]>; worlds: Record<string, number[]> };
type Hook = {
  frames(): number;
  time(): number;
  canvas(): { differing: number; hash: string };
  pause(): void;
  setTime(t: number): void;
  drawn(): Drawn | null;
  layers(): { file: SequenceFile; time: number; jobs: AnimJobInfo[]; samples: number[]; counts: number[] } | null;
};
declare const window: { __animcore: Hook };

const enabled = haveChromium('viewer UI tests');

describe.skipIf(!enabled)('the viewer, driven through its UI', () => {
  let site: string;
  let server: { url: string; close(): Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    site = mkdtempSync(join(tmpdir(), 'animcore-viewer-ui-'));
    execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: root, stdio: 'inherit' });
    // Its own output folder, so that it can build while viewer.test.ts builds viewer/dist.
    execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'viewer', '--outDir', site, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    mkdirSync(results, { recursive: true });
    server = await serveStatic({ '/': site });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (site) rmSync(site, { recursive: true, force: true });
  });

  /** A page of the viewer, ready; it fails the test on any dialog (alert) or uncaught error. */
  async function viewer(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    page.on('dialog', (d) => {
      throw new Error(`the page opened a ${d.type()} dialog: ${d.message()}`);
    });
    const uncaught: Error[] = [];
    page.on('pageerror', (e) => uncaught.push(e));
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => window.__animcore !== undefined);
    (page as Page & { uncaught: Error[] }).uncaught = uncaught;
    return page;
  }

  /** The facts table as `{ row header: cell text }`. */
  async function facts(page: Page): Promise<Record<string, string>> {
    return page.$$eval('#facts tr', (rows) => Object.fromEntries(rows.map((r) => [r.querySelector('th')?.textContent ?? '', r.querySelector('td')?.textContent ?? ''])));
  }

  async function waitForFile(page: Page, name: string): Promise<void> {
    await page.waitForFunction((n) => document.querySelector('#facts th')?.textContent === 'file' && document.querySelector('#facts td')!.textContent!.startsWith(n), name);
  }

  /** Whether the picture changes within 400 ms (the frame loop runs and the clip plays). */
  async function playing(page: Page): Promise<boolean> {
    const a = await page.evaluate(() => window.__animcore.canvas());
    await page.waitForTimeout(400);
    const b = await page.evaluate(() => window.__animcore.canvas());
    return a.differing > 0.005 && a.hash !== b.hash;
  }

  it.skipIf(!haveFixtures('meteor') || !haveFixtures('nebula'))('opens a Meteor set through the file input: a facts table with paired, ignored and skinned meshes', async () => {
    const page = await viewer();
    try {
      const files = ['p0.amb', 'P0.bnc', 'P0.pos', 'p0.skc'].map((n) => fixturePath('meteor', n));
      await page.setInputFiles('#picker', [...files, fixturePath('nebula', 'eagle.n2')]);
      await waitForFile(page, 'p0.amb');
      const f = await facts(page);
      expect(f.file).toBe('p0.amb (of 5 files)');
      expect(f.paired).toBe('P0.bnc (bnc, found by name), P0.pos (pos, found by name), p0.skc (skc, found by name)');
      expect(f.ignored).toBe('eagle.n2');
      expect(f.meshes).toBe('0 rigid');
      expect(f['skinned meshes']).toMatch(/^1 \(.*\d+ vertices\)$/);
      expect(f.skeleton).toMatch(/^\d+ joints$/);
      // A table of facts, not a dump: the 470 unavailable poses fold into one row.
      expect(Object.keys(f).length).toBeLessThan(40);
      expect(f['info.unavailablePoses']).toMatch(/^470 items: /);
      expect(await page.isVisible('#facts details ol')).toBe(false);
      expect(await playing(page)).toBe(true);
      await page.screenshot({ path: join(results, 'viewer-ui-meteor-facts.png') });
    } finally {
      await page.close();
    }
  });

  it.skipIf(!haveFixtures('nebula'))('pairs a lone skeleton of another name by content, as the CLI does, and says so', async () => {
    const page = await viewer();
    try {
      await page.setInputFiles('#picker', ['kila_layoutA.nax2', 'kila.n2', 'eagle.n2'].map((n) => fixturePath('nebula', n)));
      await waitForFile(page, 'kila_layoutA.nax2');
      let f = await facts(page);
      expect(f.paired).toMatch(/^kila\.n2 \(skeleton, paired by content: .*eagle\.n2, kila\.n2.*\)$/);
      expect(f.ignored).toBe('eagle.n2');
      expect(f.skeleton).toBe('80 joints');
      expect(await playing(page)).toBe(true);
      await page.screenshot({ path: join(results, 'viewer-ui-content-pairing.png') });
      // No skeleton fits: none is used, and the facts say why.
      await page.setInputFiles('#picker', ['bouncingball.nax2', 'kila.n2', 'eagle.n2'].map((n) => fixturePath('nebula', n)));
      await waitForFile(page, 'bouncingball.nax2');
      f = await facts(page);
      expect(f.paired).toBe('none');
      expect(f.ignored).toBe('kila.n2, eagle.n2');
      expect(f.warnings).toMatch(/^pairing: of the 2 \.n2\/\.constants files beside bouncingball\.nax2 \(eagle\.n2, kila\.n2\) none fits/);
    } finally {
      await page.close();
    }
  });

  it('a bad file after a good one: the error panel names file, reason and byte offset, the good clip plays on, and the panel dismisses', async () => {
    const page = await viewer();
    try {
      await page.click('#examples a:text("nebula wave")');
      await waitForFile(page, 'wave.nax3');
      const broken = readFileSync(example('nebula/wave.nax3')).subarray(0, 40);
      await page.setInputFiles('#picker', { name: 'broken.nax3', mimeType: 'application/octet-stream', buffer: broken });
      await page.waitForSelector('.error');
      expect(await page.textContent('.error .file')).toBe('file broken.nax3');
      expect(await page.textContent('.error .reason')).toMatch(/^reason FormatError: nax3: /);
      expect(await page.textContent('.error .where')).toMatch(/^at byte \d+$/);
      expect((await facts(page)).file).toBe('wave.nax3');
      expect(await playing(page)).toBe(true);
      await page.screenshot({ path: join(results, 'viewer-ui-error.png') });
      await page.click('.error .dismiss');
      expect(await page.$$('.error')).toHaveLength(0);
      // A file of no format at all, alone: the same panel, the same clip on screen.
      await page.setInputFiles('#picker', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an animation') });
      await page.waitForSelector('.error');
      expect(await page.textContent('.error .file')).toBe('file notes.txt');
      expect(await playing(page)).toBe(true);
      expect((page as Page & { uncaught: Error[] }).uncaught).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('opens files dropped on the page, an AAF scene with its animation', async () => {
    const page = await viewer();
    try {
      const files = ['teapot-man.anim.aaf', 'teapot-man.scene.aaf'].map((name) => ({ name, bytes: Array.from(readFileSync(example(`aaf/${name}`))) }));
      await page.evaluate((list) => {
        const data = new DataTransfer();
        for (const f of list) data.items.add(new File([new Uint8Array(f.bytes)], f.name));
        document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, files);
      await waitForFile(page, 'teapot-man.scene.aaf');
      const f = await facts(page);
      expect(f.paired).toBe('teapot-man.anim.aaf (animation, found by name)');
      expect(f.ignored).toBe('none');
      expect(f.meshes).toMatch(/^[1-9]\d* rigid$/);
      expect(await playing(page)).toBe(true);
      await page.screenshot({ path: join(results, 'viewer-ui-drop.png') });
    } finally {
      await page.close();
    }
  });

  it.skipIf(!haveFixtures('nebula'))('pause, scrub, play, and the plotted curve kept across clips, by clicking', async () => {
    const page = await viewer();
    try {
      await page.setInputFiles('#picker', ['Unit_Footman.nax3', 'Unit_Footman.constants'].map((n) => fixturePath('nebula', n)));
      await waitForFile(page, 'Unit_Footman.nax3');
      await page.click('#play');
      expect(await page.textContent('#play')).toBe('Play');
      const frames = await page.evaluate(() => window.__animcore.frames());
      await page.waitForFunction((f) => window.__animcore.frames() > f + 2, frames); // the label has caught up
      const paused = await page.textContent('#time');
      await page.waitForTimeout(300);
      expect(await page.textContent('#time')).toBe(paused);
      // The scrub slider at 3/4 of its width: 3/4 of walk's 0.8 s.
      const box = (await page.locator('#scrub').boundingBox())!;
      await page.mouse.click(box.x + 0.75 * box.width, box.y + box.height / 2);
      // Where a click lands on a range input depends on its thumb's width: near 3/4, and the time is what the slider says.
      const fraction = Number(await page.$eval('#scrub', (e) => (e as HTMLInputElement).value));
      expect(Math.abs(fraction - 0.75)).toBeLessThan(0.06);
      const scrubbed = await page.evaluate(() => window.__animcore.time());
      expect(Math.abs(scrubbed - fraction * 0.8)).toBeLessThan(1e-3);
      // The label follows on the next frame.
      await page.waitForFunction((t) => document.getElementById('time')!.textContent === `${t.toFixed(3)} s / 0.800 s`, scrubbed);
      // A rotation curve plotted, then another clip: the same joint's rotation stays plotted.
      const option = await page.$$eval('#curves option', (os) => os.find((o) => / rotation \(rotation/.test(o.textContent ?? '') && !o.textContent!.startsWith('0:'))!.textContent!);
      await page.selectOption('#curves', { label: option });
      const joint = option.split(' ')[1]!;
      const idle = await page.$$eval('#clips option', (os) => (os.find((o) => o.textContent!.startsWith('idle')) as HTMLOptionElement).value);
      await page.selectOption('#clips', idle);
      const kept = await page.$eval('#curves', (s) => (s as HTMLSelectElement).selectedOptions[0]!.textContent!);
      expect(kept.split(' ').slice(1, 3)).toEqual([joint, 'rotation']);
      // The curve plot has its legend: x y z w in the lane colours (top right of the canvas).
      const legend = await page.$eval('#curve', (element) => {
        const c = element as HTMLCanvasElement;
        const g = c.getContext('2d')!;
        return [0, 1, 2, 3].map((l) => Array.from(g.getImageData(c.width - 22 * (4 - l) - 6 + 4, 9, 1, 1).data.slice(0, 3)));
      });
      expect(legend).toEqual([[0xff, 0x55, 0x66], [0x55, 0xdd, 0x77], [0x55, 0x99, 0xff], [0xdd, 0xdd, 0x55]]);
      await page.click('#play');
      expect(await page.textContent('#play')).toBe('Pause');
      expect(await playing(page)).toBe(true);
      await page.screenshot({ path: join(results, 'viewer-ui-curve.png') });
    } finally {
      await page.close();
    }
  });

  /** What the page draws at `time` seconds, paused, after the frame loop has drawn it. */
  async function drawnAt(page: Page, time: number): Promise<Drawn> {
    await page.evaluate((t) => {
      window.__animcore.pause();
      window.__animcore.setTime(t);
    }, time);
    const frames = await page.evaluate(() => window.__animcore.frames());
    await page.waitForFunction((f) => window.__animcore.frames() > f + 1, frames);
    return (await page.evaluate(() => window.__animcore.drawn()))!;
  }

  it.skipIf(!haveFixtures('gltf'))('draws glTF as three.js reads it: CesiumMan skinned and posed as expected.json, the morph cube (.glb, and .gltf with its .bin) weighted, gltfpack -cc output decoded', async () => {
    const expected = gltfExpected().files;
    const page = await viewer();
    try {
      const dropFiles = async (files: { name: string; bytes: Uint8Array }[]) =>
        page.evaluate(
          (list) => {
            const data = new DataTransfer();
            for (const f of list) data.items.add(new File([new Uint8Array(f.bytes)], f.name));
            document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
          },
          files.map((f) => ({ name: f.name, bytes: Array.from(f.bytes) })),
        );
      const drop = async (names: string[]) => dropFiles(names.map((n) => ({ name: n.split('/').pop()!, bytes: new Uint8Array(readFileSync(fixturePath('gltf', n))) })));
      await drop(['CesiumMan.glb']);
      await waitForFile(page, 'CesiumMan.glb');
      expect((await facts(page))['skinned meshes']).toMatch(/^1 \(/);
      expect(await playing(page)).toBe(true);
      await page.screenshot({ path: join(results, 'viewer-ui-gltf-skinned.png') });
      // The joints three.js skins with stand where expected.json's model space puts them.
      for (const at of expected['CesiumMan.glb']!.animations[0]!.modelSpace) {
        const drawn = await drawnAt(page, at.t);
        expect(drawn.skinnedMeshes).toBe(1);
        for (const node of at.nodes as (typeof at.nodes[number] & { name: string })[]) {
          const world = drawn.worlds[node.name]!;
          node.world.forEach((v, k) => expect(Math.abs(world[k]! - v), `${node.name} at ${at.t} [${k}]`).toBeLessThan(1e-3));
        }
      }
      for (const names of [['AnimatedMorphCube.glb'], ['AnimatedMorphCube-Quantized/AnimatedMorphCube.gltf', 'AnimatedMorphCube-Quantized/AnimatedMorphCube.bin']]) {
        const file = names[0]!;
        await drop(names);
        await waitForFile(page, file.split('/').pop()!);
        expect(await page.$$('.error')).toHaveLength(0);
        if (names.length > 1) expect((await facts(page)).paired).toBe('AnimatedMorphCube.bin (named by AnimatedMorphCube.gltf)');
        for (const sample of expected[file]!.animations[0]!.samples) {
          const morphs = Object.values((await drawnAt(page, sample.t)).morphs);
          expect(morphs.length).toBeGreaterThan(0);
          for (const influences of morphs) sample.values[0]!.forEach((w, k) => expect(Math.abs(influences[k]! - w), `${file} at ${sample.t}`).toBeLessThan(1e-4));
        }
      }
      await page.evaluate(() => window.__animcore.setTime(1.4));
      await page.screenshot({ path: join(results, 'viewer-ui-gltf-morph.png') });
      // gltfpack -cc output (meshopt-compressed views): drawn by GLTFLoader with the decoder, skinned.
      const packed = await gltfpackFile('CesiumMan.glb', ['-cc']);
      await dropFiles([{ name: 'CesiumMan-cc.glb', bytes: packed.files.get(packed.main)! }]);
      await waitForFile(page, 'CesiumMan-cc.glb');
      expect(await page.$$('.error')).toHaveLength(0);
      expect((await facts(page))['skinned meshes']).toMatch(/^1 \(/);
      expect((page as Page & { uncaught: Error[] }).uncaught).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('lists the MRTK example among the examples and opens it by click', async () => {
    const page = await viewer();
    try {
      expect(await page.$$eval('#examples a', (as) => as.map((a) => a.textContent))).toEqual(['nebula wave', 'AAF teapot-man', 'MRTK hand wave']);
      await page.click('#examples a:text("MRTK hand wave")');
      await waitForFile(page, 'hand-wave.bin');
      const f = await facts(page);
      expect(f.format).toMatch(/^mrtk: /);
      expect(f.skeleton).toBe('none (camera and hands)');
      expect(await playing(page)).toBe(true);
      await page.screenshot({ path: join(results, 'viewer-ui-mrtk.png') });
    } finally {
      await page.close();
    }
  });

  it.skipIf(!haveFixtures('nebula'))('layers: clips added as jobs (track, weight, fades, mask by joint subtree, additive), weights and pose live, the blend exported', async () => {
    const page = await viewer();
    const footman = ['Unit_Footman.nax3', 'Unit_Footman.constants'].map((n) => fixturePath('nebula', n));
    /** Sets the scrub slider as a drag does (the page's time: fraction × the length shown). */
    const scrub = (fraction: number) => page.$eval('#scrub', (e, f) => {
      (e as HTMLInputElement).value = String(f);
      e.dispatchEvent(new Event('input'));
    }, fraction);
    /** Waits for the frame that shows the layers at `seconds` (the table is written on that frame too). */
    const shown = (seconds: number) => page.waitForFunction((t) => document.getElementById('time')!.textContent === `layers ${t.toFixed(3)} s / 10.000 s`, seconds);
    /** The jobs table, once it shows `rows` rows: clip, track, mode, state, weight. */
    const table = async (rows: number) => {
      await page.waitForFunction((n) => document.querySelectorAll('#layer-jobs tr').length === n + 1, rows);
      return page.$$eval('#layer-jobs tr', (trs) => trs.slice(1).map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent!.trim())));
    };
    const addLayer = async (fields: { clip: string; track?: string; weight?: string; loops?: string; fadeIn?: string; fadeOut?: string; mask?: string; additive?: boolean }) => {
      await page.selectOption('#layer-clip', { label: fields.clip });
      await page.fill('#layer-track', fields.track ?? '0');
      await page.fill('#layer-weight', fields.weight ?? '1');
      await page.fill('#layer-loops', fields.loops ?? '0');
      await page.fill('#layer-fade-in', fields.fadeIn ?? '0');
      await page.fill('#layer-fade-out', fields.fadeOut ?? '0');
      await page.selectOption('#layer-mask', fields.mask ?? '');
      await page.setChecked('#layer-additive', fields.additive === true);
      await page.click('#layer-add');
    };
    try {
      await page.setInputFiles('#picker', footman);
      await waitForFile(page, 'Unit_Footman.nax3');
      expect(await page.isVisible('#layers')).toBe(true);
      await page.click('#play'); // pause: the tests moves time with the slider
      await scrub(0);
      // Walk until intercepted (fade-out 0.4 s); layers play 10 s before starting over.
      await addLayer({ clip: 'walk', fadeOut: '0.4' });
      await scrub(0.1);
      await page.waitForFunction(() => document.getElementById('time')!.textContent === 'layers 1.000 s / 10.000 s');
      // Charge on the same track at 1 s: walk fades out from now while charge fades in.
      await addLayer({ clip: 'charge', fadeIn: '0.4' });
      await scrub(0.12);
      await shown(1.2);
      expect(await table(2)).toEqual([
        ['walk', '0', 'normal', 'stopping', '0.500'],
        ['charge', '0', 'normal', 'active', '0.500'],
      ]);
      // Taunt on the upper body (Chest and below) on track 1, and walk as an additive layer at half weight.
      await addLayer({ clip: 'taunt', track: '1', fadeIn: '0.2', loops: '1', mask: 'Chest' });
      await addLayer({ clip: 'walk', track: '2', weight: '0.5', additive: true });
      await scrub(0.13);
      await shown(1.3);
      expect(await table(4)).toEqual([
        ['walk', '0', 'normal', 'stopping', '0.250'],
        ['charge', '0', 'normal', 'active', '0.750'],
        ['taunt', '1', 'normal', 'active', '0.500'],
        ['walk', '2', 'additive', 'active', '0.500'],
      ]);
      // The pose the page shows is the sequence file's result at that time, as Node computes it.
      const layers = (await page.evaluate(() => window.__animcore.layers()))!;
      expect(layers.time).toBeCloseTo(1.3, 12);
      expect(layers.file).toEqual({
        rule: 'priority',
        masks: { Chest: { joints: ['Chest'], children: true } },
        jobs: [
          { clip: 'walk', track: 0, at: 0, loops: 0, fadeIn: 0, fadeOut: 0.4, weight: 1 },
          { clip: 'charge', track: 0, at: 1, loops: 0, fadeIn: 0.4, fadeOut: 0, weight: 1 },
          { clip: 'taunt', track: 1, at: expect.closeTo(1.2, 12), loops: 1, fadeIn: 0.2, fadeOut: 0, weight: 1, mask: 'Chest' },
          { clip: 'walk', track: 2, at: expect.closeTo(1.2, 12), loops: 0, fadeIn: 0, fadeOut: 0, weight: 0.5, mode: 'additive' },
        ],
      });
      const core = await createCore('simd');
      const resource = (await openFile(footman[0]!, { companions: { skeleton: footman[1]! } })).resource;
      const seq = loadSequence(core, resource, layers.file);
      const want = seq.update(layers.time);
      expect(layers.counts).toEqual(Array.from(want.counts));
      layers.samples.forEach((v, i) => expect(Math.abs(v - want.samples[i]!), `float ${i}`).toBeLessThan(1e-6));
      await page.screenshot({ path: join(results, 'viewer-ui-layers.png') });

      // The sequence file, and the blend baked as glb (infinite jobs: from 0 to now, 30 keys/s).
      const [json] = await Promise.all([page.waitForEvent('download'), page.click('#layer-sequence')]);
      expect(json.suggestedFilename()).toBe('Unit_Footman-sequence.json');
      expect(JSON.parse(readFileSync((await json.path())!, 'utf8'))).toEqual(layers.file);
      const [glb] = await Promise.all([page.waitForEvent('download'), page.click('#layer-export')]);
      expect(glb.suggestedFilename()).toBe('Unit_Footman-sequence.glb');
      const bytes = new Uint8Array(readFileSync((await glb.path())!));
      const report = await validator.validateBytes(bytes);
      expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
      const exported = await openGltf({ gltf: bytes });
      expect(exported.clips.map((c) => c.name)).toEqual(['sequence']);
      const clip = exported.clips[0]!;
      expect(clip.duration).toBeCloseTo(1.3, 5);
      // Its keys (reduced within 1e-4 and 0.1°) against the sequence at a key time.
      const at = seq.update(1.3 - 4 / 30);
      const out = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
      referenceSample(clip, 1.3 - 4 / 30, out, { rotation: 'slerp' });
      let compared = 0;
      clip.curves.forEach((c, i) => {
        const j = seq.layout.indexOf(c.target.joint, c.target.property);
        if (j < 0 || out.counts[i] === 0) return;
        const a = Array.from(out.samples.subarray(4 * i, 4 * i + 3 + (c.curveType === 'rotation' ? 1 : 0)));
        const b = Array.from(at.samples.subarray(4 * j, 4 * j + a.length));
        const s = c.curveType === 'rotation' && a.reduce((d, v, k) => d + v * b[k]!, 0) < 0 ? -1 : 1;
        a.forEach((v, k) => expect(Math.abs(v - s * b[k]!), `${c.target.joint}.${c.target.property}[${k}]`).toBeLessThan(2e-3 * Math.max(1, Math.abs(b[k]!))));
        compared++;
      });
      expect(compared).toBeGreaterThan(20);
      seq.dispose();
      resource.dispose();

      // Clear: back to the clip.
      await page.click('#layer-clear');
      await page.waitForFunction(() => document.querySelectorAll('#layer-jobs tr').length === 0);
      await page.waitForFunction(() => !document.getElementById('time')!.textContent!.startsWith('layers'));
      expect((page as Page & { uncaught: Error[] }).uncaught).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it.skipIf(!haveFixtures('gltf'))('layers on a glTF drawn by GLTFLoader: CesiumMan cross-fading into itself under a masked additive layer, its scene posed as Node composes the blend, exported with its mesh', async () => {
    const page = await viewer();
    const file = fixturePath('gltf', 'CesiumMan.glb');
    const scrub = (fraction: number) => page.$eval('#scrub', (e, f) => {
      (e as HTMLInputElement).value = String(f);
      e.dispatchEvent(new Event('input'));
    }, fraction);
    const add = async (fields: { track: string; fadeIn: string; fadeOut: string; weight?: string; mask?: number; additive?: boolean }) => {
      await page.selectOption('#layer-clip', { index: 0 });
      await page.fill('#layer-track', fields.track);
      await page.fill('#layer-weight', fields.weight ?? '1');
      await page.fill('#layer-loops', '0');
      await page.fill('#layer-fade-in', fields.fadeIn);
      await page.fill('#layer-fade-out', fields.fadeOut);
      await page.selectOption('#layer-mask', { index: fields.mask ?? 0 });
      await page.setChecked('#layer-additive', fields.additive === true);
      await page.click('#layer-add');
    };
    try {
      await page.setInputFiles('#picker', [file]);
      await waitForFile(page, 'CesiumMan.glb');
      expect(await page.isVisible('#layers')).toBe(true);
      await page.click('#play');
      await scrub(0);
      await add({ track: '0', fadeIn: '0', fadeOut: '0.4' });
      await scrub(0.1);
      await add({ track: '0', fadeIn: '0.4', fadeOut: '0' });
      await add({ track: '1', fadeIn: '0', fadeOut: '0', weight: '0.5', mask: 3, additive: true });
      await scrub(0.12);
      await page.waitForFunction(() => document.getElementById('time')!.textContent!.startsWith('layers 1.200 s'));
      const layers = (await page.evaluate(() => window.__animcore.layers()))!;
      expect(layers.jobs.map((j) => [j.track, j.mode, j.state, j.weight.toFixed(3)])).toEqual([
        [0, 'normal', 'stopping', '0.500'],
        [0, 'normal', 'active', '0.500'],
        [1, 'additive', 'active', '0.500'],
      ]);
      expect(Object.keys(layers.file.masks!)).toHaveLength(1);
      // Node: the same file on openGltf's reading of the bytes, composed into model space.
      const core = await createCore('simd');
      const resource = await openGltf({ gltf: new Uint8Array(readFileSync(file)) });
      const seq = loadSequence(core, resource, layers.file);
      const model = new LocalToModelJob(core, seq.layout.binding());
      const want = seq.update(layers.time, { model });
      layers.samples.forEach((v, i) => expect(Math.abs(v - want.samples[i]!), `float ${i}`).toBeLessThan(1e-6));
      const drawn = (await page.evaluate(() => window.__animcore.drawn()))!;
      let compared = 0;
      resource.skeleton!.joints.forEach((joint, j) => {
        const world = drawn.worlds[joint.name];
        if (!world) return;
        for (let k = 0; k < 16; k++) expect(Math.abs(world[k]! - model.matrices[16 * j + k]!), `${joint.name} [${k}]`).toBeLessThan(1e-4 * Math.max(1, Math.abs(model.matrices[16 * j + k]!)));
        compared++;
      });
      expect(compared).toBeGreaterThan(15);
      await page.screenshot({ path: join(results, 'viewer-ui-layers-gltf.png') });
      // The blend exported into the file's own document: its skinned mesh kept, one animation.
      const [glb] = await Promise.all([page.waitForEvent('download'), page.click('#layer-export')]);
      const bytes = new Uint8Array(readFileSync((await glb.path())!));
      expect((await validator.validateBytes(bytes)).issues.messages.filter((m) => m.severity === 0)).toEqual([]);
      const exported = await openGltf({ gltf: bytes });
      expect(exported.clips.map((c) => c.name)).toEqual(['sequence']);
      expect(exported.info).toMatchObject({ meshes: 1, skins: 1, animations: 1 });
      model.dispose();
      seq.dispose();
      expect((page as Page & { uncaught: Error[] }).uncaught).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
