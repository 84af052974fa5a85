// Issue 13 items 8–13: the CLI never loses or silently replaces a file, reads only regular files,
// and reports odd inputs for their path while the batch goes on. Through the built binary.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it, vi } from 'vitest';
import { batchProgress } from '../../src/cli/batch-progress.js';
import { summarise, summaryText } from '../../src/cli/batch-summary.js';
import { convertFile } from '../../src/cli/convert-file.js';
import { createCore } from '../helpers/core.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');
const WAVE = join(root, 'examples', 'nebula', 'wave.nax3');

/** Runs the binary; `limitKiB` caps the size of files it may write (`ulimit -f`). Never hangs the suite. */
function animcore(args: string[], limitKiB?: number): { status: number | null; stdout: string; stderr: string } {
  const r =
    limitKiB === undefined
      ? spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: root, timeout: 30_000 })
      : spawnSync('bash', ['-c', `ulimit -f ${limitKiB}; exec "$0" "$@"`, process.execPath, CLI, ...args], { encoding: 'utf8', cwd: root, timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tmp = (name: string) => mkdtempSync(join(tmpdir(), `animcore-${name}-`));
const files = (dir: string) => readdirSync(dir).sort();

describe('8. outputs are replaced atomically', () => {
  it('a write that fails half-way (ulimit -f) leaves the old output and no temporary file', () => {
    const out = tmp('atomic');
    expect(animcore(['resample', WAVE, '--fps', '10', '--out', out]).status).toBe(0);
    const before = readFileSync(join(out, 'wave.glb'));
    const r = animcore(['resample', WAVE, '--fps', '240', '--tolerance', '0', '--out', out, '--force'], 8); // every baked key: a large file
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAILED .*wave\.nax3: EFBIG: the file is too large to write/);
    expect(readFileSync(join(out, 'wave.glb'))).toEqual(before);
    expect(files(out)).toEqual(['.animcore-outputs.jsonl', 'wave.glb']);
  });

  it('--to gltf: when the .bin cannot be written, neither the .gltf nor the .bin is replaced', () => {
    const out = tmp('atomic-gltf');
    expect(animcore(['resample', WAVE, '--fps', '10', '--to', 'gltf', '--out', out]).status).toBe(0);
    const gltf = readFileSync(join(out, 'wave.gltf'));
    const bin = readFileSync(join(out, 'wave.bin'));
    const r = animcore(['resample', WAVE, '--fps', '240', '--to', 'gltf', '--tolerance', '0', '--out', out, '--force'], 8); // the new .gltf fits, the .bin not
    expect(r.status).toBe(1);
    expect(readFileSync(join(out, 'wave.gltf'))).toEqual(gltf);
    expect(readFileSync(join(out, 'wave.bin'))).toEqual(bin);
    expect(files(out)).toEqual(['.animcore-outputs.jsonl', 'wave.bin', 'wave.gltf']);
  });
});

describe('9. collisions are decided before writing', () => {
  it('dir1/x.nax3 and dir2/x.nax3 (as files, or as folders with --jobs 2, even with --force) are refused up front, naming both', () => {
    const dir = tmp('collide');
    for (const d of ['dir1', 'dir2']) {
      mkdirSync(join(dir, d));
      cpSync(WAVE, join(dir, d, 'x.nax3'));
    }
    const out = join(dir, 'out');
    for (const args of [
      [join(dir, 'dir1', 'x.nax3'), join(dir, 'dir2', 'x.nax3'), '--force'],
      [join(dir, 'dir1'), join(dir, 'dir2'), '--jobs', '2', '--force'],
    ]) {
      const r = animcore(['resample', ...args, '--fps', '30', '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(join(dir, 'dir1', 'x.nax3'));
      expect(r.stderr).toContain(join(dir, 'dir2', 'x.nax3'));
      expect(r.stderr).toMatch(/both write/);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('a.nax2, a.nax3 and a.nax2.nax3 in one folder get three outputs', () => {
    const dir = tmp('names');
    for (const name of ['a.nax2', 'a.nax3', 'a.nax2.nax3']) cpSync(WAVE, join(dir, name));
    const out = join(tmp('names-out'), 'out');
    const r = animcore(['resample', dir, '--fps', '30', '--to', 'json', '--out', out, '--force', '--jobs', '2']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(files(out)).toEqual(['.animcore-outputs.jsonl', 'a.nax2.json', 'a.nax2.nax3.json', 'a.nax3.json']);
  });

  it('--to gltf never replaces an unrelated x.bin beside the output, even with --force', () => {
    const out = tmp('bin');
    writeFileSync(join(out, 'wave.bin'), 'my own data');
    const plain = animcore(['resample', WAVE, '--fps', '30', '--to', 'gltf', '--out', out]);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/^skipped .*wave\.nax3: .*wave\.bin exists \(--force replaces it\)/m);
    const forced = animcore(['resample', WAVE, '--fps', '30', '--to', 'gltf', '--out', out, '--force']);
    expect(forced.status).toBe(1);
    expect(forced.stdout).toMatch(/wave\.bin exists and is no output of an earlier animcore run; not replaced/);
    expect(readFileSync(join(out, 'wave.bin'), 'utf8')).toBe('my own data');
    expect(existsSync(join(out, 'wave.gltf'))).toBe(false);
  });

  it('--force replaces outputs of earlier runs', () => {
    const out = tmp('force');
    expect(animcore(['resample', WAVE, '--fps', '10', '--to', 'gltf', '--out', out]).status).toBe(0);
    const bin = readFileSync(join(out, 'wave.bin'));
    expect(animcore(['resample', WAVE, '--fps', '60', '--to', 'gltf', '--out', out, '--force']).status).toBe(0);
    expect(readFileSync(join(out, 'wave.bin')).length).toBeGreaterThan(bin.length);
  });
});

describe('10. only regular files are read', () => {
  it('a FIFO, named or met while walking a folder, is refused for its path; the batch goes on', () => {
    const dir = tmp('fifo');
    cpSync(WAVE, join(dir, 'wave.nax3'));
    expect(spawnSync('mkfifo', [join(dir, 'pipe.nax3')]).status).toBe(0);
    const named = animcore(['info', join(dir, 'pipe.nax3')]);
    expect(named.status).toBe(1);
    expect(named.stderr).toMatch(/pipe\.nax3: is a named pipe \(FIFO\), not a regular file/);
    const walked = animcore(['resample', dir, '--fps', '30', '--out', join(dir, 'out')]);
    expect(walked.status).toBe(1);
    expect(walked.stdout).toMatch(/FAILED .*pipe\.nax3: .*named pipe/);
    expect(walked.stdout).toMatch(/^ok .*wave\.nax3/m);
  });

  it('devices are refused, and files over the size limit before any byte is read', () => {
    expect(animcore(['info', '/dev/zero']).stderr).toMatch(/\/dev\/zero: is a device, not a regular file/);
    const dir = tmp('size');
    const sparse = join(dir, 'huge.nax3');
    writeFileSync(sparse, '');
    truncateSync(sparse, 1024 ** 3); // 1 GiB, sparse
    const r = animcore(['info', sparse]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/huge\.nax3: 1\.07 GB, over the input limit of 268 MB \(raise it with --max-input-mb\)/);
    const small = join(dir, 'two-mb.nax3');
    writeFileSync(small, new Uint8Array(2 * 1024 * 1024));
    expect(animcore(['info', small, '--max-input-mb', '1']).stderr).toMatch(/over the input limit of 1.05 MB/);
    expect(animcore(['info', small, '--max-input-mb', '3']).stderr).toMatch(/not a file of any supported format/);
  });

  it('a symlink cycle in a walked folder is reported for its path; a self-referencing link is not "no such file"', () => {
    const dir = tmp('links');
    cpSync(WAVE, join(dir, 'wave.nax3'));
    symlinkSync('.', join(dir, 'loop'));
    symlinkSync('self.nax3', join(dir, 'self.nax3'));
    const out = join(tmp('links-out'), 'out');
    const r = animcore(['resample', dir, '--fps', '30', '--to', 'json', '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAILED .*self\.nax3: ELOOP: too many levels of symbolic links/);
    expect(r.stdout).toMatch(/FAILED .*loop: .*a folder already walked \(a symbolic link cycle, to /);
    expect(r.stdout.match(/^ok /gm)).toHaveLength(1);
    const direct = animcore(['resample', join(dir, 'self.nax3'), '--fps', '30', '--out', out]);
    expect(direct.stdout + direct.stderr).not.toMatch(/no such file/);
    expect(direct.stdout + direct.stderr).toMatch(/too many levels of symbolic links/);
  });

  it('a folder named x.nax3 is not "0 of 0, exit 0"', () => {
    const dir = tmp('folder-named');
    mkdirSync(join(dir, 'x.nax3'));
    const r = animcore(['resample', join(dir, 'x.nax3'), '--fps', '30', '--out', join(dir, 'out')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAILED .*x\.nax3: .*a folder with no file of a supported format/);
  });
});

describe('11–13', () => {
  it('11. --out on a path that cannot exist ends with an error', () => {
    const r = animcore(['resample', WAVE, '--fps', '30', '--out', '/proc/animcore-cannot-exist/out']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot make the folder \/proc\/animcore-cannot-exist/);
  });

  it('12. a non-animcore error inside one file is a failed result with its stack; the batch goes on', async () => {
    const core = await createCore('simd');
    const out = tmp('bug');
    const job = { input: 'bug.aaf', outputBase: join(out, 'bug'), outRoot: out, target: 'json' as const, fps: 30, tolerance: 0, up: 'y' as const, scale: 1, force: false, protectedPaths: [], recorded: {}, maxInputBytes: 1e6, maxOutputBytes: 1e8 };
    writeFileSync(join(out, '..', 'bug.aaf'), 'x');
    const r = await convertFile(core, { ...job, input: join(out, '..', 'bug.aaf'), detected: { format: 'aaf', parsed: { kind: 'scene', scene: {} } } });
    expect(r).toMatchObject({ status: 'failed', errorName: 'TypeError', reason: expect.stringMatching(/^internal error \(a bug in animcore, please report it\): /) });
    expect(r.stack).toMatch(/TypeError/);
    // --verbose prints the stack under the file's line; the summary says it was a bug.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      batchProgress(1, 'verbose', false).done(r);
      expect(log.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/^FAILED .*bug\.aaf: TypeError: internal error[^\n]*\n {2}TypeError: /);
    } finally {
      log.mockRestore();
    }
    expect(summaryText(summarise([r], 0), true)).toMatch(/^files: 0 of 1 converted, 1 failed \(1 by an internal error: please report it\)/);
  });

  it('13. .gltf buffer URIs are percent-encoded, so a # or space in the name still loads', async () => {
    const dir = tmp('uri');
    const input = join(dir, 'my #1 wave.nax3');
    cpSync(WAVE, input);
    const out = join(dir, 'out');
    expect(animcore(['resample', input, '--fps', '30', '--to', 'gltf', '--out', out]).status).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'my #1 wave.gltf'), 'utf8'));
    expect(json.buffers[0].uri).toBe('my%20%231%20wave.bin');
    expect(existsSync(join(out, 'my #1 wave.bin'))).toBe(true);
    const doc = await new NodeIO().read(join(out, 'my #1 wave.gltf'));
    expect(doc.getRoot().listAnimations()).toHaveLength(1);
  });
});
