// `animcore info` and `animcore sample` as a user runs them: the built binary in a child process.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { openFile } from '../../src/cli/open-file.js';
import type { AnimCore } from '../../src/core/index.js';
import { createCore } from '../helpers/core.js';
import { fixturePath, haveFixtures, readFixture } from '../helpers/fixtures.js';
import { expectCloseRelative } from '../helpers/compare.js';
import { channelCurves, gltfExpected } from '../helpers/gltf-fixtures.js';
import type { SampleJson } from '../../src/cli/sample.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json(...args: string[]): any {
  return JSON.parse(execFileSync(process.execPath, [CLI, ...args, '--json'], { encoding: 'utf8' }));
}

const FIXTURES = [
  ['nebula', 'bouncingball.nax2'],
  ['nebula', 'eagle.nax2'],
  ['nebula', 'kila_layoutA.nax2'],
  ['nebula', 'kila_layoutB.nax2'],
  ['nebula', 'bouncingball.nanim2'],
  ['nebula', 'eagle.nanim2'],
  ['nebula', 'Unit_Footman.nax3'],
  ['meteor', 'p0.amb'],
  ['mrtk', 'InputAnimation-20201011-130542.bin'],
  ['mrtk', 'InputAnimation-20201027-134946.bin'],
] as const;

describe('animcore info / sample on the bundled examples', () => {
  for (const example of ['examples/nebula/wave.nax3', 'examples/aaf/teapot-man.scene.aaf', 'examples/aaf/teapot-man.anim.aaf']) {
    it(`${example}: info --json and sample --json`, () => {
      const info = json('info', join(root, example));
      expect(info.clips.length).toBeGreaterThan(0);
      const clip = info.clips[0];
      const samples = json('sample', join(root, example), '--clip', clip.name, '--time', '0,0.25,0.5');
      expect(samples).toHaveLength(3);
      expect(samples[1].time).toBe(0.25);
      expect(samples[1].curves).toHaveLength(clip.curves);
    });
  }

  it('exit codes: 2 for usage errors, 1 for unreadable or bad files', () => {
    expect(run('sample', join(root, 'examples/nebula/wave.nax3'), '--time', 'soon').status).toBe(2);
    expect(run('sample', join(root, 'examples/nebula/wave.nax3'), '--time', '0', '--clip', 'nope').status).toBe(2);
    const missing = run('info', join(root, 'examples/does-not-exist.nax3'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^animcore: /);
    const dir = mkdtempSync(join(tmpdir(), 'animcore-cli-'));
    const bad = join(dir, 'bad.nax3');
    writeFileSync(bad, Uint8Array.of(0x31, 0x30, 0x41, 0x4e, 1, 0, 0, 0));
    const r = run('info', bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/nax3: .*\(at byte \d+\)/);
  });
});

describe.skipIf(!haveFixtures('nebula') || !haveFixtures('meteor') || !haveFixtures('mrtk'))('animcore info / sample on every fixture', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it.each(FIXTURES)('%s/%s: info --json has the documented shape', (format, name) => {
    const info = json('info', fixturePath(format, name));
    expect(Object.keys(info).sort()).toEqual(['axes', 'clips', 'companions', 'file', 'format', 'info', 'skeleton', 'warnings']);
    expect(info.axes).toEqual({ up: format === 'meteor' ? 'z' : 'y', handedness: format === 'mrtk' ? 'left' : 'right', basis: expect.any(String) });
    for (const c of info.clips) {
      expect(typeof c.name).toBe('string');
      expect(c.duration).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(c.curves) && Number.isInteger(c.keys)).toBe(true);
    }
  });

  it.each(FIXTURES)('%s/%s: sample --json equals the library at several times', async (format, name) => {
    const path = fixturePath(format, name);
    const { resource } = await openFile(path);
    const clip = resource.clips[resource.clips.length - 1]!;
    const times = [0, clip.duration / 3, clip.duration * 1.7];
    const out = json('sample', path, '--clip', clip.name, '--time', times.join(','), '--rotation', 'slerp');
    core.load(resource);
    const buf = core.createSampleBuffer(clip);
    times.forEach((t, k) => {
      core.sampler.sample(clip, t, buf, { rotation: 'slerp' });
      expect(out[k].clip).toBe(clip.name);
      out[k].curves.forEach((c: { count: number; value: number[]; type: string; target: { joint: string | null } }, i: number) => {
        expect(c.type).toBe(clip.curves[i]!.curveType);
        expect(c.target.joint).toBe(clip.curves[i]!.target.joint);
        expect(c.count).toBe(buf.counts[i]);
        expect(c.value).toEqual(buf.sampleOf(i).map((v) => v + 0)); // JSON has no -0
      });
    });
    buf.dispose();
    resource.dispose();
  });

  it('nebula: the skeleton next to the animation is used (eagle.n2, Unit_Footman.constants)', () => {
    expect(json('info', fixturePath('nebula', 'eagle.nax2')).skeleton.joints).toHaveLength(79);
    const footman = json('info', fixturePath('nebula', 'Unit_Footman.nax3'));
    expect(footman.skeleton.joints).toHaveLength(21);
    expect(footman.clips.map((c: { name: string }) => c.name)).toContain('walk');
    const kila = json('info', fixturePath('nebula', 'kila_layoutB.nax2'), '--skeleton', fixturePath('nebula', 'kila.n2'));
    expect(kila.clips[0].name).toBe('one');
    expect(kila.warnings.join(' ')).toMatch(/ipolType/);
  });

  it('meteor: --model-space matches the expected world positions (spec meteor.md §8)', () => {
    const expected = JSON.parse(new TextDecoder().decode(readFixture('meteor', 'expected.json')));
    const [key, sample] = Object.entries(expected.samples as Record<string, { world_file_xyz: Record<string, number[]> }>)[0]!;
    const [, pose, time] = /^pose(\d+)@([\d.]+)s$/.exec(key)!;
    const out = json('sample', fixturePath('meteor', 'p0.amb'), '--clip', `pose${pose}`, '--time', time!, '--rotation', 'slerp', '--model-space');
    for (const [joint, xyz] of Object.entries(sample.world_file_xyz)) {
      const m = out.model.find((e: { joint: string }) => e.joint === joint).matrix;
      expect(Math.hypot(m[12] - xyz[0]!, m[13] - xyz[1]!, m[14] - xyz[2]!)).toBeLessThan(1e-4);
    }
  });

  it('mrtk: bool curves print [0|1, 0, 0, 0] with the documented targets', () => {
    const out = json('sample', fixturePath('mrtk', 'InputAnimation-20201027-134946.bin'), '--time', '1.5');
    const bools = out.curves.filter((c: { type: string }) => c.type === 'bool');
    expect(bools.map((c: { target: { joint: string; property: string } }) => `${c.target.joint}.${c.target.property}`).sort()).toEqual([
      'left.pinching',
      'left.tracked',
      'right.pinching',
      'right.tracked',
    ]);
    for (const c of bools) expect([0, 1]).toContain(c.value[0]);
  });
});

describe.skipIf(!haveFixtures('gltf'))('animcore info / sample on every glTF fixture', () => {
  const expected = haveFixtures('gltf') ? gltfExpected() : { files: {} };

  it.each(Object.keys(expected.files))('%s: info --json names every animation', (name) => {
    const file = expected.files[name]!;
    const info = json('info', fixturePath('gltf', name));
    expect(info.format).toBe('gltf');
    expect(info.skeleton.joints).toHaveLength(file.nodes);
    expect(info.clips.map((c: { name: string }) => c.name)).toEqual(file.animations.map((a) => a.name ?? `animation${a.index}`));
  });

  // No --rotation: the clip's own default (slerp, Appendix C), so exact keys come back as stored
  // (SimpleSkin's keys are off unit length) and BoxAnimated turns along the spec's short path.
  it.each(Object.keys(expected.files))('%s: sample --model-space --json reproduces expected.json by default', (name) => {
    for (const animation of expected.files[name]!.animations) {
      const times = [...new Set([...animation.samples.map((s) => s.t), ...animation.modelSpace.map((m) => m.t)])];
      const out: SampleJson[] = json('sample', fixturePath('gltf', name), '--clip', String(animation.index), '--time', times.map(String).join(','), '--model-space');
      const at = (t: number): SampleJson => out[times.indexOf(t)]!;
      const first = channelCurves(animation);
      for (const s of animation.samples) {
        s.values.forEach((value, c) => {
          const values = animation.channels[c]!.path === 'weights' ? value.map((w, k) => [first[c]! + k, [w]] as const) : [[first[c]!, value] as const];
          for (const [curve, v] of values) expectCloseRelative(at(s.t).curves[curve]!.value.slice(0, v.length), v, 1e-4);
        });
      }
      for (const m of animation.modelSpace) {
        for (const node of m.nodes) expectCloseRelative(at(m.t).model![node.node]!.matrix, node.world, 1e-3);
      }
    }
  });
});
