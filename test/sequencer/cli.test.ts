// `animcore sample --sequence` as a user runs it: the built binary in a child process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');
const example = join(root, 'examples/nebula/wave.nax3');

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function sequenceFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'animcore-seq-')), 'seq.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('animcore sample --sequence', () => {
  it("prints the sequence's result in the shape of one clip's sample", () => {
    const clip = JSON.parse(run('sample', example, '--time', '0.3', '--json').stdout);
    // one job at weight 0.5 under weighted τ = 0: the clip itself; fading in under weighted τ = 1 from rest
    const seq = sequenceFile({ rule: 'weighted', threshold: 0, jobs: [{ clip: 0, loops: 0, weight: 0.5 }] });
    const r = run('sample', example, '--sequence', seq, '--time', '0.3,0.3', '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(2);
    expect(out[0].clip).toBe('sequence');
    expect(out[0].curves.map((c: { target: unknown }) => c.target)).toEqual(clip.curves.map((c: { target: unknown }) => c.target));
    out[0].curves.forEach((c: { value: number[]; count: number }, i: number) => {
      expect(c.count).toBe(clip.curves[i].count);
      if (c.count > 0) c.value.forEach((v, k) => expect(Math.abs(v - clip.curves[i].value[k])).toBeLessThan(1e-5));
    });
  });

  it('refuses a bad sequence file with its JSON path, exit status 2, and --rotation raw', () => {
    const bad = sequenceFile({ jobs: [{ clip: 0 }, { clip: 0, fadeIn: -1 }] });
    const r = run('sample', example, '--sequence', bad, '--time', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('jobs[1].fadeIn: must be ≥ 0, got -1');
    expect(run('sample', example, '--sequence', bad, '--time', '0', '--rotation', 'raw').status).toBe(2);
    const missing = run('sample', example, '--sequence', join(tmpdir(), 'no-such-sequence.json'), '--time', '0');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read it');
  });
});
