// Issue 17: `npm start` shows the main job's own output; the build it may run first (the
// AssemblyScript warning, tsup's file list) stays quiet unless it fails. scripts/ensure-build.mjs
// runs here in a scratch project (no dist/, so it builds) whose `build` script only prints noise.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function scratch(buildFails: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'animcore-start-'));
  mkdirSync(join(dir, 'scripts'));
  cpSync(join(root, 'scripts', 'ensure-build.mjs'), join(dir, 'scripts', 'ensure-build.mjs'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'index.ts'), '');
  // No dist/ yet, so the script builds; what it builds does not matter here.
  const build = `echo 'WARNING AS201: Conversion from type f64 to f32 will require an explicit cast' && echo 'ESM dist/index.js 123.45 KB'${buildFails ? ' && exit 3' : ''}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, scripts: { build } }));
  return dir;
}

describe('npm start without build noise', () => {
  it('a build that succeeds says only that it built', () => {
    const r = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: scratch(false), encoding: 'utf8', env: { ...process.env, ANIMCORE_VERBOSE: '' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^animcore: building \(asc \+ tsup\)…\nanimcore: built in [\d.]+ s\n$/);
    expect(r.stderr).not.toMatch(/AS201|ESM dist/);
  });

  it('a build that fails shows its output and the status', () => {
    const r = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: scratch(true), encoding: 'utf8', env: { ...process.env, ANIMCORE_VERBOSE: '' } });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/AS201/);
    expect(r.stderr).toMatch(/animcore: the build failed/);
  });
});
