import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { openFile } from '../../src/formats/open-file.js';
import { referenceSample } from '../../src/reference/index.js';
import { loadSequence, type SequenceFile } from '../../src/sequencer/index.js';
import { createCore } from '../helpers/core.js';
import { expectedJson, fixturePath, haveFixtures } from '../helpers/fixtures.js';

// Every fixture family through one sequence: a cross-fade from clip A to clip B on track 0 (A
// intercepted at 0.5 with a 0.4 s fade-out, B fading in over 0.4 s), evaluated at t = 0.7 where
// both weigh 0.5. Expected values: each clip sampled alone by the plain-TypeScript sampler at
// the clip times worked out below, then blended by the few lines of the rule written here —
// independent of the sequencer, the blend kernel and its twin.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let core: AnimCore;
beforeAll(async () => {
  core = await createCore('simd');
});

type V4 = [number, number, number, number];

function slerp(a: V4, b: V4, t: number): V4 {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = d < 0 ? -1 : 1;
  d = Math.min(1, Math.abs(d));
  const th = Math.acos(d);
  if (th < 1e-6) return a.map((v, k) => v + (s * b[k]! - v) * t) as V4;
  const p = Math.sin((1 - t) * th) / Math.sin(th);
  const q = (s * Math.sin(t * th)) / Math.sin(th);
  return a.map((v, k) => p * v + q * b[k]!) as V4;
}

function nlerpMean(a: V4, b: V4): V4 {
  const s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  const m = a.map((v, k) => v + s * b[k]!);
  const len = Math.hypot(...m);
  return m.map((v) => v / len) as V4;
}

interface Family {
  name: string;
  fixture: string | null;
  open: () => Promise<AnimResource>;
  clips: [string, string];
  rule: 'priority' | 'weighted';
  rotation: 'nlerp' | 'slerp';
  /** Extra job fields (e.g. offsets so that one clip plays against itself). */
  a?: Record<string, number>;
  b?: Record<string, number>;
}

const fx = (format: string, name: string) => fixturePath(format, name);
const families: Family[] = [
  {
    name: 'Nebula Footman (nax3 + constants), priority, slerp',
    fixture: 'nebula',
    open: async () => (await openFile(fx('nebula', 'Unit_Footman.nax3'), { companions: { skeleton: fx('nebula', 'Unit_Footman.constants') } })).resource,
    clips: ['walk', 'charge'],
    rule: 'priority',
    rotation: 'slerp',
  },
  {
    name: 'Meteor p0 poses (amb + bnc), priority, nlerp',
    fixture: 'meteor',
    open: async () => (await openFile(fx('meteor', 'p0.amb'))).resource,
    clips: ['pose0', 'pose20'],
    rule: 'priority',
    rotation: 'nlerp',
  },
  {
    name: 'MRTK recording (one clip against itself), weighted, nlerp',
    fixture: null,
    open: async () => (await openFile(join(root, 'examples/mrtk/hand-wave.bin'))).resource,
    clips: ['hand-wave', 'hand-wave'],
    rule: 'weighted',
    rotation: 'nlerp',
    b: { timeOffset: 0.6 },
  },
  {
    name: 'AAF scene (one clip against itself), weighted, nlerp',
    fixture: null,
    open: async () => (await openFile(join(root, 'examples/aaf/teapot-man.scene.aaf'))).resource,
    clips: ['animation', 'animation'],
    rule: 'weighted',
    rotation: 'nlerp',
    b: { timeOffset: 0.3 },
  },
];

describe('a cross-fade sequence on every fixture family', () => {
  for (const f of families) {
    it.runIf(f.fixture === null || haveFixtures(f.fixture))(f.name, async () => {
      const resource = await f.open();
      const file: SequenceFile = {
        rule: f.rule,
        rotation: f.rotation,
        jobs: [
          { clip: f.clips[0], loops: 0, fadeOut: 0.4, ...f.a },
          { clip: f.clips[1], at: 0.5, loops: 0, fadeIn: 0.4, ...f.b },
        ],
      };
      const seq = loadSequence(core, resource, file);
      const result = seq.update(0.7);
      const got = { samples: result.samples.slice(), counts: result.counts.slice() };
      const weights = seq.jobs().map((j) => j.weight);
      seq.dispose();
      expect(weights[0]).toBeCloseTo(0.5, 12); // 1 − (0.7 − 0.5) / 0.4
      expect(weights[1]).toBeCloseTo(0.5, 12); // (0.7 − 0.5) / 0.4

      // Clip times: A looping from 0 → 0.7 mod its duration; B looping from 0.5 → 0.2 + offset.
      const [clipA, clipB] = f.clips.map((c) => resource.clip(c));
      const wrap = (c: number, d: number) => c - Math.floor(c / d) * d;
      const timeA = wrap(0.7 + (f.a?.timeOffset ?? 0), clipA!.duration);
      const timeB = wrap(0.2 + (f.b?.timeOffset ?? 0), clipB!.duration);
      const n = clipA!.curves.length;
      const sample = (clip: typeof clipA, t: number) => {
        const out = { samples: new Float32Array(4 * n), counts: new Uint8Array(n) };
        referenceSample(clip!, t, out, { rotation: f.rotation });
        return out;
      };
      const a = sample(clipA, timeA);
      const b = sample(clipB, timeB);
      expect(got.counts.length).toBe(n); // these families share one layout: the clips' own
      let checked = 0;
      clipA!.curves.forEach((c, i) => {
        const va = Array.from(a.samples.subarray(4 * i, 4 * i + 4)) as V4;
        const vb = Array.from(b.samples.subarray(4 * i, 4 * i + 4)) as V4;
        const ca = a.counts[i]!;
        const cb = b.counts[i]!;
        if (ca === 0 && cb === 0) {
          expect(got.counts[i]).toBe(0);
          return;
        }
        let want: V4;
        if (ca === 0 || cb === 0) {
          expect(f.rule).toBe('priority'); // (weighted would fill the other half with rest)
          want = ca > 0 ? va : vb;
        }
        // priority: A as is, B mixed in with 0.5; weighted: W = 1, the plain mean
        else if (c.curveType !== 'rotation') want = va.map((v, k) => (v + vb[k]!) / 2) as V4;
        else want = f.rotation === 'slerp' ? slerp(va, vb, 0.5) : nlerpMean(va, vb);
        const have = Array.from(got.samples.subarray(4 * i, 4 * i + 4));
        const s = c.curveType === 'rotation' && have.reduce((d, v, k) => d + v * want[k]!, 0) < 0 ? -1 : 1;
        have.forEach((v, k) => expect(Math.abs(v - s * want[k]!), `${c.target.joint}.${c.target.property}[${k}]`).toBeLessThan(2e-4 * Math.max(1, Math.abs(want[k]!))));
        expect(got.counts[i]).toBe(f.rule === 'priority' ? ca + cb : (ca > 0 ? 1 : 0) + (cb > 0 ? 1 : 0));
        checked++;
      });
      expect(checked).toBeGreaterThan(0);
    });
  }
});

// The same kind of sequence checked against expected.json, values derived by the fixtures' own
// independent scripts (no animcore sampler involved): Nebula3's AnimMixer::Mix case as a
// two-track priority sequence, and cross-fades whose clip times land on expected.json's samples
// (Meteor p0 poses, the large MRTK recording), blended by the few lines of the rule written here.
describe('sequences on the fixtures against expected.json', () => {
  const clipTimeJobs = (a: { clip: string; time: number }, b: { clip: string; time: number }): SequenceFile['jobs'] => [
    // A from 0, intercepted at 0.5 (fade-out 0.4); B from 0.5 (fade-in 0.4): at 0.7 both weigh 0.5,
    // A at clip time 0.7 + offset, B at 0.2 + offset.
    { clip: a.clip, loops: 0, fadeOut: 0.4, timeOffset: a.time - 0.7 },
    { clip: b.clip, at: 0.5, loops: 0, fadeIn: 0.4, timeOffset: b.time - 0.2 },
  ];

  it.runIf(haveFixtures('nebula'))('Nebula Footman: AnimMixer::Mix(walk@100 ticks, idle@100 ticks, w = 0.25) as walk on track 0 and idle on track 1 at weight 0.25', async () => {
    const resource = (await openFile(fx('nebula', 'Unit_Footman.nax3'), { companions: { skeleton: fx('nebula', 'Unit_Footman.constants') } })).resource;
    const mix = expectedJson('nebula').files['Unit_Footman.nax3'].mix as { counts: number[]; samples: V4[] };
    const seq = loadSequence(core, resource, { rule: 'priority', rotation: 'slerp', jobs: [{ clip: 'walk', loops: 0 }, { clip: 'idle', track: 1, loops: 0, weight: 0.25 }] });
    const r = seq.update(0.1);
    expect(Array.from(r.counts)).toEqual(mix.counts);
    mix.samples.forEach((want, i) => expectClose(r.sampleOf(i), want, seq.layout.curveTypes[i] === 'rotation', 1e-5, `curve ${i}`));
    seq.dispose();
  });

  it.runIf(haveFixtures('meteor'))('Meteor p0: pose0 at 0.25 s cross-fading into pose140 at 1.016667 s (priority, nlerp)', async () => {
    const resource = (await openFile(fx('meteor', 'p0.amb'))).resource;
    const e = expectedJson('meteor').samples;
    const [a, b] = [e['pose0@0.250000s'], e['pose140@1.016667s']];
    const seq = loadSequence(core, resource, { rule: 'priority', rotation: 'nlerp', jobs: clipTimeJobs({ clip: 'pose0', time: 0.25 }, { clip: 'pose140', time: 1.016667 }) });
    const r = seq.update(0.7);
    const wxyz = (q: number[]): V4 => [q[1]!, q[2]!, q[3]!, q[0]!];
    // Curve 0: the root translation; 1: bone 0's rotation; 26: bone 25's (bau_R_Hand).
    expect(seq.layout.curves[26]).toMatchObject({ joint: 'bau_R_Hand', property: 'rotation' });
    expectClose(r.sampleOf(0).slice(0, 3), a.root_pos_file_xyz.map((v: number, k: number) => (v + b.root_pos_file_xyz[k]) / 2), false, 2e-5, 'root');
    expectClose(r.sampleOf(1), nlerpMean(wxyz(a.bone0_quat_file_wxyz), wxyz(b.bone0_quat_file_wxyz)), true, 2e-5, 'bone 0');
    expectClose(r.sampleOf(26), nlerpMean(wxyz(a.bone25_quat_file_wxyz), wxyz(b.bone25_quat_file_wxyz)), true, 2e-5, 'bone 25');
    seq.dispose();
  });

  it.runIf(haveFixtures('mrtk'))('MRTK recording: the clip at 4.641685 s cross-fading into itself at 7.25 s (weighted): positions are the means', async () => {
    const resource = (await openFile(fx('mrtk', 'InputAnimation-20201027-134946.bin'))).resource;
    const samples = expectedJson('mrtk').samples as Record<string, number[] | number>[];
    const [a, b] = [4.641685, 7.25].map((t) => samples.find((s) => s.t === t)!);
    const clip = resource.clip(0).name;
    const seq = loadSequence(core, resource, { rule: 'weighted', jobs: clipTimeJobs({ clip, time: 4.641685 }, { clip, time: 7.25 }) });
    const r = seq.update(0.7);
    for (const key of ['camera', 'left.Wrist', 'left.IndexTip', 'right.Wrist', 'right.IndexTip']) {
      const i = seq.layout.indexOf(key.replace('.', '/'), 'translation');
      const want = (a![key] as number[]).slice(0, 3).map((v, k) => (v + (b![key] as number[])[k]!) / 2);
      expectClose(r.sampleOf(i).slice(0, 3), want, false, 1e-4, key);
    }
    seq.dispose();
  });
});

/** Throws unless `actual` is within `tol` of `want` (rotations up to sign). */
function expectClose(actual: ArrayLike<number>, want: ArrayLike<number>, rotation: boolean, tol: number, what: string): void {
  const a = Array.from(actual);
  const w = Array.from(want);
  const s = rotation && a.reduce((d, v, k) => d + v * w[k]!, 0) < 0 ? -1 : 1;
  a.forEach((v, k) => expect(Math.abs(v - s * w[k]!), `${what}[${k}]: ${a.join(', ')} vs ${w.join(', ')}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w[k]!))));
}
