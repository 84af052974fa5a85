// The command line as a new user meets it: help, version, usage errors and messages, through the
// built binary (dist/cli.js) in a child process.
import { spawnSync } from 'node:child_process';
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
    expect(r.stderr).toMatch(/unknown format "foo"; known formats: meteor, nebula, mrtk, aaf/);
  });
});
