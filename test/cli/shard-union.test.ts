// Issue 20: the n shards of a batch (`--shard i/n`, or `--shard-count n` with a Kubernetes
// JOB_COMPLETION_INDEX) write together exactly what one unsharded run writes, byte for byte, and
// their reports together hold the same lines.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportLine, ReportSummaryLine } from '../../src/cli/batch-report.js';
import { OUTPUT_LOG } from '../../src/cli/output-log.js';
import { animcore, ROOT, tmp, tree } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/fixtures.js';

// The Nebula fixtures bring same-named inputs (eagle.nax2, eagle.nanim2) whose output names are decided over the whole batch;
// the glTF fixtures bring source documents rewritten with reduced slerp, cubic and morph-weight curves, textures, and a .gltf
// whose .bin is its companion.
const SOURCES = [join(ROOT, 'examples'), ...['nebula', 'gltf'].filter((f) => existsSync(join(FIXTURES, f))).map((f) => join(FIXTURES, f))];
const N = 3;

/** A tree's files as SHA-256 (a difference shows as a short diff) without the output log, whose lines the shards append in their own order; the log's lines as a sorted list. */
function outputs(dir: string): { files: Map<string, string>; log: string[] } {
  const files = tree(dir);
  const log = files.get(OUTPUT_LOG)!.toString('utf8').trimEnd().split('\n').sort();
  files.delete(OUTPUT_LOG);
  return { files: hashes(files), log };
}

const hashes = (files: Map<string, Buffer>) => new Map([...files].map(([path, bytes]) => [path, createHash('sha256').update(bytes).digest('hex')]));

function report(path: string): { lines: ReportLine[]; summary: ReportSummaryLine['summary'] } {
  const all = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  return { lines: all.filter((l) => 'input' in l), summary: all.find((l) => 'summary' in l).summary };
}

/** What a report line says of its input, without the timing and with its output folder as `<out>`. */
const facts = (l: ReportLine, out: string) => JSON.stringify({ ...l, ms: 0 }).replaceAll(out, '<out>');

describe('shards together are one run', () => {
  const dir = tmp('union');
  const args = (out: string, reportFile: string) => ['resample', ...SOURCES, '--fps', '30', '--to', 'gltf', '--out', out, '--report', reportFile];
  let whole: ReturnType<typeof report>;

  beforeAll(() => {
    const r = animcore(args(join(dir, 'whole'), join(dir, 'whole.jsonl')));
    expect([0, 1], r.stderr).toContain(r.status);
    whole = report(join(dir, 'whole.jsonl'));
  });

  it('--shard i/n into one --out: the same files, byte for byte, and the same report lines', () => {
    const statuses = [];
    for (let i = 0; i < N; i++) {
      const r = animcore([...args(join(dir, 'shards'), join(dir, `shard-${i}.jsonl`)), '--shard', `${i}/${N}`, ...(i === 1 ? ['--jobs', '2'] : [])]);
      statuses.push(r.status);
      expect(r.stdout).toMatch(new RegExp(`^shard: ${i}/${N}$`, 'm'));
    }
    expect(outputs(join(dir, 'shards'))).toEqual(outputs(join(dir, 'whole')));
    const parts = Array.from({ length: N }, (_, i) => report(join(dir, `shard-${i}.jsonl`)));
    expect(parts.flatMap((p) => p.lines.map((l) => facts(l, join(dir, 'shards')))).sort()).toEqual(whole.lines.map((l) => facts(l, join(dir, 'whole'))).sort());
    for (const k of ['files', 'converted', 'failed', 'skipped', 'ignored', 'clips', 'keysIn', 'keysOut', 'bytesIn', 'bytesOut'] as const) {
      expect(parts.reduce((n, p) => n + p.summary[k], 0), k).toBe(whole.summary[k]);
    }
    expect(parts.map((p) => p.summary.shard)).toEqual(Array.from({ length: N }, (_, i) => `${i}/${N}`));
    expect(parts.filter((p) => p.lines.length > 0).length).toBeGreaterThan(1); // the inputs spread over shards
    expect(statuses.every((s) => s === 0 || s === 1)).toBe(true);
  });

  it('--shard-count n with JOB_COMPLETION_INDEX, each pod writing its own --out, merged afterwards', () => {
    const merged = join(dir, 'merged');
    mkdirSync(merged);
    for (let i = 0; i < N; i++) {
      const out = join(dir, `pod-${i}`);
      const r = animcore([...args(out, join(dir, `pod-${i}.jsonl`)), '--shard-count', String(N)], { env: { JOB_COMPLETION_INDEX: String(i) } });
      expect([0, 1]).toContain(r.status);
      expect(report(join(dir, `pod-${i}.jsonl`)).lines.map((l) => facts(l, out)).sort()).toEqual(report(join(dir, `shard-${i}.jsonl`)).lines.map((l) => facts(l, join(dir, 'shards'))).sort());
      const files = tree(out);
      for (const name of files.keys()) if (name !== OUTPUT_LOG) cpSync(join(out, name), join(merged, name));
      expect(files.size).toBeGreaterThan(0);
    }
    const { files } = outputs(join(dir, 'whole'));
    expect(hashes(tree(merged))).toEqual(files);
  });

  it('refuses --shard with --shard-count, and --shard-count without JOB_COMPLETION_INDEX', () => {
    const out = join(dir, 'usage');
    expect(animcore(['resample', SOURCES[0]!, '--fps', '30', '--out', out, '--shard', '0/2', '--shard-count', '2']).status).toBe(2);
    const r = animcore(['resample', SOURCES[0]!, '--fps', '30', '--out', out, '--shard-count', '2'], { env: { JOB_COMPLETION_INDEX: '' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/JOB_COMPLETION_INDEX/);
    expect(existsSync(out)).toBe(false);
  });
});
