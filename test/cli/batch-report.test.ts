// Issue 20, `--report FILE.jsonl`: one JSON line per input with what was read and written (SHA-256
// of each file), counts and the reason of every failure or skip, then the summary.
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReportLine, ReportSummaryLine } from '../../src/cli/batch-report.js';
import { animcore, ROOT, tmp } from '../helpers/cli.js';

const EXAMPLES = join(ROOT, 'examples');
const WAVE = join(EXAMPLES, 'nebula', 'wave.nax3');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function read(path: string): { lines: ReportLine[]; summary: ReportSummaryLine['summary'] } {
  const text = readFileSync(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const all = text.trimEnd().split('\n').map((l) => JSON.parse(l) as ReportLine | ReportSummaryLine);
  expect('summary' in all.at(-1)!).toBe(true); // the summary comes last, once
  expect(all.slice(0, -1).every((l) => 'input' in l)).toBe(true);
  return { lines: all.slice(0, -1) as ReportLine[], summary: (all.at(-1) as ReportSummaryLine).summary };
}

describe('--report', () => {
  it('writes a line per input that matches what was read and written, and a summary equal to --json', () => {
    const dir = tmp('report');
    cpSync(EXAMPLES, join(dir, 'in'), { recursive: true });
    writeFileSync(join(dir, 'in', 'nebula', 'broken.nax3'), readFileSync(WAVE).subarray(0, 100));
    writeFileSync(join(dir, 'in', 'notes.md'), '# notes');
    mkdirSync(join(dir, 'out', 'mrtk'), { recursive: true });
    writeFileSync(join(dir, 'out', 'mrtk', 'hand-wave.gltf'), 'already here'); // that input is skipped: its output exists
    const report = join(dir, 'report.jsonl');
    const r = animcore(['resample', join(dir, 'in'), '--fps', '30', '--to', 'gltf', '--out', join(dir, 'out'), '--report', report, '--json', '--jobs', '2']);
    expect(r.status).toBe(1);
    const { lines, summary } = read(report);
    const by = new Map(lines.map((l) => [l.input.slice(join(dir, 'in').length + 1), l]));
    expect([...by.keys()].sort()).toEqual(['aaf/teapot-man.anim.aaf', 'aaf/teapot-man.scene.aaf', 'mrtk/hand-wave.bin', 'nebula/broken.nax3', 'nebula/wave.nax3', 'notes.md']);

    for (const name of ['aaf/teapot-man.scene.aaf', 'nebula/wave.nax3']) {
      const l = by.get(name)!;
      expect(l).toMatchObject({ status: 'converted', reason: null, sha256: sha(join(dir, 'in', name)), companions: name.startsWith('aaf') ? [{ path: join(dir, 'in', 'aaf', 'teapot-man.anim.aaf'), sha256: sha(join(dir, 'in', 'aaf', 'teapot-man.anim.aaf')) }] : [] });
      expect(l.outputs.map((o) => o.path.slice(join(dir, 'out').length + 1))).toEqual([name.replace(/\.[^.]*$/, '.gltf'), name.replace(/\.[^.]*$/, '.bin')]);
      for (const o of l.outputs) expect(o.sha256).toBe(sha(o.path));
      expect(l.bytesIn).toBe(readFileSync(join(dir, 'in', name)).length);
      expect(l.bytesOut).toBe(l.outputs.reduce((n, o) => n + readFileSync(o.path).length, 0));
      expect(l.clips).toBeGreaterThan(0);
      expect(l.keysOut).toBeGreaterThan(0);
      expect(l.ms).toBeGreaterThan(0);
      expect(l.options).toEqual({ animcore: expect.any(String), companions: {}, fps: 30, scale: 1, to: 'gltf', tolerance: { other: 1e-4, rotation: Math.PI / 1800, scale: 1e-4, translation: 1e-4 }, up: 'y' }); // the tolerances in effect
      expect(l.reductions.map((r) => r.clip)).toHaveLength(l.clips);
    }
    expect(by.get('nebula/broken.nax3')).toMatchObject({ status: 'failed', reason: { error: 'FormatError', code: 'truncated', message: expect.stringMatching(/^nax3: .*\(at byte \d+\)$/) }, outputs: [] });
    expect(by.get('mrtk/hand-wave.bin')).toMatchObject({ status: 'skipped', reason: { code: 'output-exists', message: expect.stringMatching(/hand-wave\.gltf exists/) } });
    expect(by.get('aaf/teapot-man.anim.aaf')).toMatchObject({ status: 'skipped', reason: { code: 'companion', message: 'companion of teapot-man.scene.aaf (animation)' } });
    expect(by.get('notes.md')).toMatchObject({ status: 'skipped', reason: { code: 'unknown-extension' } });

    const { seconds: _, ...totals } = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ ...Object.fromEntries(Object.entries(totals).filter(([k]) => !['failures', 'skips', 'notes', 'reductions'].includes(k))), shard: null });
    expect(summary).toMatchObject({ files: 4, converted: 2, failed: 1, skipped: 1, ignored: 2 });
    const converted = lines.filter((l) => l.status === 'converted');
    for (const k of ['clips', 'keysIn', 'keysOut', 'bytesIn', 'bytesOut'] as const) expect(summary[k]).toBe(converted.reduce((n, l) => n + l[k], 0));
  });

  it('is never written over an input or an output of the batch', () => {
    const dir = tmp('report-clash');
    copyFileSync(WAVE, join(dir, 'wave.nax3'));
    const before = readFileSync(join(dir, 'wave.nax3'));
    for (const target of [join(dir, 'wave.nax3'), join(dir, 'out', 'wave.glb')]) {
      const r = animcore(['resample', dir, '--fps', '30', '--out', join(dir, 'out'), '--report', target]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--report .* would replace an (input|output of .*wave\.nax3); choose another file/);
    }
    expect(readFileSync(join(dir, 'wave.nax3'))).toEqual(before);
  });
});
