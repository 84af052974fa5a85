// `animcore sample --sequence` and `animcore resample --sequence` as a user runs them: the built
// binary in a child process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import validator from 'gltf-validator';
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

describe('animcore resample --sequence', () => {
  // wave (2 s, one event at clip time 1) fading in and out, then wave again at twice the speed from
  // 1.5 s (the first is stopping by then) for 2 s: the sequence ends at 3.5 s.
  const sequence = { rule: 'weighted', jobs: [{ clip: 'wave', fadeIn: 0.5, fadeOut: 0.5 }, { clip: 0, at: 1.5, timeFactor: 2, fadeIn: 0.5 }] };
  const out = () => mkdtempSync(join(tmpdir(), 'animcore-seq-out-'));

  it('bakes one clip "sequence" from 0 to the end of the last job, equal to sample --sequence at every key', () => {
    const seq = sequenceFile(sequence);
    const dir = out();
    const r = run('resample', example, '--sequence', seq, '--fps', '30', '--to', 'json', '--tolerance', '0', '--out', dir);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'wave.json'), 'utf8'));
    expect(json.clips.map((c: { name: string }) => c.name)).toEqual(['sequence']);
    const clip = json.clips[0];
    expect(clip.duration).toBeCloseTo(3.5, 6);
    // The event at clip time 0.48: at 0.48 s in the first job; the second (twice as fast, its
    // cycling clip repeating) reaches it at 1.5 + 0.48 / 2 and 1.5 + (2 + 0.48) / 2.
    expect(clip.events.map((e: { time: number }) => e.time)).toEqual([0.48, 1.74, 2.74]);
    const frames = [0, 7, 15, 44, 45, 46, 60, 104];
    const sampled = JSON.parse(run('sample', example, '--sequence', seq, '--time', frames.map((k) => k / 30).join(','), '--json').stdout);
    frames.forEach((k, f) => {
      clip.curves.forEach((c: { times: number[]; values: number[] }, i: number) => {
        const key = c.times.length === 1 ? 0 : k;
        if (c.times.length > 1) expect(c.times[k]).toBeCloseTo(k / 30, 5);
        const want = sampled[f].curves[i].value as number[];
        const got = c.values.slice(4 * key, 4 * key + 4);
        const s = sampled[f].curves[i].type === 'rotation' && want.reduce((d, v, j) => d + v * got[j]!, 0) < 0 ? -1 : 1;
        want.forEach((v, j) => expect(Math.abs(s * v - got[j]!)).toBeLessThan(1e-6));
      });
    });
  });

  it('writes a validator-clean glb, reduced as the other exports are', async () => {
    const dir = out();
    const r = run('resample', example, '--sequence', sequenceFile(sequence), '--fps', '30', '--out', dir, '--json');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.reductions[0].clip).toBe('sequence');
    expect(summary.reductions[0].keysOut).toBeLessThan(summary.reductions[0].keysIn);
    const report = await validator.validateBytes(new Uint8Array(readFileSync(join(dir, 'wave.glb'))));
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
  });

  it('bakes --length seconds of a sequence whose job plays forever, and needs it', () => {
    const forever = sequenceFile({ jobs: [{ clip: 'wave', loops: 0 }] });
    const dir = out();
    const refused = run('resample', example, '--sequence', forever, '--fps', '10', '--to', 'json', '--out', dir);
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('plays forever');
    expect(readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual([]);
    const r = run('resample', example, '--sequence', forever, '--length', '5', '--fps', '10', '--to', 'json', '--tolerance', '0', '--out', dir);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'wave.json'), 'utf8')).clips[0].duration).toBeCloseTo(5, 6);
    expect(run('resample', example, '--length', '5', '--fps', '10', '--out', out()).status).toBe(2);
  });

  it('refuses a bad sequence file naming the JSON path, and writes nothing', () => {
    const dir = join(out(), 'never');
    const bad = run('resample', example, '--sequence', sequenceFile({ jobs: [{ clip: 0 }, { clip: 0 }, { clip: 0, fadeIn: -1 }] }), '--fps', '30', '--out', dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('jobs[2].fadeIn: must be ≥ 0, got -1');
    expect(existsSync(dir)).toBe(false);
    // What only the input can tell (its clips) fails that input, naming the path, and writes nothing.
    const unknown = run('resample', example, '--sequence', sequenceFile({ jobs: [{ clip: 'walk' }] }), '--fps', '30', '--out', dir);
    expect(unknown.status).toBe(1);
    expect(unknown.stdout + unknown.stderr).toContain('jobs[0].clip: no clip "walk"');
    expect(readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual([]);
  });
});
