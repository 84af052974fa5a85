// Running the built `animcore` command as a user would, and reading what it wrote.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `dist/cli.js` with `args` in the repository root (or `cwd`), with extra environment variables; never hangs the suite. */
export function animcore(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh temporary folder. */
export function tmp(name: string): string {
  return mkdtempSync(join(tmpdir(), `animcore-${name}-`));
}

/** Every file under `dir` as relative path → bytes. */
export function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}
