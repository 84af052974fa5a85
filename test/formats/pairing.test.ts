// Issue 14 item 5: companion files paired by content, not only by name: a lone skeleton beside the
// animation, or among several the one whose joint count matches the curves; several that could
// fit → a warning naming them and the option. Files written for the test (the example nax3 and
// .n2 skeletons generated here), and the real kila/eagle/bouncingball fixtures where present.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Folder } from '../../src/formats/companions.js';
import { openFormatFile } from '../../src/formats/open-files.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { EXAMPLES_DIR } from '../helpers/export-inputs.js';

const WAVE = readFileSync(join(EXAMPLES_DIR, 'nebula', 'wave.nax3')); // drives joint0..joint2

/** A `.n2` script with an nskinanimator of `joints` joints in a chain (Nebula2 `nskinanimator_cmds.cc`). */
function n2Skeleton(joints: number, prefix = 'bone'): Uint8Array {
  const lines = ['new nskinanimator skin', 'sel skin', `.beginjoints ${joints}`];
  for (let j = 0; j < joints; j++) lines.push(`.setjoint ${j} ${j - 1} 0 ${j} 0 0 0 0 1 1 1 1 "${prefix}${j}"`);
  lines.push('.endjoints', 'sel ..');
  return new TextEncoder().encode(lines.join('\n'));
}

function folder(files: Record<string, Uint8Array>): Folder {
  return { names: () => Object.keys(files), read: (name) => files[name]! };
}

const open = (files: Record<string, Uint8Array>, given = {}) =>
  openFormatFile({ name: 'anims/wave.nax3', bytes: WAVE }, { folder: folder({ 'wave.nax3': WAVE, ...files }), companions: given });

describe('companions paired by content', () => {
  it('a lone skeleton of any name beside the animation is used, and says so', async () => {
    const opened = await open({ 'rig.n2': n2Skeleton(3), 'notes.txt': new Uint8Array(1) });
    expect(opened.resource.skeleton?.joints.map((j) => j.name)).toEqual(['bone0', 'bone1', 'bone2']);
    expect(opened.companions).toEqual([{ role: 'skeleton', file: 'rig.n2', how: 'content', why: 'the only .n2/.constants file beside it' }]);
    expect(opened.pairingWarnings).toEqual([]);
  });

  it('among several, the only one whose joint count matches the curves is used', async () => {
    const opened = await open({ 'big.n2': n2Skeleton(80), 'rig.n2': n2Skeleton(3), 'small.n2': n2Skeleton(2) });
    expect(opened.companions).toMatchObject([{ role: 'skeleton', file: 'rig.n2', how: 'content' }]);
    expect(opened.companions[0]!.why).toMatch(/the only one of 3 .* that fits \(big\.n2, rig\.n2, small\.n2\)/);
    expect(opened.resource.skeleton?.size).toBe(3);
  });

  it('several that fit (or none) → no skeleton, and a warning naming them and pointing to --skeleton', async () => {
    const two = await open({ 'a.n2': n2Skeleton(3, 'a'), 'b.n2': n2Skeleton(3, 'b') });
    expect(two.resource.skeleton).toBeNull();
    expect(two.companions).toEqual([]);
    expect(two.pairingWarnings).toEqual(['of the 2 .n2/.constants files beside wave.nax3 (a.n2, b.n2) 2 fit as its skeleton, so none was used: name one with --skeleton']);
    const none = await open({ 'a.n2': n2Skeleton(5), 'b.n2': n2Skeleton(7) });
    expect(none.pairingWarnings[0]).toMatch(/none fits as its skeleton/);
  });

  it('a name match or a given skeleton comes first', async () => {
    const byName = await open({ 'wave.n2': n2Skeleton(3, 'w'), 'rig.n2': n2Skeleton(3) });
    expect(byName.companions).toEqual([{ role: 'skeleton', file: 'wave.n2', how: 'name' }]);
    const given = await open({ 'rig.n2': n2Skeleton(3) }, { skeleton: { file: 'x.n2', bytes: n2Skeleton(3, 'x') } });
    expect(given.companions).toEqual([{ role: 'skeleton', file: 'x.n2', how: 'given' }]);
  });

  it.skipIf(!haveFixtures('nebula'))('the real folder: kila.n2 pairs with kila_layoutA/B.nax2 by joint count; bouncingball gets none and a warning', async () => {
    const dir = fixturePath('nebula', '');
    const files = Object.fromEntries(readdirSync(dir).map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))]));
    for (const name of ['kila_layoutA.nax2', 'kila_layoutB.nax2']) {
      const opened = await openFormatFile({ name, bytes: files[name]! }, { folder: folder(files) });
      expect(opened.companions).toMatchObject([{ role: 'skeleton', file: 'kila.n2', how: 'content' }]);
      expect(opened.resource.skeleton?.size).toBe(80);
      expect(opened.resource.warnings.filter((w) => /joints but/.test(w))).toEqual([]);
    }
    const ball = await openFormatFile({ name: 'bouncingball.nax2', bytes: files['bouncingball.nax2']! }, { folder: folder(files) });
    expect(ball.companions).toEqual([]);
    expect(ball.pairingWarnings[0]).toMatch(/Unit_Footman\.constants, eagle\.n2, kila\.n2.*--skeleton/);
  });

  it.skipIf(!haveFixtures('meteor'))('Meteor: a lone .bnc and .pos of another name are the character\'s', async () => {
    const bytes = (n: string) => new Uint8Array(readFileSync(fixturePath('meteor', n)));
    const opened = await openFormatFile({ name: 'walk.amb', bytes: bytes('p0.amb') }, { folder: folder({ 'walk.amb': bytes('p0.amb'), 'hero.bnc': bytes('P0.bnc'), 'table.pos': bytes('P0.pos') }) });
    expect(opened.companions.map((c) => [c.role, c.file, c.how])).toEqual([['bnc', 'hero.bnc', 'content'], ['pos', 'table.pos', 'content']]);
    expect(opened.resource.clips.length).toBeGreaterThan(0);
  });
});

describe('pairing as the CLI reports it (built binary)', () => {
  const CLI = join(EXAMPLES_DIR, '..', 'dist', 'cli.js');
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

  it('resample prints a summary line per paired file and a warning when several could fit; info lists companions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'animcore-pairing-'));
    const lone = join(dir, 'lone');
    const two = join(dir, 'two');
    for (const [d, skeletons] of [[lone, { 'rig.n2': n2Skeleton(3) }], [two, { 'a.n2': n2Skeleton(3, 'a'), 'b.n2': n2Skeleton(3, 'b') }]] as const) {
      mkdirSync(d);
      writeFileSync(join(d, 'wave.nax3'), WAVE);
      for (const [n, b] of Object.entries(skeletons)) writeFileSync(join(d, n), b);
    }
    const r = run('resample', dir, '--fps', '30', '--to', 'json', '--out', join(dir, 'out'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`note: ${join(lone, 'wave.nax3')}: companions: paired rig.n2 (skeleton, by content: the only .n2/.constants file beside it)`);
    expect(r.stdout).toContain(`note: ${join(two, 'wave.nax3')}: companions: of the 2 .n2/.constants files beside wave.nax3 (a.n2, b.n2) 2 fit as its skeleton, so none was used: name one with --skeleton`);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'lone', 'wave.json'), 'utf8')).skeleton.joints.map((j: { name: string }) => j.name)).toEqual(['bone0', 'bone1', 'bone2']);
    const info = run('info', join(lone, 'wave.nax3'));
    expect(info.stdout).toMatch(/^ {2}companions: rig\.n2 \(skeleton, by content: the only \.n2\/\.constants file beside it\)$/m);
    const infoJson = JSON.parse(run('info', join(two, 'wave.nax3'), '--json').stdout);
    expect(infoJson.companions).toEqual([]);
    expect(infoJson.warnings.at(-1)).toMatch(/name one with --skeleton/);
  });
});
