// The command line as a new user meets it: help, version, usage errors and messages, through the
// built binary (dist/cli.js) in a child process.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kebab } from '../../src/formats/companions.js';
import { companionRoles, FORMAT_HANDLERS } from '../../src/formats/registry.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');
const WAVE = join(root, 'examples', 'nebula', 'wave.nax3');

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: root });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('animcore options come from the format registry', () => {
  it.each(['info', 'sample', 'resample'])('%s --help lists every companion option and every --format id', (command) => {
    const r = run(command, '--help');
    expect(r.status).toBe(0);
    for (const role of companionRoles()) expect(r.stdout).toContain(`--${kebab(role.role)} <file>`);
    for (const h of FORMAT_HANDLERS) expect(r.stdout).toMatch(new RegExp(`^  ${h.id} +${h.description.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
  });

  it.each([
    ['info', WAVE],
    ['sample', WAVE, '--time', '0'],
    ['resample', WAVE, '--fps', '30', '--out', join(root, 'test-results', 'never-written')],
  ])('%s --format foo is a usage error (exit 2) naming the known ids', (...args) => {
    const r = run(...args, '--format', 'foo');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown format "foo"; known formats: gltf, meteor, nebula, mrtk, aaf/);
  });
});

describe('help, version and usage errors', () => {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

  it.each(['--help', '-h', 'help', ''])('animcore %s prints the help once on stdout and exits 0', (flag) => {
    const r = run(...(flag ? [flag] : []));
    expect(r.status).toBe(0);
    expect(r.stdout.match(/^Usage: animcore/gm)).toHaveLength(1);
    expect(r.stdout).toMatch(/^Examples:/m);
    expect(r.stderr).toBe('');
  });

  it('the help names glTF among the formats, and piped into head it ends quietly (no EPIPE crash), exit 0', () => {
    expect(run('--help').stdout).toMatch(/glTF 2\.0/);
    for (let i = 0; i < 3; i++) {
      const r = spawnSync('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${CLI}" resample --help | head -1`], { encoding: 'utf8', cwd: root });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
  });

  it.each(['info', 'sample', 'resample', 'examples'])('%s --help and help <command>: description, examples, required options; once, exit 0', (command) => {
    for (const r of [run(command, '--help'), run('help', command)]) {
      expect(r.status).toBe(0);
      expect(r.stdout.match(/^Usage: animcore /gm)).toHaveLength(1);
      expect(r.stdout).toMatch(/^Examples:\n {2}animcore /m);
    }
    if (command === 'sample') expect(run(command, '--help').stdout).toMatch(/--time <seconds> +.*\(required/);
    if (command === 'resample') expect(run(command, '--help').stdout).toMatch(/Exit status: 0 when no file failed/);
  });

  it.each([['--version'], ['-v']])('%s prints the package version and exits 0', (flag) => {
    const r = run(flag);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('an unknown command says so and exits 2', () => {
    const r = run('convert', WAVE);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^animcore: unknown command 'convert'/);
  });

  it('negative numbers are values: --time -0.5 samples like --time=-0.5', () => {
    const spaced = run('sample', WAVE, '--time', '-0.5,-0.25', '--json');
    expect(spaced.status, spaced.stderr).toBe(0);
    expect(JSON.parse(spaced.stdout)).toEqual(JSON.parse(run('sample', WAVE, '--time=-0.5,-0.25', '--json').stdout));
    expect(JSON.parse(spaced.stdout)[0].time).toBe(-0.5);
  });

  it('sample says what is missing and refuses an extra file (exit 2)', () => {
    const noTime = run('sample', WAVE);
    expect(noTime.status).toBe(2);
    expect(noTime.stderr).toMatch(/required option '--time <seconds>' not specified/);
    expect(noTime.stderr).not.toMatch(/undefined/);
    const extra = run('sample', WAVE, WAVE, '--time', '0');
    expect(extra.status).toBe(2);
    expect(extra.stderr).toMatch(/too many arguments for 'sample'/);
    expect(run('sample', WAVE, '--time', 'soon').stderr).toMatch(/--time takes seconds .*got "soon"/);
  });

  it('file-system errors are plain words naming the file, not ENOENT/EISDIR', () => {
    const missing = run('info', join(root, 'nothing-here.nax3'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`animcore: ${join(root, 'nothing-here.nax3')}: no such file or folder\n`);
    const folder = run('sample', join(root, 'examples'), '--time', '0');
    expect(folder.status).toBe(1);
    expect(folder.stderr).toBe(`animcore: ${join(root, 'examples')}: is a folder, not a file\n`);
    const companion = run('info', WAVE, '--skeleton', join(root, 'no.n2'));
    expect(companion.stderr).toMatch(/no\.n2: no such file or folder/);
  });

  it('info a bad c: reports the good files and names the bad one, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'animcore-info-'));
    const bad = join(dir, 'bad.nax3');
    writeFileSync(bad, 'not an animation');
    const aaf = join(root, 'examples', 'aaf', 'teapot-man.scene.aaf');
    const r = run('info', WAVE, bad, aaf);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${WAVE}: nax3`);
    expect(r.stdout).toContain(`${aaf}: aaf-scene`);
    expect(r.stderr).toMatch(new RegExp(`^animcore: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a file of any supported format`, 'm'));
    const json = run('info', WAVE, bad, aaf, '--json');
    expect(JSON.parse(json.stdout).map((i: { file: string }) => i.file)).toEqual([WAVE, aaf]);
  });
});

describe('resample output modes', () => {
  const tmp = () => mkdtempSync(join(tmpdir(), 'animcore-modes-'));
  const examples = join(root, 'examples');

  it('--json prints one summary object with failures and their reasons', () => {
    const dir = tmp();
    cpSync(examples, join(dir, 'in'), { recursive: true });
    writeFileSync(join(dir, 'in', 'nebula', 'broken.nax3'), readFileSync(WAVE).subarray(0, 40));
    const r = run('resample', join(dir, 'in'), '--fps', '30', '--to', 'json', '--out', join(dir, 'out'), '--json');
    expect(r.status).toBe(1);
    const s = JSON.parse(r.stdout);
    expect(Object.keys(s).sort()).toEqual(
      ['bytesIn', 'bytesOut', 'clips', 'converted', 'failed', 'failures', 'files', 'ignored', 'keysIn', 'keysOut', 'notes', 'reductions', 'seconds', 'skipped', 'skips', 'unchanged'].sort(),
    );
    expect(s).toMatchObject({ files: 4, converted: 3, failed: 1, skipped: 0, unchanged: 0, ignored: 1 });
    expect(s.failures).toEqual([{ input: join(dir, 'in', 'nebula', 'broken.nax3'), reason: expect.stringMatching(/^FormatError: nax3: .*\(at byte \d+\)$/) }]);
    expect(s.keysOut).toBeGreaterThan(0);
    // One keyframe-reduction record per converted clip, within the default tolerances (1e-4 units, 0.1°).
    expect(s.reductions.map((c: { clip: string }) => c.clip).sort()).toEqual(['animation', 'hand-wave', 'wave']);
    for (const c of s.reductions) {
      expect(c.keysOut).toBeLessThan(c.keysIn);
      expect(c.maxError.translation).toBeLessThanOrEqual(1e-4);
      expect(c.maxError.rotationDegrees).toBeLessThanOrEqual(0.1 + 1e-9);
    }
    expect(s.bytesOut).toBe(['aaf/teapot-man.scene.json', 'mrtk/hand-wave.json', 'nebula/wave.json'].reduce((n, f) => n + statSync(join(dir, 'out', f)).size, 0));
  });

  it('--dry-run says what would be written where and writes nothing', () => {
    const dir = tmp();
    const out = join(dir, 'out');
    const r = run('resample', examples, '--fps', '30', '--to', 'gltf', '--out', out, '--dry-run');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${join(examples, 'nebula', 'wave.nax3')} -> ${join(out, 'nebula', 'wave.gltf')}, ${join(out, 'nebula', 'wave.bin')}`);
    expect(existsSync(out)).toBe(false);
    const json = JSON.parse(run('resample', examples, '--fps', '30', '--out', out, '--dry-run', '--json').stdout);
    expect(json.files.map((f: { input: string }) => f.input)).toHaveLength(3);
    expect(existsSync(out)).toBe(false);
  });

  it('--quiet prints nothing when all is well; --verbose a line per file with its warnings; sizes people read', () => {
    const out = tmp();
    const quiet = run('resample', WAVE, '--fps', '30', '--out', out, '--quiet');
    expect(quiet.status).toBe(0);
    expect(quiet.stdout + quiet.stderr).toBe('');
    const verbose = run('resample', WAVE, '--fps', '30', '--out', tmp(), '--verbose');
    expect(verbose.stdout).toMatch(/^ok .*wave\.nax3 -> .*wave\.glb \(1 clips, \d+ keys written\)$/m);
    expect(verbose.stdout).toMatch(/^bytes: [\d.]+ kB in, [\d.]+ kB out$/m);
    expect(run('resample', WAVE, '--fps', '30', '--out', out, '--quiet', '--verbose').status).toBe(2);
  });
});
