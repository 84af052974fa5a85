import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnimCore } from '../../src/core/index.js';
import { resolveBuild } from '../../src/core/load-module.js';
import { UsageError } from '../../src/errors.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmPath = (build: string) => join(root, 'build', `animcore-${build}.wasm`);

describe('loading the WebAssembly core', () => {
  afterEach(() => vi.restoreAllMocks());

  it('picks SIMD on a host that validates it and falls back to scalar otherwise', async () => {
    expect(await resolveBuild('auto')).toBe('simd');
    vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    expect(await resolveBuild('auto')).toBe('scalar');
    expect(await resolveBuild('simd')).toBe('simd');
  });

  it('accepts bytes, an ArrayBuffer, a compiled module and a file path', async () => {
    const bytes = readFileSync(wasmPath('scalar'));
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    for (const wasm of [bytes, ab, new WebAssembly.Module(bytes), wasmPath('scalar')]) {
      const core = await AnimCore.create({ wasm });
      expect(core.simd).toBe(false);
    }
    await expect(AnimCore.create({ wasm: 42 as never })).rejects.toBeInstanceOf(UsageError);
  });

  it('loads the packaged builds from dist/ in ESM and CommonJS, without top-level await', () => {
    const esm = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "import {AnimCore} from './dist/index.js'; const a = await AnimCore.create(); const b = await AnimCore.create({build:'scalar'}); console.log(a.simd, b.simd)"],
      { cwd: root, encoding: 'utf8' },
    );
    expect(esm.trim()).toBe('true false');
    const cjs = execFileSync(process.execPath, ['-e', "require('./dist/index.cjs').AnimCore.create().then(c => console.log(c.simd))"], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(cjs.trim()).toBe('true');
  });

  // A light install: each build stays under 128 KiB (64 KiB until session 7, 96 KiB until session 10; ARCHITECTURE.md).
  it('keeps each build under 128 KiB', () => {
    for (const build of ['simd', 'scalar']) expect(statSync(wasmPath(build)).size).toBeLessThan(128 * 1024);
  });
});
