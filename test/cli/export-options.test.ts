// `animcore resample --tolerance / --angle-tolerance / --up / --scale` and `animcore info`'s axes,
// through the built binary (dist/cli.js) in a child process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toleranceOf } from '../../src/cli/resample.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');
const MRTK = join(root, 'examples', 'mrtk', 'hand-wave.bin');
const TEAPOT = join(root, 'examples', 'aaf', 'teapot-man.scene.aaf');

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: root });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'animcore-export-options-'));

describe('resample export options', () => {
  it('--tolerance and --angle-tolerance: the summary reports keys in and out and the largest error per clip, within them', () => {
    const summaries = [['--tolerance', '0'], [], ['--tolerance', '0.001', '--angle-tolerance', '1']].map((extra) => {
      const r = run('resample', TEAPOT, MRTK, '--fps', '30', '--out', tmp(), '--json', ...extra);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    });
    const [exact, byDefault, loose] = summaries;
    expect(exact.reductions).toEqual([]);
    expect(byDefault.keysOut).toBeLessThan(exact.keysOut);
    expect(loose.keysOut).toBeLessThan(byDefault.keysOut);
    for (const [s, length, degrees] of [[byDefault, 1e-4, 0.1], [loose, 1e-3, 1]] as const) {
      expect(s.reductions.map((c: { clip: string }) => c.clip)).toEqual(['animation', 'hand-wave']);
      for (const c of s.reductions) {
        expect(c.keysOut).toBeLessThan(c.keysIn);
        expect(c.maxError.translation).toBeLessThanOrEqual(length);
        expect(c.maxError.rotationDegrees).toBeLessThanOrEqual(degrees * (1 + 1e-9));
      }
    }
    // The text summary: keys kept, and a line per clip with its keys and largest errors.
    const text = run('resample', TEAPOT, '--fps', '30', '--out', tmp()).stdout;
    expect(text).toMatch(/^reduction: \d+ of \d+ baked keys kept \([\d.]+%\) in 1 clips$/m);
    expect(text).toMatch(/^  .*teapot-man\.scene\.aaf "animation": \d+ -> \d+ keys, largest error translation [\d.e-]+, rotation [\d.e-]+°, scale [\d.e-]+, other 0$/m);
  });

  it('--up and --scale are recorded in the glTF; the JSON output says its axes', () => {
    const out = tmp();
    expect(run('resample', MRTK, '--fps', '30', '--to', 'gltf', '--up', 'source', '--scale', '0.01', '--out', out).status).toBe(0);
    const gltf = JSON.parse(readFileSync(join(out, 'hand-wave.gltf'), 'utf8'));
    expect(gltf.asset.extras).toEqual({ animcore: { up: 'source', sourceAxes: 'Y-up, left-handed', scale: 0.01 } });
    expect(run('resample', MRTK, '--fps', '30', '--to', 'json', '--out', out).status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'hand-wave.json'), 'utf8')).axes).toEqual({ up: 'y', source: 'Y-up, left-handed', scale: 1 });
  });

  it.skipIf(!haveFixtures('gltf'))('--up and --scale convert a glTF input at its root nodes and keep the rest of the file (materials too)', () => {
    const input = fixturePath('gltf', 'CesiumMan.glb');
    type Node = { name?: string; children?: number[]; matrix?: number[]; translation?: number[]; rotation?: number[]; scale?: number[] };
    const glbJson = (path: string) => {
      const glb = readFileSync(path);
      return JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8')) as { nodes: Node[]; materials?: unknown; textures?: unknown; images?: unknown[]; asset: { extras: { animcore: { scale: number } } } };
    };
    const out = tmp();
    const r = run('resample', input, '--fps', '30', '--up', 'source', '--scale', '2', '--out', out, '--json');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.converted).toBe(1);
    expect(summary.notes).toEqual([]);
    const scaled = glbJson(join(out, 'CesiumMan.glb'));
    const source = glbJson(input);
    expect(scaled.asset.extras.animcore.scale).toBe(2);
    expect(scaled.materials).toEqual(source.materials);
    expect(scaled.textures).toEqual(source.textures);
    expect(scaled.images?.length).toBe(source.images?.length);
    // Lengths doubled where the hierarchy starts; every other node as it was.
    const children = new Set(source.nodes.flatMap((n) => n.children ?? []));
    expect(children.size).toBeGreaterThan(10);
    source.nodes.forEach((n, i) => {
      const after = scaled.nodes[i]!;
      if (children.has(i)) {
        expect(after).toEqual(n);
        return;
      }
      if (n.matrix) {
        // Column-major: the three rows of every column doubled, the last row kept.
        n.matrix.forEach((v, e) => expect(after.matrix![e]).toBeCloseTo(e % 4 === 3 ? v : 2 * v, 6));
        return;
      }
      (n.translation ?? [0, 0, 0]).forEach((v, k) => expect(after.translation![k]).toBeCloseTo(2 * v, 5));
      (n.scale ?? [1, 1, 1]).forEach((v, k) => expect(after.scale![k]).toBeCloseTo(2 * v, 5));
      (n.rotation ?? [0, 0, 0, 1]).forEach((v, k) => expect(after.rotation![k]).toBeCloseTo(v, 6));
    });
  });

  it('--quantize writes glTF rotations as normalized int16 within --angle-tolerance, and is refused for json and nax3', async () => {
    const [float, quantized] = [[], ['--quantize']].map((extra) => {
      const out = tmp();
      const r = run('resample', TEAPOT, '--fps', '30', '--to', 'gltf', '--out', out, '--json', ...extra);
      expect(r.status, r.stderr).toBe(0);
      return { out, summary: JSON.parse(r.stdout) };
    });
    const accessorsOf = (out: string) => {
      const gltf = JSON.parse(readFileSync(join(out, 'teapot-man.scene.gltf'), 'utf8'));
      const channels = gltf.animations[0].channels.filter((c: { target: { path: string } }) => c.target.path === 'rotation');
      return { gltf, rotations: channels.map((c: { sampler: number }) => gltf.accessors[gltf.animations[0].samplers[c.sampler].output]) };
    };
    const q = accessorsOf(quantized!.out);
    expect(q.rotations.length).toBeGreaterThan(0);
    for (const a of q.rotations) expect([a.componentType, a.normalized]).toEqual([5122, true]); // SHORT, normalized
    for (const a of accessorsOf(float!.out).rotations) expect(a.componentType).toBe(5126); // FLOAT
    for (const c of quantized!.summary.reductions) expect(c.maxError.rotationDegrees).toBeLessThanOrEqual(0.1);
    for (const to of ['json', 'nax3']) {
      const r = run('resample', TEAPOT, '--fps', '30', '--to', to, '--quantize', '--out', tmp());
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`--quantize applies to --to glb and gltf \\(not ${to}\\)`));
    }
  });

  it.each([
    [['--tolerance', '-1'], /--tolerance takes a number >= 0/],
    [['--tolerance', 'x'], /--tolerance takes/],
    [['--angle-tolerance', '400'], /--angle-tolerance takes degrees from 0 to 360/],
    [['--up', 'x'], /argument 'x' is invalid.*Allowed choices are y, z, source/],
    [['--scale', '0'], /--scale takes a number > 0/],
  ])('refuses %j with exit 2', (extra, message) => {
    const r = run('resample', TEAPOT, '--fps', '30', '--out', tmp(), ...extra);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('--tolerance 0 alone writes every key; with --angle-tolerance only rotations are reduced', () => {
    expect(toleranceOf(0, undefined)).toBe(0);
    expect(toleranceOf(undefined, undefined)).toEqual({});
    expect(toleranceOf(0, 1)).toEqual({ translation: 0, scale: 0, other: 0, rotation: Math.PI / 180 });
    expect(toleranceOf(0.01, undefined)).toEqual({ translation: 0.01, scale: 0.01, other: 0.01 });
  });

  it('info names the axes of every format and where that comes from', () => {
    const r = run('info', MRTK, TEAPOT, join(root, 'examples', 'nebula', 'wave.nax3'));
    expect(r.stdout.match(/^  axes: .*$/gm)).toEqual([
      '  axes: Y-up, left-handed — Unity world space, spec mrtk.md §4',
      '  axes: Y-up, right-handed — not stated by the format, file space kept (spec aaf.md §1)',
      '  axes: Y-up, right-handed — right-handed projections of Nebula2 nCamera2 and Nebula3 CameraSetting, characters along +Y',
    ]);
  });
});
