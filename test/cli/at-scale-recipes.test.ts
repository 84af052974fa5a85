// Issue 20: the README's "At scale" recipes, tried on this machine as far as it allows: the GNU
// parallel and xargs lines as written; the Kubernetes Job checked against the Kubernetes schema and
// its pods' command run for every completion index; the CI matrix's run steps per matrix value and
// the merge job's; the report-merging lines. Each ends with the files of one unsharded run.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ReportLine } from '../../src/cli/batch-report.js';
import { OUTPUT_LOG } from '../../src/cli/output-log.js';
import { CLI, ROOT, tmp, tree } from '../helpers/cli.js';
import { readmeBlocks } from '../helpers/readme-blocks.js';

const README = join(ROOT, 'README.md');
const block = (section: string, language: string) => {
  const found = readmeBlocks(README, language).filter((b) => b.section === section);
  expect(found, `one ${language} block under "${section}"`).toHaveLength(1);
  return found[0]!.code;
};
const have = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
if (process.env.CI === 'true') for (const tool of ['parallel', 'jq']) if (!have(tool)) throw new Error(`${tool} is not installed (.ci/run installs it)`);

/** A work folder with `anims/` (the examples and copies of them), `bin/animcore` running dist/cli.js, and the unsharded run's files. */
function workFolder(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tmp('recipes');
  cpSync(join(ROOT, 'examples'), join(dir, 'anims'), { recursive: true });
  for (let i = 0; i < 6; i++) copyFileSync(join(ROOT, 'examples', 'nebula', 'wave.nax3'), join(dir, 'anims', 'nebula', `wave-${i}.nax3`));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'animcore'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(dir, 'bin', 'animcore'), 0o755);
  return { dir, env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` } };
}

/** Runs shell code in `cwd`; its exit status and output. */
/** `out`: stdout and stderr, for messages; `stdout` alone for values (a loaded machine's bash may warn on stderr, e.g. "fork: retry"). */
function sh(code: string, cwd: string, env: NodeJS.ProcessEnv): { status: number | null; out: string; stdout: string } {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', code], { cwd, env, encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, out: r.stdout + r.stderr, stdout: r.stdout };
}

/** The files under `out` without the output log. */
function outputs(out: string): Map<string, Buffer> {
  const files = tree(out);
  files.delete(OUTPUT_LOG);
  return files;
}

const inputLines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => 'input' in l) as ReportLine[];

// Each test runs the CLI several times over the examples: more than the default minute on a loaded machine.
describe('README "At scale" recipes', { timeout: 180_000 }, () => {
  const { dir, env } = workFolder();
  let expected: Map<string, Buffer>;

  beforeAll(() => {
    execFileSync('animcore', ['resample', 'anims', '--fps', '30', '--out', 'whole', '--quiet'], { cwd: dir, env });
    expected = outputs(join(dir, 'whole'));
    expect(expected.size).toBe(9);
  });

  it.skipIf(!have('parallel'))('GNU parallel and xargs, one host: the shards write the unsharded files; run again, they resume', () => {
    const [parallel, xargs] = block('GNU parallel or xargs', 'sh').trimEnd().split('\n');
    for (const line of [parallel!, xargs!]) {
      const run = tmp('recipe-run');
      cpSync(join(dir, 'anims'), join(run, 'anims'), { recursive: true });
      const r = sh(line, run, env);
      expect(r.status, r.out).toBe(0);
      expect(outputs(join(run, 'out'))).toEqual(expected);
      const again = sh(line, run, env);
      expect(again.status, again.out).toBe(0);
      const lines = [0, 1, 2, 3].flatMap((i) => inputLines(join(run, `report-${i}.jsonl`)));
      expect(lines.filter((l) => l.status === 'unchanged')).toHaveLength(9);
    }
  });

  it('Kubernetes Indexed Job: a valid batch/v1 Job whose pods, one per completion index, write the unsharded files', () => {
    const manifest = parse(block('Kubernetes Indexed Job', 'yaml'));
    new Job(manifest).validate(); // throws naming the field the Kubernetes schema refuses
    expect(manifest.spec).toMatchObject({ completionMode: 'Indexed' });
    const [container] = manifest.spec.template.spec.containers;
    const volume = join(dir, 'volume');
    cpSync(join(dir, 'anims'), join(volume, 'anims'), { recursive: true });
    mkdirSync(join(volume, 'reports'));
    const command = (container.command as string[]).map((a) => a.replaceAll('/data', volume));
    for (let index = 0; index < manifest.spec.completions; index++) {
      const r = spawnSync(command[0]!, command.slice(1), { env: { ...env, JOB_COMPLETION_INDEX: String(index) }, encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    }
    expect(outputs(join(volume, 'out'))).toEqual(expected);
    const reports = readdirSync(join(volume, 'reports'));
    expect(reports).toHaveLength(manifest.spec.completions);
    expect(reports.flatMap((f) => inputLines(join(volume, 'reports', f))).filter((l) => l.status === 'converted')).toHaveLength(9);
  });

  it.skipIf(!have('jq'))('CI matrix: each job of the matrix, its artifacts downloaded together, then the merge job', () => {
    const workflow = parse(block('CI matrix (GitHub Actions)', 'yaml'));
    const merged = tmp('recipe-merged');
    const runSteps = (steps: { run?: string }[], cwd: string, vars: Record<string, string>) => {
      // Installing animcore from the registry is the one step not tried here (bin/animcore stands in).
      for (const step of steps.filter((s) => s.run !== undefined && !s.run.startsWith('npm install'))) {
        const code = step.run!.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => vars[name] ?? `<${name}?>`);
        const r = sh(code, cwd, env);
        expect(r.status, `${code}\n${r.out}`).toBe(0);
      }
    };
    for (const shard of workflow.jobs.resample.strategy.matrix.shard as number[]) {
      const job = tmp('recipe-job');
      cpSync(join(dir, 'anims'), join(job, 'anims'), { recursive: true }); // actions/checkout
      runSteps(workflow.jobs.resample.steps, job, { 'matrix.shard': String(shard) });
      // actions/upload-artifact + download-artifact with merge-multiple: the paths land in one folder (hidden files stay behind).
      cpSync(join(job, 'out'), join(merged, 'out'), { recursive: true, filter: (src) => !src.endsWith(OUTPUT_LOG) });
      copyFileSync(join(job, `report-${shard}.jsonl`), join(merged, `report-${shard}.jsonl`));
    }
    runSteps(workflow.jobs.merge.steps, merged, {});
    expect(tree(join(merged, 'out'))).toEqual(expected);
    expect(inputLines(join(merged, 'report.jsonl')).filter((l) => l.status === 'converted')).toHaveLength(9);
  });

  it.skipIf(!have('jq'))("merging the shards' reports: every input once, the totals, the failures", () => {
    const run = tmp('recipe-merge');
    cpSync(join(dir, 'anims'), join(run, 'anims'), { recursive: true });
    writeFileSync(join(run, 'anims', 'broken.nax3'), 'not a nax3');
    for (let i = 0; i < 4; i++) {
      // Exit 1 is the broken file's shard; anything else (a crash, a signal) would leave a report without its summary.
      const shard = spawnSync('animcore', ['resample', 'anims', '--fps', '30', '--out', 'out', '--shard', `${i}/4`, '--report', `report-${i}.jsonl`, '--quiet'], { cwd: run, env, encoding: 'utf8' });
      expect([0, 1], `shard ${i}/4: ${shard.stderr}`).toContain(shard.status);
    }
    const [gather, totals, failures] = block("Merging the shards' reports", 'sh').trimEnd().split('\n');
    expect(sh(gather!, run, env).status).toBe(0);
    const summed = sh(totals!, run, env);
    expect(summed.status, summed.out).toBe(0);
    const lines = inputLines(join(run, 'report.jsonl'));
    expect(new Set(lines.map((l) => l.input)).size).toBe(lines.length);
    expect(lines.map((l) => l.input).sort()).toEqual(
      ['anims/aaf/teapot-man.anim.aaf', 'anims/aaf/teapot-man.scene.aaf', 'anims/broken.nax3', 'anims/mrtk/hand-wave.bin', 'anims/nebula/wave.nax3', ...[0, 1, 2, 3, 4, 5].map((i) => `anims/nebula/wave-${i}.nax3`)].sort(),
    );
    expect(JSON.parse(summed.stdout), summed.out).toEqual({ files: 10, converted: 9, unchanged: 0, failed: 1, skipped: 0, ignored: 1 });
    expect(sh(failures!, run, env).stdout).toMatch(/^anims\/broken\.nax3: unknown-format: no format recognises its content; read as nebula/);
  });
});
