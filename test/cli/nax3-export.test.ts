// Issue 14 item 4: `--to nax3` converts real clips (30 fps keys, key times like 0.066667 s, events
// between keys) instead of refusing them: the nearest whole-millisecond key duration, events moved
// to the nearest key, the largest change reported, working rates in every remaining error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, CurveType, InfinityType } from '../../src/anim/index.js';
import { nax3Rate, toNax3 } from '../../src/cli/nax3-output.js';
import type { AnimCore } from '../../src/core/index.js';
import { readNax3 } from '../../src/formats/nebula/index.js';
import { createCore } from '../helpers/core.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: root });

/** A Nebula2-like clip: one translation curve with keys every 1/15 s (0.066667 s), x = key index, and events between keys. */
function clip15(post: InfinityType): AnimClip {
  const keyCount = 16;
  const values = new Float32Array(4 * keyCount);
  for (let k = 0; k < keyCount; k++) values[4 * k] = k;
  return new AnimClip({
    name: 'walk',
    curves: [{ curveType: CurveType.Translation, active: true, target: { joint: 'root', property: 'translation' }, keys: { encoding: 'uniform', values } }],
    keyCount,
    keyDuration: 1 / 15,
    postInfinity: post,
    events: [
      { name: 'step', category: '', time: 0.1 },
      { name: 'land', category: 'foot', time: 0.5171 },
    ],
  });
}

describe('nax3 export of clips whose keys and events are not whole milliseconds', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('rates: the nearest whole-millisecond key duration; an impossible one names working rates', () => {
    expect(nax3Rate(30)).toEqual({ ticks: 33, fps: 1000 / 33 });
    expect(nax3Rate(25)).toEqual({ ticks: 40, fps: 25 });
    expect(nax3Rate(5000)).toEqual({ ticks: 1, fps: 1000 });
    expect(() => nax3Rate(0.01)).toThrow(/--fps 0.01 gives 100000 ms keys; nax3 stores key durations in whole milliseconds .* 25, 40, 50, 100/);
  });

  it('a 15 fps clip written at --fps 30: 33 ms keys, events on the nearest key, the changes reported', () => {
    const out = toNax3(core, new AnimResource({ format: 'test', clips: [clip15(InfinityType.Constant)] }), 30);
    const doc = readNax3(out.bytes);
    const clip = doc.clips[0]!;
    expect(clip.keyDuration).toBe(33);
    expect(clip.numKeys).toBe(34); // duration 16/15 s (Nebula3: keyCount × keyDuration) at 30.303 keys/s: ceil(32.32) + 1 keys
    // step at 0.1 s → key 3 (0.099 s); land at 0.5171 s → key 16 (0.528 s)
    expect(clip.events.map((e) => [e.name, e.keyIndex])).toEqual([
      ['step', 3],
      ['land', 16],
    ]);
    // x = 15 · t, sampled at the new keys: key 3 at 0.099 s holds 1.485
    expect(doc.pool[4 * 3]).toBeCloseTo(15 * 0.099, 4);
    expect(out.notes).toEqual([
      'nax3: 30 keys/s written as 30.303 keys/s (33 ms keys, the nearest whole millisecond)',
      'nax3: events moved to the nearest key, by up to 10.9 ms (clip "walk", event "land")',
    ]);
  });

  it('a cycling clip keeps its loop: keys at the nearest whole millisecond, its duration change reported', () => {
    const out = toNax3(core, new AnimResource({ format: 'test', clips: [clip15(InfinityType.Cycle)] }), 30);
    const clip = readNax3(out.bytes).clips[0]!;
    // 16/15 s at 30.303 keys/s: round(32.32) = 32 keys over 1.0667 s = 33.33 ms each → 33 ms; 32 × 33 ms = 1.056 s
    expect([clip.numKeys, clip.keyDuration, clip.postInfinityType]).toEqual([32, 33, 1]);
    expect(out.notes[1]).toBe('nax3: cycling clips stretched to whole-millisecond keys, durations changed by up to 10.667 ms (clip "walk")');
  });

  it('what nax3 cannot hold still fails, naming working rates', () => {
    const bool = new AnimClip({ name: 'b', curves: [{ curveType: CurveType.Bool, active: true, target: { joint: null, property: 'x' }, keys: { encoding: 'static', value: Float32Array.of(1, 0, 0, 0) } }] });
    expect(() => toNax3(core, new AnimResource({ format: 'test', clips: [bool] }), 25)).toThrow(/bool curve, which nax3 has no code for; nax3 stores key durations in whole milliseconds/);
  });
});

describe('--to nax3 through the built binary', () => {
  it('the AAF example (30 fps frames) converts at --fps 30 with the rate in the summary', () => {
    const out = mkdtempSync(join(tmpdir(), 'animcore-nax3-'));
    const r = run('resample', join(root, 'examples', 'aaf', 'teapot-man.scene.aaf'), '--fps', '30', '--to', 'nax3', '--out', out);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^note: .*teapot-man\.scene\.aaf: nax3: 30 keys\/s written as 30\.303 keys\/s \(33 ms keys/m);
    expect(readNax3(readFileSync(join(out, 'teapot-man.scene.nax3'))).clips[0]!.keyDuration).toBe(33);
  });

  it.skipIf(!haveFixtures('meteor') || !haveFixtures('nebula'))('every Meteor clip and the Nebula2 fixtures convert at 30 and 25 keys/s', () => {
    for (const fps of ['30', '25']) {
      const out = mkdtempSync(join(tmpdir(), 'animcore-nax3-'));
      const r = run('resample', fixturePath('meteor', 'p0.amb'), fixturePath('nebula', 'eagle.nax2'), fixturePath('nebula', 'kila_layoutA.nax2'), '--fps', fps, '--to', 'nax3', '--out', out, '--json');
      const s = JSON.parse(r.stdout);
      expect(s.failures).toEqual([]);
      expect(s.converted).toBe(3);
      expect(s.notes).toContainEqual({ input: fixturePath('meteor', 'p0.amb'), note: expect.stringMatching(/^nax3: events moved to the nearest key, by up to [\d.]+ ms/) });
      const p0 = readNax3(readFileSync(join(out, 'p0.nax3')));
      expect(p0.clips.length).toBe(9);
      expect(p0.clips.every((c) => c.keyDuration === (fps === '30' ? 33 : 40))).toBe(true);
    }
  });
});
