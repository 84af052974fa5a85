import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimCore } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { loadSequence, parseSequence, type SequenceFile } from '../../src/sequencer/index.js';
import { createCore } from '../helpers/core.js';
import { axisAngle, character, expectSameRotation } from './helpers.js';

let core: AnimCore;
beforeAll(async () => {
  core = await createCore('simd');
});

const good: SequenceFile = {
  rule: 'priority',
  rotation: 'slerp',
  names: { stroll: 'walk', sprint: 'run' },
  masks: { upper: { joints: ['Spine'], children: true }, half: { curves: { 'Hip.translation': 0.5 } } },
  jobs: [
    { clip: 'stroll', loops: 0, fadeOut: 0.5 },
    { clip: 'sprint', at: 1, loops: 0, fadeIn: 0.5 },
    { clip: 'wave', track: 1, mask: 'upper', loops: 0 },
  ],
};

describe('sequence files (spec §7)', () => {
  it('loads names, masks and jobs, enqueuing in order of `at`', () => {
    const file: SequenceFile = { ...good, jobs: [good.jobs[1]!, good.jobs[0]!, good.jobs[2]!] };
    const seq = loadSequence(core, character(), JSON.stringify(file));
    // at 1.25: walk 0.5 (first, as is) and run 0.5 → x = 2; Spine rotation from wave (masked to Spine)
    const r = seq.update(1.25);
    expect(r.samples[0]).toBe(2);
    expectSameRotation(r.samples.subarray(12, 16), axisAngle([0, 0, 1], 90));
    expect(seq.rotation).toBe('slerp');
    expect(loadSequence(core, character(), file, { rotation: 'nlerp' }).rotation).toBe('nlerp');
    seq.dispose();
  });

  it('builds masks by joint subtree and by curve', () => {
    const seq = loadSequence(core, character(), { ...good, jobs: [] });
    expect(Array.from(seq.mask(['Hip'], { children: true }))).toEqual([1, 1, 1, 1]);
    expect(Array.from(seq.mask(['Hip'], { weight: 0.5 }))).toEqual([0.5, 0.5, 0, 0]);
    expect(Array.from(seq.layout.curveMask({ 'Spine.rotation': 0.25 }))).toEqual([0, 0, 0, 0.25]);
  });

  const refusals: [string, unknown, RegExp][] = [
    ['a negative fade', { jobs: [{ clip: 'walk' }, { clip: 'run' }, { clip: 'walk', fadeIn: -0.1 }] }, /^jobs\[2\]\.fadeIn: must be ≥ 0, got -0\.1/],
    ['an unknown key', { jobs: [{ clip: 'walk', fadein: 1 }] }, /^jobs\[0\]\.fadein: unknown key/],
    ['an unknown top-level key', { jobs: [], loop: true }, /^\(top level\)\.loop: unknown key/],
    ['a missing jobs array', { rule: 'priority' }, /^jobs: required/],
    ['an unknown clip', { jobs: [{ clip: 'swim' }] }, /^jobs\[0\]\.clip: no clip "swim"/],
    ['a name mapping to no clip', { names: { swim: 'swim01' }, jobs: [] }, /^names\.swim: no clip "swim01"/],
    ['an unknown mask', { jobs: [{ clip: 'walk', mask: 'legs' }] }, /^jobs\[0\]\.mask: no mask "legs"/],
    ['an unknown joint', { masks: { m: { joints: ['Spine', 'Tail'] } }, jobs: [] }, /^masks\.m\.joints\[1\]: no joint "Tail"/],
    ['an unknown curve property', { masks: { m: { curves: { 'Hip.colour': 1 } } }, jobs: [] }, /^masks\.m\.curves\.Hip\.colour: no curve/],
    ['joints and curves together', { masks: { m: { joints: ['Hip'], curves: {} } }, jobs: [] }, /^masks\.m: a mask lists "joints" or "curves", never both/],
    ['a mask weight above 1', { masks: { m: { joints: ['Hip'], weight: 2 } }, jobs: [] }, /^masks\.m\.weight: must be ≤ 1/],
    ['an unknown rule', { rule: 'blend', jobs: [] }, /^rule: expected one of 'priority', 'weighted', got "blend"/],
    ['an unknown rotation', { rotation: 'raw', jobs: [] }, /^rotation: expected one of 'nlerp', 'slerp'/],
    ['an unknown enqueue mode', { jobs: [{ clip: 'walk', enqueue: 'queue' }] }, /^jobs\[0\]\.enqueue: expected one of/],
    ['an unknown mode', { jobs: [{ clip: 'walk', mode: 'subtract' }] }, /^jobs\[0\]\.mode: expected one of 'normal', 'additive'/],
    ['a negative weight', { jobs: [{ clip: 'walk', weight: -1 }] }, /^jobs\[0\]\.weight: must be ≥ 0/],
    ['a weight beyond float32 (stored as Infinity)', { jobs: [{ clip: 'walk', weight: 1e39 }] }, /^jobs\[0\]\.weight: must be ≤ 3\.4028234663852886e\+38/],
    ['a negative threshold', { rule: 'weighted', threshold: -1, jobs: [] }, /^threshold: must be ≥ 0/],
    ['a threshold beyond float32 (fuzz: 3.4028236e38 became Infinity and every pose NaN)', { rule: 'weighted', threshold: 3.4028236e38, jobs: [] }, /^threshold: must be ≤ 3\.4028234663852886e\+38/],
    ['a negative at', { jobs: [{ clip: 'walk', at: -1 }] }, /^jobs\[0\]\.at: must be ≥ 0/],
    ['a negative start', { jobs: [{ clip: 'walk', start: -1 }] }, /^jobs\[0\]\.start: must be ≥ 0/],
    ['negative loops', { jobs: [{ clip: 'walk', loops: -2 }] }, /^jobs\[0\]\.loops: must be ≥ 0/],
    ['a negative duration', { jobs: [{ clip: 'walk', duration: -2 }] }, /^jobs\[0\]\.duration: must be ≥ 0/],
    ['a negative fade-out', { jobs: [{ clip: 'walk', fadeOut: -2 }] }, /^jobs\[0\]\.fadeOut: must be ≥ 0/],
    ['a zero-length clip without duration', { jobs: [{ clip: 'pose' }] }, /^jobs\[0\]\.duration: clip "pose" lasts 0 s/],
    ['append behind an infinite job', { jobs: [{ clip: 'walk', loops: 0 }, { clip: 'run', at: 1, enqueue: 'append' }] }, /^jobs\[1\]\.enqueue: cannot append behind the infinite job "walk"/],
    ['a reference on a normal job', { jobs: [{ clip: 'walk', reference: 0.5 }] }, /^jobs\[0\]\.reference: only additive jobs/],
    ['a job that is not an object', { jobs: [{ clip: 'walk' }, 3] }, /^jobs\[1\]: expected an object/],
  ];
  for (const [what, file, message] of refusals) {
    it(`refuses ${what}, naming the JSON path`, () => {
      const error = (() => {
        try {
          loadSequence(core, character(), JSON.stringify(file));
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
    });
  }

  it("refuses a job's fields and mask names without a resource (parseSequence, before any input is opened)", () => {
    for (const [, file, message] of refusals) {
      const json = JSON.stringify(file);
      const needsResource = /no clip|no joint|no curve|lasts 0 s|cannot append/.test(message.source);
      if (needsResource) expect(() => parseSequence(json)).not.toThrow();
      else expect(() => parseSequence(json)).toThrow(message);
    }
  });

  it('keeps a refusal one short line whatever the file holds (fuzz: 100,000-character keys, names and values quoted whole)', () => {
    const long = 'a'.repeat(100_000);
    for (const file of [
      { jobs: [], [long]: 1 },
      { jobs: [{ clip: 'walk', [long]: 1 }] },
      { jobs: [{ clip: long }] },
      { rotation: long, jobs: [] },
      { names: { [long]: 'nowhere' }, jobs: [] },
      { masks: { [long]: { joints: [long] } }, jobs: [] },
      { masks: { m: { curves: { [long]: 1 } } }, jobs: [] },
      { masks: { m: { joints: ['Hip'] } }, jobs: [{ clip: 'walk', mask: long }] },
    ]) {
      const message = (() => {
        try {
          loadSequence(core, character(), JSON.stringify(file));
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
          return (e as Error).message;
        }
        return '';
      })();
      expect(message).toMatch(/aaaa…"? \(100000 characters\)/);
      expect(message.length, message).toBeLessThan(300);
    }
    // Plain keys stay dotted paths.
    expect(() => loadSequence(core, character(), JSON.stringify({ masks: { m: { curves: { 'Hip.scale': 1 } } }, jobs: [] }))).toThrow(/^masks\.m\.curves\.Hip\.scale: no curve/);
  });

  it('refuses numbers that are not finite and text that is not JSON', () => {
    expect(() => loadSequence(core, character(), '{"jobs": [{"clip": "walk", "fadeIn": 1e999}]}')).toThrow(/^jobs\[0\]\.fadeIn: expected a finite number, got Infinity/);
    expect(() => parseSequence('{"jobs": [}')).toThrow(/^not valid JSON/);
  });
});
