// Issue 20, `--resume FILE.jsonl`: a batch killed at any point (a real SIGKILL of the command)
// and run again with --resume ends with the files of an uninterrupted run, byte for byte; inputs
// the report says were converted, with nothing changed since, are `unchanged`, and everything
// else is done again.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportLine } from '../../src/cli/batch-report.js';
import { OUTPUT_LOG } from '../../src/cli/output-log.js';
import { animcore, CLI, ROOT, tmp, tree } from '../helpers/cli.js';

const EXAMPLES = join(ROOT, 'examples');

/** 16 Nebula, 8 MRTK and 2 AAF scene + animation inputs in three folders, a broken file and a note. */
function inputs(): string {
  const dir = tmp('resume-in');
  for (const d of ['a', 'b', 'c']) mkdirSync(join(dir, d));
  for (let i = 0; i < 16; i++) copyFileSync(join(EXAMPLES, 'nebula', 'wave.nax3'), join(dir, 'a', `wave${i}.nax3`));
  for (let i = 0; i < 8; i++) copyFileSync(join(EXAMPLES, 'mrtk', 'hand-wave.bin'), join(dir, 'b', `hand${i}.bin`));
  for (let i = 0; i < 2; i++) {
    copyFileSync(join(EXAMPLES, 'aaf', 'teapot-man.scene.aaf'), join(dir, 'c', `teapot${i}.scene.aaf`));
    copyFileSync(join(EXAMPLES, 'aaf', 'teapot-man.anim.aaf'), join(dir, 'c', `teapot${i}.anim.aaf`));
  }
  writeFileSync(join(dir, 'a', 'broken.nax3'), readFileSync(join(EXAMPLES, 'nebula', 'wave.nax3')).subarray(0, 300));
  writeFileSync(join(dir, 'notes.txt'), 'not an animation');
  return dir;
}

/** Inputs of `inputs()` that convert. */
const CONVERTED = 26;

const resample = (input: string, out: string, report: string, ...more: string[]) => ['resample', input, '--fps', '30', '--to', 'gltf', '--out', out, '--report', report, ...more];

/** The files a run leaves, without the output log (its lines are in the order things happened). */
function outputs(out: string): Map<string, Buffer> {
  const files = tree(out);
  files.delete(OUTPUT_LOG);
  return files;
}

function lines(report: string): ReportLine[] {
  if (!existsSync(report)) return [];
  const text = readFileSync(report, 'utf8');
  expect(text === '' || text.endsWith('\n'), 'the report ends with a whole line').toBe(true);
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)).filter((l) => 'input' in l); // every line parses
}

/** Runs the command and SIGKILLs it after `ms` milliseconds, or once its report holds `lines` lines; resolves with the signal it ended by. */
function killedRun(args: string[], report: string, when: { ms: number } | { lines: number }): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: 'ignore' });
  const ended = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
  if ('ms' in when) {
    setTimeout(() => child.kill('SIGKILL'), when.ms);
  } else {
    const poll = setInterval(() => {
      const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
      if (text.split('\n').length - 1 >= when.lines) {
        child.kill('SIGKILL');
        clearInterval(poll);
      }
    }, 1);
    void ended.then(() => clearInterval(poll));
  }
  return ended;
}

describe('--resume after a SIGKILL', () => {
  const input = inputs();
  /** The files of an uninterrupted run with the conversion options `options`. */
  const references = new Map<string, Map<string, Buffer>>();
  const expected = (options: string[]) => {
    const key = options.join(' ');
    if (!references.has(key)) {
      const reference = join(tmp('resume-ref'), 'out');
      const r = animcore(resample(input, reference, join(reference, '..', 'r.jsonl'), ...options));
      expect(r.status, r.stdout + r.stderr).toBe(1); // broken.nax3
      references.set(key, outputs(reference));
    }
    return references.get(key)!;
  };

  beforeAll(() => {
    expect(expected([]).size).toBe(2 * CONVERTED);
  });

  // The export options (axes, scale, reduction tolerances) travel to the workers and into the report's options.
  const EXPORT = ['--up', 'z', '--scale', '0.01', '--angle-tolerance', '1'];
  const points: [string, { ms: number } | { lines: number }, string[], string[]][] = [
    ['while starting', { ms: 5 }, [], []],
    ['after the walk', { lines: 1 }, [], []],
    ['after 8 lines', { lines: 8 }, [], []],
    ['after 6 lines, --jobs 2', { lines: 6 }, ['--jobs', '2'], []],
    ['after 18 lines, --jobs 2', { lines: 18 }, ['--jobs', '2'], []],
    ['after 10 lines, --jobs 2 --up z --scale 0.01 --angle-tolerance 1', { lines: 10 }, ['--jobs', '2'], EXPORT],
  ];
  it.each(points)('killed %s: the resumed run ends with the uninterrupted files', async (_name, when, jobs, options) => {
    const out = join(tmp('resume-out'), 'out');
    const report = join(out, '..', 'report.jsonl');
    const more = [...jobs, ...options];
    expect(await killedRun(resample(input, out, report, ...more), report, when)).toBe('SIGKILL');
    const before = lines(report);
    const done = before.filter((l) => l.status === 'converted').map((l) => l.input);
    const r = animcore(resample(input, out, report, '--resume', report, ...more));
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(outputs(out)).toEqual(expected(options)); // no temporary file left, no output missing or different
    const after = lines(report);
    expect(after.filter((l) => l.status === 'unchanged').map((l) => l.input).sort()).toEqual(done.sort());
    expect(after.filter((l) => l.status === 'converted' || l.status === 'unchanged')).toHaveLength(CONVERTED);
  });
});

describe('--resume redoes what changed', () => {
  it('lines a kill never wrote, a half-placed .gltf/.bin pair, stale temporary files, a changed input and a changed companion', () => {
    const input = inputs();
    const out = join(tmp('resume-sim'), 'out');
    const report = join(out, '..', 'report.jsonl');
    expect(animcore(resample(input, out, report)).status).toBe(1);
    const at = (name: string) => join(input, name);
    // Killed before these lines (and the summary) were written; wave5's .bin was not yet in place.
    const unwritten = [at('a/wave5.nax3'), at('a/wave6.nax3'), at('b/hand3.bin')];
    const kept = readFileSync(report, 'utf8').trimEnd().split('\n').slice(0, -1).filter((l) => !unwritten.includes(JSON.parse(l).input));
    writeFileSync(report, kept.map((l) => `${l}\n`).join(''));
    unlinkSync(join(out, 'a', 'wave5.bin'));
    writeFileSync(join(out, 'a', '.wave3.gltf.4242-0badf00d.tmp'), 'left by a killed run');
    renameSync(join(out, 'a', 'wave4.gltf'), join(out, 'a', '.wave4.gltf.4242-deadbeef.tmp')); // killed after moving the old one aside
    writeFileSync(at('b/hand0.bin'), readFileSync(join(EXAMPLES, 'nebula', 'wave.nax3'))); // the input changed: now a Nebula file
    const anim = readFileSync(at('c/teapot1.anim.aaf'));
    writeFileSync(at('c/teapot1.anim.aaf'), Buffer.from(anim.toString('latin1').replace('teapot man', 'teapot men'), 'latin1')); // the scene's companion changed (its comment)

    const r = animcore(resample(input, out, report, '--resume', report));
    expect(r.status).toBe(1);
    const fresh = join(tmp('resume-fresh'), 'out');
    animcore(resample(input, fresh, join(fresh, '..', 'r.jsonl')));
    expect(outputs(out)).toEqual(outputs(fresh));
    const redone = [...unwritten, at('a/wave4.nax3'), at('b/hand0.bin'), at('c/teapot1.scene.aaf')];
    const after = lines(report);
    expect(after.filter((l) => l.status === 'converted').map((l) => l.input).sort()).toEqual(redone.sort());
    expect(after.filter((l) => l.status === 'unchanged')).toHaveLength(CONVERTED - redone.length);
  });

  it.each([[['--fps', '20']], [['--tolerance', '0']], [['--up', 'z', '--scale', '2']]])('other options (%j) redo every input, replacing the earlier outputs; a second resume changes nothing', (options) => {
    const input = inputs();
    const out = join(tmp('resume-options'), 'out');
    const report = join(out, '..', 'report.jsonl');
    animcore(resample(input, out, report));
    const r = animcore([...resample(input, out, report, '--resume', report), ...options]);
    expect(r.status).toBe(1);
    expect(lines(report).filter((l) => l.status === 'unchanged')).toEqual([]);
    const fresh = join(tmp('resume-fresh'), 'out');
    animcore([...resample(input, fresh, join(fresh, '..', 'r.jsonl')), ...options]);
    expect(outputs(out)).toEqual(outputs(fresh));
    const again = animcore([...resample(input, out, report, '--resume', report), ...options]);
    expect(again.stdout).toMatch(/^files: 0 of 27 converted, 1 failed, 26 unchanged \(--resume\)/m);
    expect(outputs(out)).toEqual(outputs(fresh));
  });

  it('the default tolerances given explicitly are the same options: every input resumes as unchanged', () => {
    const input = inputs();
    const out = join(tmp('resume-defaults'), 'out');
    const report = join(out, '..', 'report.jsonl');
    animcore(resample(input, out, report));
    const again = animcore([...resample(input, out, report, '--resume', report), '--tolerance', '0.0001', '--angle-tolerance', '0.1']);
    expect(again.stdout).toMatch(/^files: 0 of 27 converted, 1 failed, 26 unchanged \(--resume\)/m);
  });
});
