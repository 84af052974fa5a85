// Issue 20, `--shard i/n`: a stable hash of each input's path below its walk root splits a batch
// into disjoint parts that together are the whole batch, and adding a file moves no other file.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PlannedFile, planResample, type ResampleCommandOptions } from '../../src/cli/resample.js';
import { parseShard, type Shard, shardFromEnvironment, shardOf } from '../../src/cli/shard.js';
import { UsageError } from '../../src/errors.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WAVE = join(ROOT, 'examples', 'nebula', 'wave.nax3');
const HAND = join(ROOT, 'examples', 'mrtk', 'hand-wave.bin');

describe('shardOf', () => {
  it('is the first 48 bits of the SHA-256 of the NFC path, mod n (values from `printf %s KEY | sha256sum`)', () => {
    // sha256("nebula/wave.nax3") starts abc141b61d1b; ("mrtk/hand-wave.bin") e0376612eb07; ("a/ü.nax3", NFC) 7e5a2664f6b1.
    expect([4, 7, 1000].map((n) => shardOf('nebula/wave.nax3', n))).toEqual([3, 6, 867]);
    expect([4, 7, 1000].map((n) => shardOf('mrtk/hand-wave.bin', n))).toEqual([3, 3, 951]);
    expect([4, 7, 1000].map((n) => shardOf('a/ü.nax3', n))).toEqual([1, 2, 377]);
    expect(shardOf('a/ü.nax3'.normalize('NFD'), 1000)).toBe(377); // macOS spells the name decomposed
  });

  it('puts every path in exactly one shard in 0 … n-1', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, unit: 'grapheme' }), { maxLength: 60 }), fc.integer({ min: 1, max: 64 }), (keys, n) => {
        const shards = Array.from({ length: n }, (_, i) => keys.filter((k) => shardOf(k, n) === i));
        expect(shards.flat().sort()).toEqual([...keys].sort());
        for (const k of keys) expect(shardOf(k, n)).toBe(shardOf(k, n));
      }),
    );
  });

  it('parses --shard i/n and --shard-count n with JOB_COMPLETION_INDEX, refusing what is out of range', () => {
    expect(parseShard('2/8')).toEqual({ index: 2, count: 8 });
    expect(parseShard(' 0 / 1 ')).toEqual({ index: 0, count: 1 });
    for (const bad of ['8/8', '-1/4', '1/0', '1', 'a/b', '1.5/4', '1/4/2', '']) expect(() => parseShard(bad)).toThrow(UsageError);
    expect(shardFromEnvironment('4', { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 3, count: 4 });
    expect(() => shardFromEnvironment('4', {})).toThrow(/JOB_COMPLETION_INDEX/);
    expect(() => shardFromEnvironment('4', { JOB_COMPLETION_INDEX: '4' })).toThrow(/below --shard-count 4/);
    expect(() => shardFromEnvironment('0', { JOB_COMPLETION_INDEX: '0' })).toThrow(/--shard-count takes/);
  });
});

/** A folder of inputs at the given relative paths (wave.nax3 or hand-wave.bin contents). */
function folderOf(paths: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'animcore-shard-'));
  paths.forEach((p, i) => {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    copyFileSync(i % 2 === 0 ? WAVE : HAND, join(dir, p));
  });
  return dir;
}

const options = (out: string, shard?: Shard): ResampleCommandOptions => ({ fps: 30, to: 'glb', out, jobs: 1, force: false, maxInputBytes: 1e7, maxOutputBytes: 1e9, tolerance: 0, up: 'y', scale: 1, ...(shard && { shard }) });
const plans = async (dir: string, n: number) => Promise.all(Array.from({ length: n }, (_, i) => planResample([dir], options(join(dir, '..', 'out'), { index: i, count: n }))));
const inputsOf = (plan: PlannedFile[]) => plan.map((p) => p.input);

describe('--shard over a folder walk', () => {
  // Names in up to two folder levels, with the characters that differ between systems.
  const name = fc.stringMatching(/^[a-zA-Z0-9 _ü#-]{1,8}$/);
  const relPath = fc.tuple(fc.array(fc.constantFrom('a', 'b', 'Ö'), { maxLength: 2 }), name, fc.constantFrom('.nax3', '.bin')).map(([dirs, n, ext]) => [...dirs, n + ext].join('/'));
  const files = fc.uniqueArray(relPath, { minLength: 1, maxLength: 12, selector: (p) => p.toLowerCase() });

  it('is disjoint and complete: the shards together plan exactly the unsharded batch, each output once', async () => {
    await fc.assert(
      fc.asyncProperty(files, fc.integer({ min: 1, max: 5 }), async (paths, n) => {
        const dir = folderOf(paths);
        const whole = await planResample([dir], options(join(dir, '..', 'out')));
        const parts = await plans(dir, n);
        expect(parts.flat().map((p) => p.input).sort()).toEqual(inputsOf(whole).sort());
        expect(parts.flat().sort((a, b) => a.input.localeCompare(b.input))).toEqual([...whole].sort((a, b) => a.input.localeCompare(b.input)));
      }),
      { numRuns: 15 },
    );
  });

  it('is stable: adding a file moves no other file to another shard', async () => {
    await fc.assert(
      fc.asyncProperty(files, relPath, fc.integer({ min: 2, max: 5 }), async (paths, added, n) => {
        fc.pre(!paths.some((p) => p.toLowerCase() === added.toLowerCase()));
        const dir = folderOf(paths);
        const before = (await plans(dir, n)).map(inputsOf);
        mkdirSync(dirname(join(dir, added)), { recursive: true });
        copyFileSync(WAVE, join(dir, added));
        const after = (await plans(dir, n)).map(inputsOf);
        after.forEach((inputs, i) => expect(inputs.filter((p) => p !== join(dir, added))).toEqual(before[i]));
        expect(after.flat()).toContain(join(dir, added));
      }),
      { numRuns: 15 },
    );
  });

  it('hashes the path below the walk root, so the same tree in another place shards the same', async () => {
    const paths = ['a/one.nax3', 'a/two.bin', 'b/three.nax3', 'four.bin', 'five.nax3', 'b/Ö/six.nax3'];
    const [x, y] = [folderOf(paths), folderOf(paths)];
    const [px, py] = [await plans(x, 3), await plans(y, 3)];
    expect(py.map((p) => inputsOf(p).map((i) => i.slice(y.length)))).toEqual(px.map((p) => inputsOf(p).map((i) => i.slice(x.length))));
  });

  it('decides collisions over the whole batch: a shard refuses what the whole batch would', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'animcore-shard-collide-'));
    for (const d of ['dir1', 'dir2']) {
      mkdirSync(join(dir, d));
      copyFileSync(WAVE, join(dir, d, 'x.nax3'));
    }
    writeFileSync(join(dir, 'note.txt'), '');
    for (let i = 0; i < 4; i++) {
      await expect(planResample([join(dir, 'dir1'), join(dir, 'dir2')], options(join(dir, 'out'), { index: i, count: 4 }))).rejects.toThrow(/both write/);
    }
  });
});
