// Issue 20, the files a .gltf names: a folder walk takes a .gltf's buffers and images as its
// companions wherever they lie (beside it, below it, in a sibling folder), never as inputs of
// their own — not even a buffer whose bytes MRTK's detection would take for a recording (MRTK
// recordings are .bin files too) — and the report lists them with their SHA-256 under the .gltf,
// so that --resume converts the .gltf again when one of them changes.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReportLine } from '../../src/cli/batch-report.js';
import { MRTK_MAGIC } from '../../src/formats/mrtk/recording.js';
import { animcore, ROOT, tmp, tree } from '../helpers/cli.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';

const HAND = join(ROOT, 'examples', 'mrtk', 'hand-wave.bin');
const CUBE = 'AnimatedMorphCube-Quantized/AnimatedMorphCube';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Bytes that start as a PNG file: the reader keeps images as bytes. */
const image = (fill: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(24).fill(fill)]);

/**
 * scene/cube.gltf with its buffer in ../shared/cube.bin (8 leading bytes of the MRTK magic, which
 * no buffer view reads) and its image in textures/skin.png; beside it the fixture's .gltf with its
 * .bin and an image, an MRTK recording, and an image no document names.
 */
function folder(): string {
  const dir = tmp('gltf-refs');
  for (const d of ['scene', 'scene/textures', 'shared']) mkdirSync(join(dir, d));
  const json = JSON.parse(readFileSync(fixturePath('gltf', `${CUBE}.gltf`), 'utf8'));
  const bin = readFileSync(fixturePath('gltf', `${CUBE}.bin`));
  writeFileSync(join(dir, 'scene', 'AnimatedMorphCube.gltf'), JSON.stringify({ ...json, images: [{ uri: 'tex.png', mimeType: 'image/png' }] }));
  writeFileSync(join(dir, 'scene', 'AnimatedMorphCube.bin'), bin);
  writeFileSync(join(dir, 'scene', 'tex.png'), image(1));
  const magic = new Uint8Array(8);
  new DataView(magic.buffer).setBigUint64(0, MRTK_MAGIC, true);
  writeFileSync(join(dir, 'shared', 'cube.bin'), Buffer.concat([magic, bin]));
  const moved = {
    ...json,
    buffers: [{ uri: '../shared/cube.bin', byteLength: bin.length + 8 }],
    bufferViews: json.bufferViews.map((v: { byteOffset?: number }) => ({ ...v, byteOffset: (v.byteOffset ?? 0) + 8 })),
    images: [{ uri: 'textures/skin.png', mimeType: 'image/png' }],
  };
  writeFileSync(join(dir, 'scene', 'cube.gltf'), JSON.stringify(moved));
  writeFileSync(join(dir, 'scene', 'textures', 'skin.png'), image(2));
  copyFileSync(HAND, join(dir, 'scene', 'take.bin'));
  writeFileSync(join(dir, 'scene', 'other.png'), image(3));
  return dir;
}

function report(path: string): Map<string, ReportLine> {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => 'input' in l) as ReportLine[];
  return new Map(lines.map((l) => [l.input, l]));
}

/** The images of a written .glb, from its JSON chunk. */
function glbImages(path: string): unknown[] {
  const glb = readFileSync(path);
  return JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8')).images ?? [];
}

describe.skipIf(!haveFixtures('gltf'))("a .gltf's buffers and images in a folder walk", () => {
  it('are its companions in the report (path and SHA-256), wherever they are, and no input of their own; an MRTK recording beside them converts', () => {
    const dir = folder();
    const out = tmp('gltf-refs-out');
    const at = (p: string) => join(dir, p);
    const r = animcore(['resample', dir, '--fps', '30', '--out', out, '--report', join(out, '..', `${out.split('/').pop()}.jsonl`)]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const lines = report(join(out, '..', `${out.split('/').pop()}.jsonl`));
    const companions = (input: string) => [...lines.get(at(input))!.companions].sort((a, b) => a.path.localeCompare(b.path));
    expect(lines.get(at('scene/cube.gltf'))?.status).toBe('converted');
    expect(companions('scene/cube.gltf')).toEqual([
      { path: at('scene/textures/skin.png'), sha256: sha256(at('scene/textures/skin.png')) },
      { path: at('shared/cube.bin'), sha256: sha256(at('shared/cube.bin')) },
    ]);
    expect(lines.get(at('scene/AnimatedMorphCube.gltf'))?.status).toBe('converted');
    expect(companions('scene/AnimatedMorphCube.gltf')).toEqual([
      { path: at('scene/AnimatedMorphCube.bin'), sha256: sha256(at('scene/AnimatedMorphCube.bin')) },
      { path: at('scene/tex.png'), sha256: sha256(at('scene/tex.png')) },
    ]);
    expect(lines.get(at('scene/take.bin'))).toMatchObject({ status: 'converted', companions: [] });
    const skip = (file: string, message: string) => expect(lines.get(at(file)), file).toMatchObject({ status: 'skipped', reason: { code: 'companion', message } });
    skip('shared/cube.bin', 'companion of ../scene/cube.gltf (a file it names)');
    skip('scene/textures/skin.png', 'companion of ../cube.gltf (a file it names)');
    skip('scene/AnimatedMorphCube.bin', 'companion of AnimatedMorphCube.gltf (a file it names)');
    skip('scene/tex.png', 'companion of AnimatedMorphCube.gltf (a file it names)');
    expect(lines.get(at('scene/other.png'))).toMatchObject({ status: 'skipped', reason: { code: 'unknown-extension' } });
    expect(lines.size).toBe(8);
    // The image in a sub-folder was read, so the output keeps it.
    expect(glbImages(join(out, 'scene', 'cube.glb'))).toHaveLength(1);
    expect([...tree(out).keys()].filter((p) => !p.startsWith('.')).sort()).toEqual(['scene/AnimatedMorphCube.glb', 'scene/cube.glb', 'scene/take.glb']);
  });

  it('a .gltf whose JSON does not parse fails alone: its buffer by name (x.bin) is its companion, not an MRTK recording that fails too', () => {
    const dir = tmp('gltf-broken');
    const text = readFileSync(fixturePath('gltf', `${CUBE}.gltf`), 'utf8');
    writeFileSync(join(dir, 'AnimatedMorphCube.gltf'), text.slice(0, 300));
    copyFileSync(fixturePath('gltf', `${CUBE}.bin`), join(dir, 'AnimatedMorphCube.bin'));
    copyFileSync(HAND, join(dir, 'take.bin'));
    const out = tmp('gltf-broken-out');
    const r = animcore(['resample', dir, '--fps', '30', '--out', out, '--verbose']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^files: 1 of 2 converted, 1 failed; 1 companion or other files/m);
    expect(r.stdout + r.stderr).toMatch(/FAILED .*AnimatedMorphCube\.gltf: FormatError: gltf: the glTF JSON does not parse/);
    expect(r.stdout + r.stderr).not.toMatch(/FAILED .*AnimatedMorphCube\.bin/);
  });

  it('--to gltf writes only a .gltf and a .bin per input, the images inside the .bin: sources sharing an image, or naming one in another folder, collide nowhere', () => {
    const dir = folder();
    writeFileSync(join(dir, 'scene', 'cube2.gltf'), readFileSync(join(dir, 'scene', 'AnimatedMorphCube.gltf'))); // names tex.png too
    const out = tmp('gltf-refs-gltf');
    const r = animcore(['resample', dir, '--fps', '30', '--to', 'gltf', '--out', out]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const files = tree(out);
    expect([...files.keys()].filter((p) => !p.startsWith('.')).sort()).toEqual(['AnimatedMorphCube', 'cube', 'cube2', 'take'].flatMap((b) => [`scene/${b}.bin`, `scene/${b}.gltf`]));
    const image = (output: string) => {
      const json = JSON.parse(files.get(`scene/${output}.gltf`)!.toString('utf8'));
      expect(json.images).toHaveLength(1);
      expect(json.images[0].uri).toBeUndefined();
      const view = json.bufferViews[json.images[0].bufferView];
      return files.get(`scene/${json.buffers[view.buffer].uri}`)!.subarray(view.byteOffset, view.byteOffset + view.byteLength);
    };
    expect(image('cube')).toEqual(readFileSync(join(dir, 'scene', 'textures', 'skin.png')));
    expect(image('AnimatedMorphCube')).toEqual(readFileSync(join(dir, 'scene', 'tex.png')));
    expect(image('cube2')).toEqual(readFileSync(join(dir, 'scene', 'tex.png')));
  });

  it('--resume converts a .gltf again when a buffer or an image it names changes, and only then', () => {
    const dir = folder();
    const out = tmp('gltf-resume-out');
    const at = (p: string) => join(dir, p);
    const run = (n: number, ...more: string[]) => {
      const path = join(out, '..', `${out.split('/').pop()}-${n}.jsonl`);
      const r = animcore(['resample', dir, '--fps', '30', '--out', out, '--report', path, ...more]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      return { path, lines: report(path) };
    };
    const status = (lines: Map<string, ReportLine>) => Object.fromEntries(['scene/cube.gltf', 'scene/AnimatedMorphCube.gltf', 'scene/take.bin'].map((p) => [p, lines.get(at(p))?.status]));
    const first = run(1);
    const second = run(2, '--resume', first.path);
    expect(status(second.lines)).toEqual({ 'scene/cube.gltf': 'unchanged', 'scene/AnimatedMorphCube.gltf': 'unchanged', 'scene/take.bin': 'unchanged' });
    // A byte no buffer view reads (the outputs stay the same) and another image.
    const buffer = readFileSync(at('shared/cube.bin'));
    buffer[0]! ^= 0xff;
    writeFileSync(at('shared/cube.bin'), buffer);
    writeFileSync(at('scene/tex.png'), image(4));
    const third = run(3, '--resume', second.path);
    expect(status(third.lines)).toEqual({ 'scene/cube.gltf': 'converted', 'scene/AnimatedMorphCube.gltf': 'converted', 'scene/take.bin': 'unchanged' });
    expect(third.lines.get(at('scene/cube.gltf'))!.companions).toContainEqual({ path: at('shared/cube.bin'), sha256: sha256(at('shared/cube.bin')) });
    // The redone outputs are those of a fresh run on the changed files.
    const fresh = tmp('gltf-resume-fresh');
    expect(animcore(['resample', dir, '--fps', '30', '--out', fresh]).status).toBe(0);
    const files = (d: string) => new Map([...tree(d)].filter(([p]) => !p.startsWith('.')));
    expect(files(out)).toEqual(files(fresh));
  });

  it('are read only inside the walked folder (or, for a file named directly, its own): a hostile ../ buffer fails its .gltf alone', () => {
    const dir = folder();
    writeFileSync(join(dir, 'scene', 'steal.gltf'), JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: '../../../../../../etc/hostname', byteLength: 4 }] }));
    const out = tmp('gltf-refs-root');
    const walked = animcore(['resample', join(dir, 'scene'), '--fps', '30', '--out', out]);
    expect(walked.status).toBe(1);
    const failed = walked.stdout.split('\n').filter((l) => l.startsWith('FAILED'));
    expect(failed.map((l) => l.split(': ')[0])).toEqual([`FAILED ${join(dir, 'scene', 'cube.gltf')}`, `FAILED ${join(dir, 'scene', 'steal.gltf')}`]);
    expect(failed[0]).toContain(`"../shared/cube.bin" is outside ${join(dir, 'scene')}, the folder files may be read from (at /buffers/0/uri)`);
    expect(failed[1]).toContain('"../../../../../../etc/hostname" is outside');
    const named = animcore(['info', join(dir, 'scene', 'cube.gltf')]);
    expect([named.status, named.stderr]).toEqual([1, expect.stringContaining(`"../shared/cube.bin" is outside ${join(dir, 'scene')}`)]);
  });
});
