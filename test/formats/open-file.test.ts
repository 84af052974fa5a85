// openFile: the library's way to open a path in Node, as the CLI does (companions beside it, or
// given by role), over openFormatFile.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError, gltfSource, openFile, openFileSet, openGltf, UsageError } from 'animcore';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
const shape = (r: { clips: readonly { name: string; curves: readonly unknown[] }[]; skeleton: { size: number } | null; meshes: readonly unknown[] }) => ({
  clips: r.clips.map((c) => `${c.name}:${c.curves.length}`),
  joints: r.skeleton?.size ?? 0,
  meshes: r.meshes.length,
});

describe('openFile', () => {
  it('opens an AAF scene with the animation beside it, as openFileSet opens the two given together', async () => {
    const opened = await openFile(join(EXAMPLES, 'aaf', 'teapot-man.scene.aaf'));
    expect(opened.path).toBe(join(EXAMPLES, 'aaf', 'teapot-man.scene.aaf'));
    expect(opened.handler.id).toBe('aaf');
    expect(opened.companions).toEqual([{ role: 'animation', file: 'teapot-man.anim.aaf', how: 'name' }]);
    const files = ['teapot-man.scene.aaf', 'teapot-man.anim.aaf'].map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(EXAMPLES, 'aaf', name))) }));
    expect(shape(opened.resource)).toEqual(shape((await openFileSet(files)).resource));
    expect(opened.resource.meshes.length).toBeGreaterThan(0);
  });

  it.skipIf(!haveFixtures('meteor'))('finds a Meteor character\'s files beside it, and takes a companion given by role instead', async () => {
    const found = await openFile(fixturePath('meteor', 'p0.amb'));
    expect(found.companions.map((c) => `${c.role}:${c.file}:${c.how}`).sort()).toEqual(['bnc:P0.bnc:name', 'pos:P0.pos:name', 'skc:p0.skc:name']);
    const given = await openFile(fixturePath('meteor', 'p0.amb'), { companions: { skc: fixturePath('meteor', 'p0_300.skc') } });
    expect(given.companions.find((c) => c.role === 'skc')).toEqual({ role: 'skc', file: fixturePath('meteor', 'p0_300.skc'), how: 'given' });
    expect(given.resource.skins[0]!.positions.length).not.toBe(found.resource.skins[0]!.positions.length);
  });

  it.skipIf(!haveFixtures('gltf'))('reads the buffers and images a glTF names by relative paths with folders, never by an absolute path nor out of `root`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'animcore-open-paths-'));
    for (const d of ['scene', 'scene/textures', 'shared']) mkdirSync(join(dir, d));
    const cube = 'AnimatedMorphCube-Quantized/AnimatedMorphCube';
    const json = JSON.parse(readFileSync(fixturePath('gltf', `${cube}.gltf`), 'utf8'));
    writeFileSync(join(dir, 'shared', 'cube.bin'), readFileSync(fixturePath('gltf', `${cube}.bin`)));
    writeFileSync(join(dir, 'scene', 'textures', 'skin.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]));
    const gltf = (bufferUri: string) => JSON.stringify({ ...json, buffers: [{ ...json.buffers[0], uri: bufferUri }], images: [{ uri: 'textures/skin.png', mimeType: 'image/png' }] });
    writeFileSync(join(dir, 'scene', 'cube.gltf'), gltf('../shared/cube.bin'));
    const opened = await openFile(join(dir, 'scene', 'cube.gltf'));
    expect(shape(opened.resource)).toEqual(shape(await openGltf({ gltf: readFileSync(fixturePath('gltf', `${cube}.gltf`)), resources: (uri) => readFileSync(fixturePath('gltf', join('AnimatedMorphCube-Quantized', uri))) })));
    expect([...gltfSource(opened.resource)!.images.values()].map((bytes) => [...bytes])).toEqual([[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]]);
    writeFileSync(join(dir, 'scene', 'absolute.gltf'), gltf(join(dir, 'shared', 'cube.bin')));
    await expect(openFile(join(dir, 'scene', 'absolute.gltf'))).rejects.toThrow(/".*cube\.bin" is an absolute path; only relative file URIs and data: URIs are read \(at \/buffers\/0\/uri\)/);
    // With a root, `..` may climb only within it: the buffer out of it is refused, an image left out.
    const rooted = await openFile(join(dir, 'scene', 'cube.gltf'), { root: dir });
    expect(shape(rooted.resource)).toEqual(shape(opened.resource));
    await expect(openFile(join(dir, 'scene', 'cube.gltf'), { root: join(dir, 'scene') })).rejects.toThrow(
      new RegExp(`"\\.\\./shared/cube\\.bin" is outside ${join(dir, 'scene').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, the folder files may be read from \\(at /buffers/0/uri\\)`),
    );
    writeFileSync(join(dir, 'shared', 'cube.gltf'), JSON.stringify({ ...json, buffers: [{ ...json.buffers[0], uri: 'cube.bin' }], images: [{ uri: '../scene/textures/skin.png' }] }));
    const imageOut = await openFile(join(dir, 'shared', 'cube.gltf'), { root: join(dir, 'shared') });
    expect(imageOut.resource.warnings).toContain(`/images/0: "../scene/textures/skin.png" is outside ${join(dir, 'shared')}, the folder files may be read from; left out`);
  });

  it('throws the file system\'s error for a missing file, FormatError for a file of no format, UsageError for an unknown format id', async () => {
    await expect(openFile(join(EXAMPLES, 'no-such-file.nax3'))).rejects.toThrow(/ENOENT/);
    await expect(openFile(join(import.meta.dirname, 'open-file.test.ts'))).rejects.toThrow(FormatError);
    await expect(openFile(join(EXAMPLES, 'nebula', 'wave.nax3'), { format: 'no-such-format' })).rejects.toThrow(UsageError);
    // An empty file says so (a newcomer's truncated download), whatever its extension.
    const dir = mkdtempSync(join(tmpdir(), 'animcore-empty-'));
    writeFileSync(join(dir, 'character.glb'), '');
    await expect(openFile(join(dir, 'character.glb'))).rejects.toThrow(/character\.glb: the file is empty \(0 bytes\) \(at byte 0\)$/);
  });

  it.skipIf(!haveFixtures('meteor') || !haveFixtures('nebula'))('names the main file to open for a companion opened alone (a skeleton, a mesh), by its name', async () => {
    await expect(openFile(fixturePath('meteor', 'P0.bnc'))).rejects.toThrow(/not a file of any supported format .*; by its name a Meteor skeleton \(\.bnc\), read with the \.amb file it belongs to: open that one/);
    await expect(openFile(fixturePath('meteor', 'p0.skc'))).rejects.toThrow(/Meteor skinned mesh \(\.skc\), read with the \.amb file/);
    await expect(openFile(fixturePath('nebula', 'kila.n2'))).rejects.toThrow(/Nebula skeleton .*, read with the \.nax2 \/ \.nax3 \/ \.nanim2 file/);
    const bnc = { name: 'P0.bnc', bytes: new Uint8Array(readFileSync(fixturePath('meteor', 'P0.bnc'))) };
    await expect(openFileSet([bnc, { name: 'notes.txt', bytes: new Uint8Array(3) }])).rejects.toThrow(/none of P0\.bnc, notes\.txt is of a supported format \([^)]*\); P0\.bnc is by its name a Meteor skeleton \(\.bnc\), read with the \.amb file[^;]*$/);
    // A file of no format and no companion's name gets no hint, nor one named like a main file too (AAF's `.scene.aaf`).
    await expect(openFileSet([{ name: 'broken.scene.aaf', bytes: new Uint8Array(3) }])).rejects.toThrow(/is of a supported format \([^)]*\) \(at byte 0\)$/);
    await expect(openFile(join(import.meta.dirname, 'open-file.test.ts'))).rejects.toThrow(/supported format \(gltf, meteor, nebula, mrtk, aaf\) \(at byte 0\)$/);
  });

  it.skipIf(!haveFixtures('gltf'))('openFileSet: a .gltf with its .bin given together names the .bin as read, not ignored', async () => {
    const names = ['AnimatedMorphCube.gltf', 'AnimatedMorphCube.bin'];
    const files = [...names, '../CesiumMan.glb'].map((n) => ({ name: n.split('/').pop()!, bytes: new Uint8Array(readFileSync(fixturePath('gltf', `AnimatedMorphCube-Quantized/${n}`))) }));
    const set = await openFileSet(files);
    expect(set.main).toBe('AnimatedMorphCube.gltf');
    expect(set.referenced).toEqual(['AnimatedMorphCube.bin']);
    expect(set.ignored).toEqual(['CesiumMan.glb']);
    expect(set.resource.clips[0]!.name).toBe('Square');
  });
});
