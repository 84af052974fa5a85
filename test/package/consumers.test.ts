// The package as users install it (`npm pack`, then `npm ci --offline` into fresh folders; see
// test/helpers/packed-package.ts): what the install brings, an ESM and a CommonJS app using the
// library and `animcore/three`, TypeScript apps compiled against the shipped declarations, and
// the `animcore` command with its bundled dependencies (piscina's worker included). The Vite app
// is in test/browser/consumer.test.ts; moduleResolution bundler is what test/package/readme.test.ts
// compiles the README with.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileSet } from 'animcore';
import { createCore } from '../helpers/core.js';
import { installPacked, packAnimcore } from '../helpers/packed-package.js';

const root = join(import.meta.dirname, '..', '..');
const EXAMPLES = ['aaf/teapot-man.scene.aaf', 'aaf/teapot-man.anim.aaf', 'nebula/wave.nax3', 'mrtk/hand-wave.bin'];

/** The same program as ESM and CommonJS: open the AAF example set, sample, export, drive three.js bones. */
const PROGRAM = (imports: string) => `${imports}
const files = ['teapot-man.scene.aaf', 'teapot-man.anim.aaf'].map((name) => ({ name, bytes: new Uint8Array(readFileSync(name)) }));
(async () => {
  const set = await openFileSet(files);
  const core = await AnimCore.create();
  core.load(set.resource);
  const clip = set.resource.clip(0);
  const buffer = core.createSampleBuffer(clip);
  core.sampler.sample(clip, 0.5, buffer);
  const glb = await writeGlb(toGltfDocument(core, set.resource).document);
  const bones = toThreeSkeleton(set.resource.skeleton);
  const player = new SkeletonPlayer(core, { clip, skeleton: set.resource.skeleton, target: bones });
  player.update(0.5);
  let usageError = false;
  try { set.resource.clip('no such clip'); } catch (e) { usageError = e instanceof UsageError; }
  console.log(JSON.stringify({ simd: core.simd, main: set.main, companions: set.companions.map((c) => c.file), samples: Array.from(buffer.samples.subarray(0, 8)), glb: new TextDecoder().decode(glb.subarray(0, 4)), bones: bones.bones.length, usageError }));
})();
`;

const ESM = PROGRAM(`import { readFileSync } from 'node:fs';
import { AnimCore, openFileSet, toGltfDocument, UsageError, writeGlb } from 'animcore';
import { SkeletonPlayer, toThreeSkeleton } from 'animcore/three';`);
const CJS = PROGRAM(`const { readFileSync } = require('node:fs');
const { AnimCore, openFileSet, toGltfDocument, UsageError, writeGlb } = require('animcore');
const { SkeletonPlayer, toThreeSkeleton } = require('animcore/three');`);

/** A TypeScript user's program: strict, no @types/node (a browser app), both entries. */
const TS_PROGRAM = `import { AnimCore, type NamedBytes, openFileSet, toGltfDocument, writeGlb, type OpenedFileSet } from 'animcore';
import { SkeletonPlayer, toThreeSkeleton } from 'animcore/three';

export async function open(files: NamedBytes[]): Promise<{ set: OpenedFileSet; glb: Uint8Array; pose: Float32Array }> {
  const core = await AnimCore.create({ build: 'auto' });
  const set = await openFileSet(files);
  core.load(set.resource);
  const clip = set.resource.clip(0);
  const buffer = core.createSampleBuffer(clip);
  core.sampler.sample(clip, 0.5, buffer, { rotation: 'slerp' });
  const skeleton = set.resource.skeleton;
  if (skeleton) new SkeletonPlayer(core, { clip, skeleton, target: toThreeSkeleton(skeleton) }).update(0.5);
  const { document } = toGltfDocument(core, set.resource, { fps: 30, interpolation: 'linear' });
  return { set, glb: await writeGlb(document), pose: buffer.samples.slice() };
}
`;

describe('the packed package in fresh projects', () => {
  let dir: string;
  let tarball: string;
  let esm: string;
  let cjs: string;
  let installLog: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'animcore-consumers-'));
    tarball = packAnimcore(dir);
    esm = join(dir, 'esm');
    cjs = join(dir, 'cjs');
    installLog = installPacked(esm, tarball, 'module', ['three', '@types/three']);
    installPacked(cjs, tarball, 'commonjs', ['three']);
    for (const app of [esm, cjs]) for (const e of EXAMPLES) copyFileSync(join(root, 'examples', e), join(app, e.split('/').pop()!));
  }, 300_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs at most 5 packages, none of them CLI-only or native', () => {
    const added = /added (\d+) packages?/.exec(installLog);
    expect(added, installLog).not.toBeNull();
    const count = Number(added![1]);
    expect(count).toBeLessThanOrEqual(5);
    const installed = readdirSync(join(esm, 'node_modules')).flatMap((n) => (n.startsWith('@') ? readdirSync(join(esm, 'node_modules', n)).map((m) => `${n}/${m}`) : n.startsWith('.') ? [] : [n]));
    const linked = ['three', '@types/three'];
    expect(installed.filter((n) => !linked.includes(n)).sort()).toEqual(['@gltf-transform/core', 'animcore', 'property-graph', 'wasm-feature-detect']);
    const pkg = JSON.parse(readFileSync(join(esm, 'node_modules', 'animcore', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@gltf-transform/core', 'wasm-feature-detect']);
  });

  it('ships LICENSE, CHANGELOG.md, the bundled packages\' licences and named declaration files', () => {
    const pkg = join(esm, 'node_modules', 'animcore');
    expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(existsSync(join(pkg, 'CHANGELOG.md'))).toBe(true);
    const licences = readFileSync(join(pkg, 'dist', 'THIRD_PARTY_LICENSES.md'), 'utf8');
    for (const name of ['commander', 'cli-progress', 'piscina', 'tinyglobby', 'fast-xml-parser']) expect(licences).toContain(`## ${name} `);
    const declarations = readdirSync(join(pkg, 'dist')).filter((f) => /\.d\.c?ts$/.test(f)).sort();
    expect(declarations).toEqual(['index.d.cts', 'index.d.ts', 'three.d.cts', 'three.d.ts']);
  });

  it('runs the same program as ESM and as CommonJS, with the values of the sources', async () => {
    const run = (app: string, file: string, code: string) => {
      writeFileSync(join(app, file), code);
      return JSON.parse(execFileSync(process.execPath, [file], { cwd: app, encoding: 'utf8' })) as { samples: number[]; [k: string]: unknown };
    };
    const a = run(esm, 'main.mjs', ESM);
    const b = run(cjs, 'main.cjs', CJS);
    expect(b).toEqual(a);
    expect(a).toMatchObject({ simd: true, main: 'teapot-man.scene.aaf', companions: ['teapot-man.anim.aaf'], glb: 'glTF', usageError: true });
    const set = await openFileSet(['teapot-man.scene.aaf', 'teapot-man.anim.aaf'].map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(root, 'examples', 'aaf', name))) })));
    const core = await createCore('simd');
    core.load(set.resource);
    const buffer = core.createSampleBuffer(set.resource.clip(0));
    core.sampler.sample(set.resource.clip(0), 0.5, buffer);
    expect(a.samples).toEqual(Array.from(buffer.samples.subarray(0, 8)));
    expect(a.bones).toBe(set.resource.skeleton!.size);
  });

  it.each([
    ['ESM, moduleResolution nodenext', 'esm', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['CommonJS, moduleResolution nodenext', 'cjs', { module: 'nodenext', moduleResolution: 'nodenext' }],
  ] as const)('compiles a strict TypeScript program against the shipped declarations (%s)', (_what, which, options) => {
    const app = which === 'esm' ? esm : cjs;
    if (which === 'cjs' && !existsSync(join(app, 'node_modules', '@types', 'three'))) {
      mkdirSync(join(app, 'node_modules', '@types'), { recursive: true });
      execFileSync('ln', ['-s', join(root, 'node_modules', '@types', 'three'), join(app, 'node_modules', '@types', 'three')]);
    }
    const project = join(app, `ts-${options.moduleResolution}`);
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'main.ts'), TS_PROGRAM);
    // The ESM program also checks the declaration files themselves (no skipLibCheck; Float16Array,
    // named by @gltf-transform/core's declarations, comes from lib esnext). The .d.cts files have
    // the same text, so the CommonJS program only checks that `require` resolves to them and the
    // program against them (skipLibCheck: checking @types/three twice is the slow part).
    const skipLibCheck = which === 'cjs';
    const compilerOptions = { ...options, target: 'es2022', lib: ['es2022', 'dom', 'esnext'], strict: true, noUncheckedIndexedAccess: true, noEmit: true, types: [], skipLibCheck };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['main.ts'] }));
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project, encoding: 'utf8' });
  });

  it('runs the installed `animcore` command, piscina\'s bundled worker included (--jobs 2)', () => {
    const bin = join(esm, 'node_modules', '.bin', 'animcore');
    expect(existsSync(bin)).toBe(true);
    const info = JSON.parse(execFileSync(bin, ['info', 'wave.nax3', '--json'], { cwd: esm, encoding: 'utf8' })) as { format: string };
    expect(info.format).toBe('nax3');
    execFileSync(bin, ['resample', 'wave.nax3', 'hand-wave.bin', 'teapot-man.scene.aaf', '--fps', '30', '--to', 'glb', '--out', 'out', '--jobs', '2'], { cwd: esm, encoding: 'utf8', stdio: 'pipe' });
    for (const name of ['wave.glb', 'hand-wave.glb', 'teapot-man.scene.glb']) expect(statSync(join(esm, 'out', name)).size).toBeGreaterThan(0);
    expect(existsSync(join(esm, 'node_modules', 'piscina'))).toBe(false);
  });
});
