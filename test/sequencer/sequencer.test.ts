import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, Skeleton, staticKeys } from '../../src/anim/index.js';
import { type AnimCore, LocalToModelJob } from '../../src/core/index.js';
import { AnimSequencer, PoseLayout } from '../../src/sequencer/index.js';
import { createCore } from '../helpers/core.js';
import { recordKernelCalls } from '../helpers/kernel-calls.js';
import { axisAngle, character, expectSameRotation, qmul } from './helpers.js';

let core: AnimCore;
beforeAll(async () => {
  core = await createCore('simd');
});

describe('events (spec §6)', () => {
  const events = [
    { name: 'step', category: 'foot', time: 0 },
    { name: 'mid', category: '', time: 0.5 },
  ];

  it('fires a looping job’s events in every loop, in (t0, t1]', () => {
    const seq = new AnimSequencer(core, character(events));
    seq.enqueue({ clip: 'ramp', loops: 0, fadeIn: 2 });
    seq.update(1.6);
    const got = seq.events(0.1, 1.6).map((e) => [e.name, e.sequenceTime, e.time]);
    expect(got).toEqual([
      ['mid', 0.5, 0.5],
      ['step', 1, 0],
      ['mid', 1.5, 0.5],
    ]);
    expect(seq.events(0.5, 1).map((e) => e.sequenceTime)).toEqual([1]); // (0.5, 1]
    expect(seq.events(0.1, 1.6)[0]).toMatchObject({ clip: 'ramp', track: 0, category: '', weight: 0.8 }); // 1.6 / 2
  });

  it('maps the window through the time factor and offset; a job of loops 1 does not repeat a constant clip', () => {
    const seq = new AnimSequencer(core, character(events));
    seq.enqueue({ clip: 'ramp', loops: 3, timeFactor: -1 });
    seq.update(1.5);
    // clip time −t wraps: 0.5 is reached at t = 0.5, 0 (≡ 1) at t = 1, 0.5 at t = 1.5
    expect(seq.events(0.2, 1.5).map((e) => [e.name, e.sequenceTime])).toEqual([
      ['mid', 0.5],
      ['step', 1],
      ['mid', 1.5],
    ]);
    const once = new AnimSequencer(core, character(events));
    once.enqueue({ clip: 'ramp', duration: 0, timeOffset: 0.25 }); // explicit duration: loops
    once.update(0.9);
    expect(once.events(0, 0.9).map((e) => e.sequenceTime)).toEqual([0.25, 0.75]);
    const single = new AnimSequencer(core, character(events));
    single.enqueue({ clip: 'ramp', timeOffset: 0.25 }); // loops 1: clip time 1 is past the end, held
    single.update(0.9);
    expect(single.events(0, 0.9).map((e) => e.sequenceTime)).toEqual([0.25]);
    const frozen = new AnimSequencer(core, character(events));
    frozen.enqueue({ clip: 'ramp', loops: 0, timeFactor: 0 });
    frozen.update(5);
    expect(frozen.events(0, 5)).toEqual([]);
  });

  it('counts occurrences before listing them: a huge time factor is refused, not a hang (fuzz: timeFactor 1e9 listed 2.6e7 events a frame)', () => {
    const seq = new AnimSequencer(core, character(events));
    seq.enqueue({ clip: 'ramp', loops: 0, timeFactor: 1e9 });
    seq.update(1);
    expect(() => seq.events(0, 1 / 30)).toThrow(/holds 666666\d\d occurrences .* at most 65536 are listed/);
    // Just under the limit: every occurrence (two events a loop of the 1 s clip).
    const fast = new AnimSequencer(core, character(events));
    fast.enqueue({ clip: 'ramp', loops: 0, timeFactor: 32000 });
    fast.update(1);
    expect(fast.events(0, 1).length).toBe(64000);
    // A job of loops 1 on a clip that does not cycle has one occurrence, whatever the time factor.
    const once = new AnimSequencer(core, character(events));
    once.enqueue({ clip: 'ramp', timeFactor: 1e300 });
    once.update(0);
    expect(once.events(0, 0.5).map((e) => e.name)).toEqual(['mid']);
  });

  it('ends for an event time far outside the clip (fuzz: an event at −1e20 s looped forever, k + 1 === k)', () => {
    const seq = new AnimSequencer(core, character([{ name: 'far', category: '', time: -1e20 }, ...events]));
    seq.enqueue({ clip: 'ramp', loops: 0 });
    seq.update(1);
    expect(seq.events(0.1, 0.6).map((e) => e.name)).toContain('mid');
  });

  it('keeps only the dominating job (highest track, last in list order) and needs activity at both ends', () => {
    const seq = new AnimSequencer(core, character(events));
    seq.enqueue({ clip: 'ramp', loops: 0 });
    seq.enqueue({ clip: 'ramp', track: 2, loops: 0, timeOffset: 0.25 });
    seq.enqueue({ clip: 'ramp', track: 1, loops: 0 });
    seq.update(0);
    expect(seq.events(0, 0.6).map((e) => e.track)).toEqual([2, 0, 1]); // mid at 0.25, 0.5, 0.5
    expect(seq.events(0, 0.6, { dominating: true }).map((e) => [e.track, e.sequenceTime])).toEqual([[2, 0.25]]);
    const late = new AnimSequencer(core, character(events));
    late.enqueue({ clip: 'ramp', at: 0.2, loops: 0 });
    late.update(0.2);
    expect(late.events(0.1, 0.6)).toEqual([]); // not active at 0.1
  });
});

describe('pose layout (spec §0)', () => {
  // Two clips animating different joints: the layout becomes joints × TRS, the clips re-laid.
  const skeleton = new Skeleton([
    { name: 'root', parent: -1, rest: { translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
    { name: 'arm', parent: 0, rest: { translation: [0, 5, 0], rotation: axisAngle([1, 0, 0], 30), scale: [2, 2, 2] } },
  ]);
  const a = new AnimClip({
    name: 'a',
    duration: 1,
    curves: [{ curveType: 'translation', target: { joint: 'root', property: 'translation' }, active: true, keys: staticKeys(9, 9, 9, 0) }],
  });
  const b = new AnimClip({
    name: 'b',
    duration: 1,
    curves: [
      { curveType: 'rotation', target: { joint: 'arm', property: 'rotation' }, active: true, keys: staticKeys(...axisAngle([0, 1, 0], 90)) },
      { curveType: 'float', target: { joint: 'arm', property: 'weights/1' }, active: true, keys: staticKeys(0.5, 0, 0, 0) },
      { curveType: 'float', target: { joint: 'arm', property: 'weights/0' }, active: true, keys: staticKeys(0.25, 0, 0, 0) },
    ],
  });
  const resource = new AnimResource({ format: 'test', skeleton, clips: [a, b] });

  it('lists joints × TRS, then morph weights by index, with rest values from the skeleton', () => {
    const layout = new PoseLayout(resource);
    expect(layout.shared).toBe(false);
    expect(layout.curves.map((c) => `${c.joint}.${c.property}`)).toEqual([
      'root.translation', 'root.rotation', 'root.scale', 'arm.translation', 'arm.rotation', 'arm.scale', 'arm.weights/0', 'arm.weights/1',
    ]);
    expect(Array.from(layout.rest.subarray(0, 4))).toEqual([1, 2, 3, 0]);
    expect(Array.from(layout.rest.subarray(20, 24))).toEqual([2, 2, 2, 0]);
    expect(Array.from(layout.rest.subarray(24, 32))).toEqual([0.25, 0, 0, 0, 0.5, 0, 0, 0]); // first key of the clip animating them
  });

  it('samples re-laid clips: curves a clip lacks are inactive and blend as such', () => {
    const seq = new AnimSequencer(core, resource, { rule: 'priority' });
    seq.enqueue({ clip: 'a', loops: 0 });
    seq.enqueue({ clip: 'b', track: 1, loops: 0, weight: 0.5 });
    const r = seq.update(0.5);
    expect(Array.from(r.samples.subarray(0, 4))).toEqual([9, 9, 9, 0]); // a only
    expectSameRotation(r.samples.subarray(16, 20), axisAngle([0, 1, 0], 90)); // b only: copied, not mixed
    expect(Array.from(r.counts)).toEqual([1, 0, 0, 0, 1, 0, 1, 1]);
    expect(Array.from(r.samples.subarray(4, 8))).toEqual([0, 0, 0, 1]); // undefined: rest
    seq.dispose();
  });
});

describe('additive jobs and masks end to end', () => {
  it('adds the wave delta against its reference pose on top of a walk, masked to the spine', () => {
    const seq = new AnimSequencer(core, character(), { rule: 'weighted', rotation: 'slerp' });
    seq.enqueue({ clip: 'walk', loops: 0 });
    seq.enqueue({ clip: 'ramp', track: 1, mode: 'additive', loops: 0, weight: 0.5, reference: 0.2, mask: seq.mask(['Hip']) });
    seq.enqueue({ clip: 'wave', track: 2, mode: 'additive', loops: 0, mask: seq.mask(['Spine']) });
    const r = seq.update(0.7);
    // Hip x: walk 1, plus 0.5 · (ramp(0.7) − ramp(0.2)) = 1.25
    expect(r.samples[0]).toBeCloseTo(1.25, 6);
    // Spine rotation: walk's identity ⊗ (wave 90° z relative to its reference, which is the same static pose) = identity
    expectSameRotation(r.samples.subarray(12, 16), [0, 0, 0, 1]);
    // Spine translation: (0, 2, 0) + (2 − 2) from wave
    expect(Array.from(r.samples.subarray(8, 12))).toEqual([0, 2, 0, 0]);
    seq.dispose();
  });

  it('masks a normal upper-body layer over a walk under both rules', () => {
    for (const rule of ['priority', 'weighted'] as const) {
      const seq = new AnimSequencer(core, character(), { rule, rotation: 'slerp' });
      seq.enqueue({ clip: 'walk', loops: 0 });
      seq.enqueue({ clip: 'wave', track: 1, loops: 0, weight: 0.5, mask: seq.mask(['Spine'], { children: true }) });
      const r = seq.update(0.5);
      expect(r.samples[0]).toBe(1); // Hip untouched by the masked layer
      // priority: slerp(identity, 90°, 0.5); weighted: W = 1.5 → slerp(identity, 90°, 0.5 / 1.5)
      expectSameRotation(r.samples.subarray(12, 16), axisAngle([0, 0, 1], rule === 'priority' ? 45 : 30));
      seq.dispose();
    }
    expect(qmul([0, 0, 0, 1], [0, 0, 0, 1])).toEqual([0, 0, 0, 1]);
  });
});

describe('one call into WebAssembly per frame', () => {
  it('samples, blends and adds every active job in a single blend call (memory of expired jobs aside)', () => {
    const seq = new AnimSequencer(core, character(), { rule: 'weighted', rotation: 'slerp' });
    seq.enqueue({ clip: 'walk', fadeOut: 0.2 });
    seq.enqueue({ clip: 'ramp', at: 0, loops: 0, fadeIn: 0.5, enqueue: 'append' });
    seq.enqueue({ clip: 'wave', track: 1, loops: 0, weight: 0.5, mask: seq.mask(['Spine']) });
    seq.enqueue({ clip: 'ramp', track: 2, mode: 'additive', loops: 0, weight: 0.5, reference: 0.2 });
    seq.update(0); // inserts the jobs (buffers, additive references)
    const recorder = recordKernelCalls(core);
    try {
      for (const t of [0.1, 0.35, 0.6, 1.7]) {
        recorder.calls.length = 0;
        seq.update(t);
        expect(recorder.calls.filter((c) => c !== 'alloc' && c !== 'free')).toEqual(['blend']);
      }
    } finally {
      recorder.restore();
    }
    // Hip x at 1.7: walk ended at 1; ramp, appended at 0.8, fully in at clip time 0.9; plus
    // 0.5 · (ramp(0.7) − ramp(0.2)) from the additive layer.
    expect(seq.result.samples[0]).toBeCloseTo(0.9 + 0.5 * (0.7 - 0.2), 6);
    seq.dispose();
  });
});

describe('model space of a blend result (spec §3–§4)', () => {
  // Under `weighted`, a curve no normal job defines is filled by the rest pose with count 0; an
  // additive job may still move it. Composition must read it, not fall back to the rest.
  it('composes a rest-filled curve that an additive job moves: AnimSequencer, LocalToModelJob and a layered SampleManyJob', () => {
    const resource = character();
    const seq = new AnimSequencer(core, resource, { rule: 'weighted' });
    seq.enqueue({ clip: 'wave', loops: 0 }); // leaves the Hip inactive
    seq.enqueue({ clip: 'ramp', track: 1, mode: 'additive', loops: 0, weight: 0.5, reference: 0.2 });
    const model = new LocalToModelJob(core, seq.layout.binding());
    const r = seq.update(0.7, { model });
    expect(r.counts[0]).toBe(0); // Hip.translation: only the rest fills it …
    expect(Array.from(r.samples.subarray(0, 3))).toEqual([expect.closeTo(0.25, 6), 10, 0]); // … plus 0.5 · (0.7 − 0.2)
    const hip = (m: Float32Array) => Array.from(m.subarray(12, 15));
    expect(hip(model.matrices)).toEqual([expect.closeTo(0.25, 6), 10, 0]);
    const alone = new LocalToModelJob(core, seq.layout.binding());
    alone.run(r, { blended: true });
    expect(Array.from(alone.matrices)).toEqual(Array.from(model.matrices));
    alone.run(r); // by counts: the rest pose
    expect(hip(alone.matrices)).toEqual([0, 10, 0]);
    const [wave, ramp] = [resource.clip('wave'), resource.clip('ramp')];
    const many = core.createSampleMany({
      clip: wave,
      layers: [{ clip: wave }, { clip: ramp, mode: 'additive', reference: 0.2 }],
      blend: { rule: 'weighted' },
      instances: 1,
      output: 'model',
      skeleton: resource.skeleton!,
    });
    many.run([0.7, 0.7], [1, 0.5]);
    expect(Array.from(many.matrices)).toEqual(Array.from(model.matrices));
    for (const o of [seq, model, alone, many]) o.dispose();
  });
});
