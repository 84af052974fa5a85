// `animcore resample` inputs beyond plain files and folders: glob patterns (expanded by the CLI,
// not the shell) and companion files named with options.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: root });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('animcore resample inputs', () => {
  it('expands a quoted glob itself, mirroring folders below its literal prefix', () => {
    const out = mkdtempSync(join(tmpdir(), 'animcore-glob-'));
    const r = run(['resample', 'examples/**/*.nax3', 'examples/mrtk/*.bin', '--fps', '30', '--to', 'json', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(out, 'nebula', 'wave.json'))).toBe(true);
    expect(existsSync(join(out, 'hand-wave.json'))).toBe(true);
    expect(r.stdout).toMatch(/files: 2 of 2 converted, 0 failed/);
  });

  it('refuses a glob that matches nothing, as a usage error', () => {
    const r = run(['resample', 'examples/**/*.nothing', '--fps', '30', '--out', mkdtempSync(join(tmpdir(), 'animcore-glob-'))]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no file matches/);
  });

  it.skipIf(!haveFixtures('nebula'))('takes a companion named with an option (--skeleton) for every input', () => {
    const dir = mkdtempSync(join(tmpdir(), 'animcore-companion-'));
    mkdirSync(join(dir, 'in'));
    copyFileSync(fixturePath('nebula', 'kila_layoutB.nax2'), join(dir, 'in', 'kila_layoutB.nax2'));
    const out = join(dir, 'out');
    const r = run(['resample', join(dir, 'in', 'kila_layoutB.nax2'), '--fps', '25', '--to', 'json', '--out', out, '--skeleton', fixturePath('nebula', 'kila.n2')]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'kila_layoutB.json'), 'utf8')).toContain('"one"'); // the clip name from kila.n2's .setclip
  });
});
