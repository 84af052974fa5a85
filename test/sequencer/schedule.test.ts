import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnimCore } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { AnimSequencer, type AnimSequencerOptions } from '../../src/sequencer/index.js';
import { createCore } from '../helpers/core.js';
import { character } from './helpers.js';

// Spec sequencer.md §1–§2, case by case. Clips (helpers.ts): walk x = 1, run x = 3, idle x = 5
// (2 s), ramp x = clip time on [0, 1]; rest x = 0. `x(seq, t)` is Hip.translation x at t.

let core: AnimCore;
beforeAll(async () => {
  core = await createCore('simd');
});
afterAll(() => undefined);

function make(options: AnimSequencerOptions = {}): AnimSequencer {
  return new AnimSequencer(core, character(), options);
}
const x = (seq: AnimSequencer, t: number): number => seq.update(t).samples[0]!;
const job = (seq: AnimSequencer, clip: string) => seq.jobs().find((j) => j.clip === clip);

describe('intercept', () => {
  it('stops a running job at `at` so that it fades out from there', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', loops: 0, fadeOut: 0.5 });
    seq.enqueue({ clip: 'run', at: 1, loops: 0, fadeIn: 0.5 });
    expect(x(seq, 0.5)).toBe(1);
    // walk's duration becomes (1 − 0) + 0.5 − 0 = 1.5: stopping from 1, gone at 1.5
    seq.update(1.25);
    expect(job(seq, 'walk')).toMatchObject({ state: 'stopping', start: 0, end: 1.5 });
    // walk 1 − 0.25 / 0.5 = 0.5, run 0.25 / 0.5 = 0.5; priority: walk as is, run mixed at 0.5 → 2
    expect(job(seq, 'walk')!.weight).toBeCloseTo(0.5, 12);
    expect(job(seq, 'run')!.weight).toBeCloseTo(0.5, 12);
    expect(x(seq, 1.25)).toBe(2);
    expect(x(seq, 1.5)).toBe(3);
    expect(seq.jobs().map((j) => j.clip)).toEqual(['run']);
  });

  it('leaves a job that is already stopping alone', () => {
    const seq = make();
    seq.enqueue({ clip: 'idle', fadeOut: 0.5 }); // 2 s, stopping from 1.5
    seq.enqueue({ clip: 'run', at: 1.75, loops: 0 });
    seq.update(1.8);
    expect(job(seq, 'idle')).toMatchObject({ state: 'stopping', end: 2 });
    // idle weight 1 − 0.3 / 0.5 = 0.4 (first, as is: 5); run mixed in at its full weight 1 → 3
    expect(x(seq, 1.8)).toBe(3);
  });

  it('discards a job that has not started yet', () => {
    const seq = make();
    // (stopped instead, it would fade out over 2..4: duration (1 − 0) + 3 − 2 = 2)
    seq.enqueue({ clip: 'walk', start: 2, loops: 0, fadeOut: 3 });
    seq.update(0.5);
    expect(job(seq, 'walk')).toMatchObject({ state: 'pending', start: 2 });
    seq.enqueue({ clip: 'run', at: 1, loops: 0 });
    expect(x(seq, 2.5)).toBe(3);
    expect(seq.jobs().map((j) => j.clip)).toEqual(['run']);
  });

  it('only touches its own track; a higher track dominates under priority', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', loops: 0 });
    seq.enqueue({ clip: 'run', track: 1, loops: 0, weight: 0.5 });
    seq.enqueue({ clip: 'idle', track: 1, at: 1, loops: 0, weight: 0.25 });
    expect(x(seq, 0.5)).toBe(2); // 1 + 0.5 · (3 − 1)
    expect(x(seq, 1.5)).toBe(2); // run stopped without fade-out: 1 + 0.25 · (5 − 1)
    expect(seq.jobs().map((j) => `${j.clip}@${j.track}`)).toEqual(['walk@0', 'idle@1']);
  });
});

describe('append', () => {
  it('starts behind a finite job, overlapping its fade-out', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', loops: 2, fadeOut: 0.5 }); // ends at 2
    seq.enqueue({ clip: 'run', at: 0.5, enqueue: 'append', loops: 0, fadeIn: 0.5 });
    seq.update(1);
    // base = absEnd − fadeOut = 1.5
    expect(job(seq, 'run')).toMatchObject({ state: 'pending', start: 1.5, end: Infinity });
    expect(x(seq, 1)).toBe(1);
    // at 1.75 walk weighs 0.5 (first, as is), run 0.25 / 0.5 = 0.5 → 2
    expect(x(seq, 1.75)).toBe(2);
    expect(x(seq, 2)).toBe(3);
  });

  it('does not exist before its `at`, even when its start lies earlier', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', loops: 2, fadeOut: 0.5 });
    seq.enqueue({ clip: 'run', at: 1.8, enqueue: 'append', loops: 0 });
    expect(x(seq, 1.7)).toBe(1); // base 1.5, but run is not there before 1.8
    expect(x(seq, 1.8)).toBe(3); // walk (weight 0.4, first) then run at full weight
  });

  it('is refused behind an infinite job, naming the field', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', loops: 0 });
    expect(() => seq.enqueue({ clip: 'run', at: 1, enqueue: 'append' })).toThrow(/job\.enqueue: cannot append behind the infinite job "walk" on track 0/);
    // the refused job is not kept
    seq.update(2);
    expect(seq.jobs().map((j) => j.clip)).toEqual(['walk']);
  });

  it('refuses an enqueue that would block an append enqueued earlier for a later time', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk' });
    seq.enqueue({ clip: 'run', at: 2, enqueue: 'append' });
    expect(() => seq.enqueue({ clip: 'idle', at: 0.5, loops: 0 })).toThrow(UsageError);
  });
});

describe('ignoreIfSameClipActive', () => {
  it('drops the new job while the track plays that clip, else intercepts', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', loops: 0 });
    seq.enqueue({ clip: 'walk', at: 1, enqueue: 'ignoreIfSameClipActive', weight: 0.1 });
    seq.update(1.5);
    expect(seq.jobs()).toHaveLength(1);
    expect(job(seq, 'walk')).toMatchObject({ end: Infinity, weight: 1 });
    seq.enqueue({ clip: 'run', at: 2, enqueue: 'ignoreIfSameClipActive', loops: 0 });
    expect(x(seq, 2.5)).toBe(3);
    expect(seq.jobs().map((j) => j.clip)).toEqual(['run']);
  });

  it('counts a job that has not started yet, but not one that is stopping; compares clips after name mapping', () => {
    const seq = make({ names: { stroll: 'walk' } });
    seq.enqueue({ clip: 'walk', start: 5 });
    seq.enqueue({ clip: 'stroll', at: 1, enqueue: 'ignoreIfSameClipActive' });
    seq.update(1);
    expect(seq.jobs()).toHaveLength(1);

    const s2 = make();
    s2.enqueue({ clip: 'walk', fadeOut: 0.5 }); // stopping from 0.5
    s2.enqueue({ clip: 'walk', at: 0.75, enqueue: 'ignoreIfSameClipActive', loops: 0 });
    s2.update(0.8);
    expect(s2.jobs()).toHaveLength(2);
  });
});

describe('fades, time factor and time offset (§1)', () => {
  it('fixes fades longer than the job by scaling both', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', fadeIn: 0.6, fadeOut: 0.9 }); // 1 s: × 1 / 1.5
    seq.update(0);
    const j = job(seq, 'walk')!;
    expect(j.fadeIn).toBeCloseTo(0.4, 12);
    expect(j.fadeOut).toBeCloseTo(0.6, 12);
    // infinite jobs keep their fades
    const s2 = make();
    s2.enqueue({ clip: 'walk', loops: 0, fadeIn: 5, fadeOut: 7 });
    s2.update(0);
    expect(job(s2, 'walk')).toMatchObject({ fadeIn: 5, fadeOut: 7 });
  });

  it('fades in from the rest pose under weighted, at full weight under priority', () => {
    for (const [rule, expected] of [['priority', 1], ['weighted', 0.25]] as const) {
      const seq = make({ rule });
      seq.enqueue({ clip: 'walk', loops: 0, fadeIn: 1 });
      expect(x(seq, 0.25)).toBeCloseTo(expected, 6); // weighted: 0.25 · 1 + 0.75 · 0
    }
  });

  it('adds a negative timeOffset to the clip time, wrapping only looping jobs', () => {
    const once = make();
    once.enqueue({ clip: 'ramp', timeOffset: -0.25 });
    expect(x(once, 0.5)).toBeCloseTo(0.25, 6);
    expect(x(once, 0.1)).toBe(0); // clip time −0.15, held at the first key
    const looping = make();
    looping.enqueue({ clip: 'ramp', loops: 2, timeOffset: -0.25 });
    expect(x(looping, 0.1)).toBeCloseTo(0.85, 6); // −0.15 wraps to 0.85
    expect(x(looping, 1.5)).toBeCloseTo(0.25, 6); // 1.25 wraps to 0.25
  });

  it('freezes with time factor 0 and plays backwards with a negative one', () => {
    const frozen = make();
    frozen.enqueue({ clip: 'ramp', loops: 0, timeFactor: 0, timeOffset: 0.3 });
    expect(x(frozen, 0.9)).toBeCloseTo(0.3, 6);
    expect(x(frozen, 5)).toBeCloseTo(0.3, 6);
    const back = make();
    back.enqueue({ clip: 'ramp', loops: 2, timeFactor: -1 });
    expect(x(back, 0.25)).toBeCloseTo(0.75, 6); // −0.25 wraps to 0.75
    // the duration stays clip duration × loops whatever the time factor
    back.update(0);
    expect(job(back, 'ramp')!.end).toBe(2);
    const half = make();
    half.enqueue({ clip: 'ramp', timeFactor: -0.5, timeOffset: 1 });
    expect(x(half, 0.5)).toBeCloseTo(0.75, 6); // 1 − 0.25
  });

  it('needs an explicit duration for a clip of zero length, and holds clip time 0 then', () => {
    const seq = make();
    expect(() => seq.enqueue({ clip: 'pose' })).toThrow(/job\.duration: clip "pose" lasts 0 s/);
    seq.enqueue({ clip: 'pose', duration: 0.5 });
    expect(x(seq, 0.25)).toBe(7);
    expect(x(seq, 0.5)).toBe(0); // expired: no job, rest
  });
});

describe('stopTrack / stopAll', () => {
  it('fades out the track from the current time, or discards it', () => {
    const seq = make({ rule: 'weighted' });
    seq.enqueue({ clip: 'walk', loops: 0, fadeOut: 1 });
    seq.enqueue({ clip: 'run', track: 1, loops: 0 });
    seq.update(2);
    seq.stopTrack(0);
    expect(job(seq, 'walk')).toMatchObject({ end: 3 });
    seq.stopTrack(1, { fadeOut: false });
    expect(seq.jobs().map((j) => j.clip)).toEqual(['walk']);
    expect(x(seq, 2.5)).toBeCloseTo(0.5, 6); // walk at 0.5, rest fills 0.5
  });

  it('discards jobs enqueued for later', () => {
    const seq = make();
    seq.enqueue({ clip: 'walk', loops: 0 });
    seq.enqueue({ clip: 'run', at: 3, loops: 0 });
    seq.update(1);
    seq.stopAll({ fadeOut: false });
    expect(seq.jobs()).toEqual([]);
    expect(x(seq, 4)).toBe(0);
    expect(seq.update(4).counts[0]).toBe(0);
  });
});

describe('enqueue checks', () => {
  it('refuses an `at` before the current time and bad values, naming the field', () => {
    const seq = make();
    seq.update(2);
    expect(() => seq.enqueue({ clip: 'walk', at: 1 })).toThrow(/job\.at: 1 is before the sequencer's current time 2/);
    expect(() => seq.enqueue({ clip: 'walk', fadeIn: -1 })).toThrow(/job\.fadeIn: must be ≥ 0/);
    expect(() => seq.enqueue({ clip: 'walk', track: 1.5 })).toThrow(/job\.track: expected an integer/);
    expect(() => seq.enqueue({ clip: 'nope' })).toThrow(/job\.clip: no clip "nope"/);
    expect(() => seq.enqueue({ clip: 'walk', reference: 0 })).toThrow(/job\.reference/);
    expect(() => seq.enqueue({ clip: 'walk', mask: Float32Array.of(1) })).toThrow(/job\.mask: a mask has one weight per curve/);
    expect(() => seq.enqueue({ clip: 'walk', timeFactor: Infinity })).toThrow(/job\.timeFactor: expected a finite number/);
  });
});

describe('fade weights', () => {
  /** The largest float64 below `t` (t > 0). */
  const before = (t: number) => {
    const f = new Float64Array([t]);
    new BigInt64Array(f.buffer)[0]! -= 1n;
    return f[0]!;
  };

  it('stay within [0, weight] up to the last instant before a job ends, where the fade factor rounds past 1 (fuzz seed 775907607 #181101)', () => {
    const weights = (at: number, duration: number, fadeIn: number, fadeOut: number, weight: number) => {
      const seq = make({ rule: 'weighted' });
      seq.enqueue({ clip: 'walk', at, duration, fadeIn, fadeOut, weight });
      seq.update(at);
      const end = seq.jobs()[0]!.end;
      const out: number[] = [];
      for (const t of [at, at + duration, before(end), (at + end) / 2]) {
        if (!(t >= at && t < end)) continue;
        seq.update(t);
        out.push(seq.jobs()[0]!.weight);
      }
      seq.dispose();
      return out;
    };
    expect(weights(0.405, 2.5, 0, 0.184, 0.85)[1]).toBe(0); // at 2.905 s, before the end 2.9050000000000002
    // Times in milliseconds, as sequence files write them.
    const ms = (max: number) => fc.integer({ min: 0, max }).map((n) => n / 1000);
    fc.assert(
      fc.property(ms(50_000), ms(10_000).filter((d) => d > 0), ms(1000), ms(1000), ms(2000), (at, duration, fadeIn, fadeOut, weight) => {
        const fades = fadeIn + fadeOut > duration ? duration / (fadeIn + fadeOut) : 1;
        for (const w of weights(at, duration, fadeIn * fades, fadeOut * fades, weight)) {
          expect(w).toBeGreaterThanOrEqual(0);
          expect(w).toBeLessThanOrEqual(weight);
        }
      }),
      { seed: 20261124, numRuns: 2000 },
    );
  });
});
