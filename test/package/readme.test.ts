// Every TypeScript block of the README compiles with strict TypeScript against the built package
// (`animcore` resolves to this package's dist/ by its own name, as in an app), and every block
// that is not a browser file runs in Node, in a folder holding the fixture files it names. The
// browser files (blocks that start with `// <name>.ts`: the Web Worker example) run in Chromium
// in test/browser/consumer.test.ts.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { readmeBlocks } from '../helpers/readme-blocks.js';

const root = join(import.meta.dirname, '..', '..');
// Inside the package, so that `animcore` resolves to the package itself (dist/).
const out = join(root, 'test-results', 'readme');

/** Fixture files the README's examples open, by fixture folder. */
const FILES = { nebula: ['Unit_Footman.nax3', 'Unit_Footman.constants'], meteor: ['p0.amb', 'P0.bnc', 'P0.pos', 'p0.skc'], gltf: ['CesiumMan.glb'] };

/** What a block prints, for the blocks whose output the README states. */
const PRINTS: { block: string; stdout: string }[] = [
  { block: 'createSampleMany', stdout: 'true\n' },
  { block: "openFile('p0.amb')", stdout: "meteor [ 'P0.bnc', 'P0.pos', 'p0.skc' ]\nUnit_Footman.nax3 [ 'Unit_Footman.constants' ] [ 'p0.skc' ]\n" },
];

const blocks = readmeBlocks(join(root, 'README.md'));

describe('README code blocks', () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = blocks.map((b, i) => {
    const path = join(out, b.file ?? `block-${i + 1}.ts`);
    writeFileSync(path, b.code);
    return path;
  });

  it('has TypeScript blocks, browser files among them', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    expect(blocks.filter((b) => b.file).map((b) => b.file)).toEqual(['sample-worker.ts', 'main.ts']);
  });

  it('compiles every block with strict TypeScript against the built package', () => {
    execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: root, stdio: 'inherit' });
    const program = ts.createProgram(files, {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      moduleDetection: ts.ModuleDetectionKind.Force,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      // @gltf-transform/core's declarations name Float16Array (lib esnext); apps skip lib checks as this repo does.
      skipLibCheck: true,
      typeRoots: [join(root, 'node_modules', '@types')],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.slice(out.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} ` : '';
      return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
    });
    expect(diagnostics).toEqual([]);
  });

  const runnable = blocks.map((b, i) => ({ ...b, index: i })).filter((b) => !b.file);
  /** What each block printed when run (by block index). */
  const printed = new Map<number, string>();
  const enabled = haveFixtures('nebula') && haveFixtures('meteor');
  let cwd: string | undefined;
  afterAll(() => {
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it.skipIf(!enabled).each(runnable.map((b) => [b.line, b] as const))('runs the block at README line %i in Node', (_line, block) => {
    if (!cwd) {
      cwd = mkdtempSync(join(tmpdir(), 'animcore-readme-'));
      for (const [format, names] of Object.entries(FILES)) for (const name of names) copyFileSync(fixturePath(format, name), join(cwd, name));
    }
    const js = ts.transpileModule(block.code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const script = join(out, `block-${block.index + 1}.mjs`);
    writeFileSync(script, js);
    const stdout = execFileSync(process.execPath, [script], { cwd, encoding: 'utf8' });
    printed.set(block.index, stdout);
    const expected = PRINTS.find((p) => block.code.includes(p.block));
    if (expected) expect(stdout).toBe(expected.stdout);
    // The export examples write their files.
    const written = [...block.code.matchAll(/writeFileSync\('([^']+)'/g)].map((m) => m[1]!);
    if (/\bwriteGltf\(/.test(block.code)) written.push('Unit_Footman.gltf', 'Unit_Footman.bin'); // not rewriteGltf(
    for (const name of written) expect(existsSync(join(cwd, name)) && statSync(join(cwd, name)).size > 0, name).toBe(true);
  });

  // Layered playback: the sequence file is the TypeScript example's equivalent. The command the
  // README gives for it prints, at 1.15 s, the Hip rotation the example logs first.
  it.skipIf(!enabled)("runs the Layered playback sequence file with the README's command: the TypeScript example's pose", () => {
    const json = readmeBlocks(join(root, 'README.md'), 'json').filter((b) => b.section === 'Layered playback');
    expect(json).toHaveLength(1);
    const example = runnable.find((b) => b.section === 'Layered playback' && b.code.includes('new AnimSequencer'))!;
    const logged = printed.get(example.index);
    expect(logged, 'the example ran first').toBeDefined();
    // Node prints the Float32Array sample as `[ x, y, z, w ]` (possibly over several lines).
    const want = JSON.parse(logged!.slice(logged!.indexOf('['), logged!.indexOf(']') + 1)) as number[];
    expect(want).toHaveLength(4);
    writeFileSync(join(cwd!, 'walk-run.json'), json[0]!.code);
    const command = /`animcore (sample [^`]*--sequence walk-run\.json[^`]*)`/.exec(readFileSync(join(root, 'README.md'), 'utf8'))![1]!.split(' ');
    const out = JSON.parse(execFileSync(process.execPath, [join(root, 'dist', 'cli.js'), ...command, '--json'], { cwd, encoding: 'utf8' }));
    const hip = out.curves.find((c: { target: { joint: string; property: string } }) => c.target.joint === 'Hip' && c.target.property === 'rotation');
    (hip.value as number[]).forEach((v, k) => expect(v).toBeCloseTo(want[k]!, 5));
  });
});
