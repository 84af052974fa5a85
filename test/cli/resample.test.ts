import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { animcore as run, CLI, tmp, tree } from '../helpers/cli.js';
import { EXAMPLES_DIR } from '../helpers/export-inputs.js';
import { FIXTURES } from '../helpers/fixtures.js';

/** Runs the built `animcore` binary as a user would. */
const animcore = (...args: string[]) => run(args);

const haveFixtures = existsSync(FIXTURES);
if (!haveFixtures) {
  if (process.env.CI === 'true') throw new Error(`fixtures not found at ${FIXTURES}`);
  console.warn(`fixture batches skipped: fixtures not found at ${FIXTURES} (set ANIMCORE_FIXTURES)`);
}

describe('animcore resample (built binary)', () => {
  let out1: string;
  let run1: ReturnType<typeof animcore>;
  const sources = haveFixtures ? [FIXTURES, EXAMPLES_DIR] : [EXAMPLES_DIR];

  beforeAll(() => {
    expect(existsSync(CLI), 'dist/cli.js: run npm run build (npm test does)').toBe(true);
    out1 = tmp('out1');
    run1 = animcore('resample', ...sources, '--fps', '60', '--out', out1);
  });

  it('converts every animation of the fixtures and examples, mirroring sub-folders, and prints the summary', async () => {
    expect(run1.status, run1.stdout + run1.stderr).toBe(0);
    const files = [...tree(out1).keys()].sort();
    expect(files).toContain(join('aaf', 'teapot-man.scene.glb'));
    expect(files).toContain(join('nebula', 'wave.glb'));
    expect(files).toContain(join('mrtk', 'hand-wave.glb'));
    expect(files.some((f) => f.includes('teapot-man.anim'))).toBe(false); // a companion of the scene
    if (haveFixtures) {
      expect(files).toEqual(
        expect.arrayContaining([join('meteor', 'p0.glb'), join('nebula', 'Unit_Footman.glb'), join('nebula', 'eagle.nax2.glb'), join('nebula', 'eagle.nanim2.glb')]),
      );
    }
    expect(run1.stdout).toMatch(/^files: (\d+) of \1 converted, 0 failed/m);
    expect(run1.stdout).toMatch(/^clips: \d+$/m);
    expect(run1.stdout).toMatch(/^keys: \d+ read from the sources, \d+ written$/m);
    expect(run1.stdout).toMatch(/^bytes: [\d.]+ k?M?B in, [\d.]+ k?M?B out$/m);
    expect(run1.stdout).toMatch(/^seconds: [\d.]+$/m);
    const doc = await new NodeIO().read(join(out1, 'nebula', 'wave.glb'));
    expect(doc.getRoot().listAnimations().map((a) => a.getName())).toEqual(['wave']);
  });

  it('names animations as `info` names clips, so `sample --clip` works on the source', async () => {
    const source = join(EXAMPLES_DIR, 'aaf', 'teapot-man.scene.aaf');
    const info = JSON.parse(animcore('info', source, '--json').stdout) as { clips: { name: string }[] };
    const doc = await new NodeIO().read(join(out1, 'aaf', 'teapot-man.scene.glb'));
    const names = doc.getRoot().listAnimations().map((a) => a.getName());
    expect(names).toEqual(info.clips.map((c) => c.name));
    expect(animcore('sample', source, '--clip', names[0]!, '--time', '0.5').status).toBe(0);
  });

  it('gives byte-identical outputs with --jobs 2', () => {
    const out2 = tmp('out2');
    const r = animcore('resample', ...sources, '--fps', '60', '--out', out2, '--jobs', '2');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    // The output log lists the same outputs, in the order the workers finished.
    const [t1, t2] = [tree(out1), tree(out2)];
    const log = (t: Map<string, Buffer>) => t.get('.animcore-outputs.jsonl')!.toString('utf8').split('\n').sort();
    expect(log(t2)).toEqual(log(t1));
    for (const t of [t1, t2]) t.delete('.animcore-outputs.jsonl');
    expect(t2).toEqual(t1);
  });

  it('reports a corrupt file with its FormatError, writes the others and exits non-zero', () => {
    const dir = tmp('batch');
    cpSync(EXAMPLES_DIR, dir, { recursive: true });
    const wave = readFileSync(join(dir, 'nebula', 'wave.nax3'));
    writeFileSync(join(dir, 'nebula', 'broken.nax3'), wave.subarray(0, wave.length - 7));
    const out = tmp('out-bad');
    const r = animcore('resample', dir, '--fps', '30', '--out', out);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAILED .*broken\.nax3: FormatError: /);
    expect(r.stdout.match(/broken\.nax3/g)).toHaveLength(1); // named once: the summary does not repeat the per-file line
    expect(r.stdout).toMatch(/^files: \d+ of \d+ converted, 1 failed/m);
    expect(existsSync(join(out, 'nebula', 'wave.glb'))).toBe(true);
    expect(existsSync(join(out, 'aaf', 'teapot-man.scene.glb'))).toBe(true);
    expect(existsSync(join(out, 'nebula', 'broken.glb'))).toBe(false);
  });

  it('replaces an existing output only with --force, and never writes over an input', () => {
    const out = tmp('out-force');
    const wave = join(EXAMPLES_DIR, 'nebula', 'wave.nax3');
    expect(animcore('resample', wave, '--fps', '50', '--to', 'json', '--tolerance', '0', '--out', out).status).toBe(0);
    const again = animcore('resample', wave, '--fps', '25', '--to', 'json', '--out', out);
    expect(again.status).toBe(0); // skipped, not failed
    expect(again.stdout).toMatch(/^skipped .*wave\.nax3: .*wave\.json exists \(--force replaces it\)$/m);
    expect(again.stdout).toMatch(/^files: 0 of 1 converted, 0 failed, 1 skipped \(output exists\)/m);
    expect(again.stdout.match(/wave\.json exists/g)).toHaveLength(1);
    const first = JSON.parse(readFileSync(join(out, 'wave.json'), 'utf8'));
    expect(first.clips[0].curves[1].times[1]).toBeCloseTo(0.02, 6);
    expect(animcore('resample', wave, '--fps', '25', '--to', 'json', '--tolerance', '0', '--out', out, '--force').status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'wave.json'), 'utf8')).clips[0].curves[1].times[1]).toBeCloseTo(0.04, 6);

    const dir = tmp('inputs');
    cpSync(join(EXAMPLES_DIR, 'nebula'), dir, { recursive: true });
    const before = readFileSync(join(dir, 'wave.nax3'));
    const over = animcore('resample', dir, '--fps', '25', '--to', 'nax3', '--out', dir, '--force');
    expect(over.status).toBe(1);
    expect(over.stdout).toMatch(/is an input file/);
    expect(readFileSync(join(dir, 'wave.nax3'))).toEqual(before);
  });

  it('writes gltf with its .bin, and nax3', () => {
    const out = tmp('out-forms');
    const wave = join(EXAMPLES_DIR, 'nebula', 'wave.nax3');
    expect(animcore('resample', wave, '--fps', '60', '--to', 'gltf', '--out', out).status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'wave.gltf'), 'utf8')).buffers[0].uri).toBe('wave.bin');
    expect(existsSync(join(out, 'wave.bin'))).toBe(true);
    expect(animcore('resample', wave, '--fps', '25', '--to', 'nax3', '--out', out).status).toBe(0);
    expect(animcore('info', join(out, 'wave.nax3'), '--json').stdout).toContain('"name": "wave"');
  });

  it.skipIf(!haveFixtures)('writes the glTF fixtures folder as .gltf: each input exactly its .gltf and .bin, textures inside the .bin', () => {
    const out = tmp('out-gltf-folder');
    const r = animcore('resample', join(FIXTURES, 'gltf'), '--fps', '30', '--to', 'gltf', '--out', out);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const files = [...tree(out).keys()].filter((f) => !f.startsWith('.')).sort();
    const bases = ['AnimatedMorphCube', 'BoxAnimated', 'CesiumMan', 'InterpolationTest', 'RiggedSimple', 'SimpleSkin', join('AnimatedMorphCube-Quantized', 'AnimatedMorphCube')];
    expect(files).toEqual(bases.flatMap((b) => [`${b}.bin`, `${b}.gltf`]).sort());
    const cesium = JSON.parse(readFileSync(join(out, 'CesiumMan.gltf'), 'utf8'));
    expect(cesium.images).toEqual([expect.objectContaining({ mimeType: 'image/jpeg', bufferView: expect.any(Number) })]);
  });

  it('exits 2 on usage errors', () => {
    expect(animcore('resample', EXAMPLES_DIR, '--fps', '0', '--out', tmp('u')).status).toBe(2);
    expect(animcore('resample', EXAMPLES_DIR, '--fps', '60', '--to', 'fbx', '--out', tmp('u')).status).toBe(2);
    expect(animcore('resample', EXAMPLES_DIR, '--fps', '60').status).toBe(2);
  });
});
