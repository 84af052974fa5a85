// Issue 13 item 5: a tiny file of a long clip must not resample into gigabytes. The output is
// estimated before anything is resampled; over `--max-output-mb` (or what JSON text can hold) the
// file fails naming the clip and the estimate. Through the built binary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readNax2 } from '../../src/formats/nebula/index.js';
import { nax2ToResource } from '../../src/formats/nebula/to-resource.js';
import { estimateOutput } from '../../src/export/output-estimate.js';
import { buildNax2 } from '../nebula/helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');

/** A .nax2 (layout A) of one clip: 3 animated curves, 2 keys `keyTime` seconds apart. */
function longClip(keyTime: number): Uint8Array {
  const keys = [
    [0, 0, 0, 0],
    [0, 0, 0, 1],
    [1, 1, 1, 0],
    [1, 0, 0, 0],
    [0, 0, 0, 1],
    [1, 1, 1, 0],
  ];
  return buildNax2('A', [{ numKeys: 2, keyStride: 3, keyTime, curves: [{ ipol: 1, first: 0 }, { ipol: 3, first: 1 }, { ipol: 1, first: 2 }] }], keys);
}

function resampleCli(file: string, args: string[]): { status: number | null; stdout: string; stderr: string; out: string; ms: number } {
  const out = mkdtempSync(join(tmpdir(), 'animcore-limit-out-'));
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'resample', file, '--out', out, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out, ms: performance.now() - started };
}

describe('13.5 resample amplification', () => {
  const dir = mkdtempSync(join(tmpdir(), 'animcore-limit-'));
  const huge = join(dir, 'huge.nax2');
  const small = join(dir, 'small.nax2');
  writeFileSync(huge, longClip(1e5)); // 200,000 s: 12 million keys per curve at 60 fps
  writeFileSync(small, longClip(1000)); // 2,000 s: about 7 MB of glb keys at 60 fps

  it('estimates every clip from its duration and curves before sampling', () => {
    const resource = nax2ToResource(readNax2(longClip(1000)));
    const [glb] = estimateOutput(resource, 60, 'glb');
    expect(glb!.keys).toBe(120_000); // a cycling clip (loop type repeat): duration × fps keys
    expect(glb!.bytes).toBe(120_000 * 3 * 20);
    expect(estimateOutput(resource, 60, 'json')[0]!.bytes).toBeGreaterThan(glb!.bytes);
  });

  it('fails a file whose output would pass --max-output-mb, naming the clip and the estimate, before allocating it', () => {
    const r = resampleCli(huge, ['--fps', '60']);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/huge\.nax2.*about [\d.]+ MB of glb keys \(clip "[^"]+": 12000000 keys per curve.*over the output limit of 210 MB \(raise it with --max-output-mb/);
    expect(readdirSync(r.out).filter((f) => !f.startsWith('.'))).toEqual([]);
    expect(r.ms).toBeLessThan(20_000);
  });

  it('refuses JSON beyond what a JavaScript string holds, even with a raised limit, instead of a RangeError', () => {
    const r = resampleCli(huge, ['--fps', '60', '--to', 'json', '--max-output-mb', '100000']);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/over what JSON text can hold \(500 MB; write glb instead/);
    expect(r.stdout + r.stderr).not.toMatch(/RangeError/);
  });

  it('converts under the limit, and --max-output-mb lowers and raises it', () => {
    expect(resampleCli(small, ['--fps', '60']).status).toBe(0);
    const lowered = resampleCli(small, ['--fps', '60', '--max-output-mb', '5']);
    expect(lowered.status).toBe(1);
    expect(lowered.stdout + lowered.stderr).toMatch(/over the output limit of 5.24 MB/);
    expect(resampleCli(small, ['--fps', '60', '--max-output-mb', 'x']).status).toBe(2);
  });
});
