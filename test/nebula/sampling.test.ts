// Sampling the Nebula fixtures against expected.json (derived by an independent script): the n3
// cases (N3 2009 semantics: slerp for rotations, integer ticks), the n2 cases (Nebula2: its slerp
// falls back to an unnormalised lerp below 1 − cos < 0.05, so the normalised expected value equals
// our nlerp there and our slerp elsewhere), and the AnimMixer::Mix case; both wasm builds.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimClip, AnimResource } from '../../src/anim/index.js';
import type { AnimCore, AnimSampleBuffer } from '../../src/core/index.js';
import { openNebula } from '../../src/formats/nebula/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { expectedJson, haveFixtures, readFixture } from '../helpers/fixtures.js';

type Vec4 = [number, number, number, number];
interface N3Case {
  tick: number;
  sampleType: 'linear' | 'step';
  counts: number[];
  samples: (Vec4 | null)[];
}

const FILES: Record<string, string | undefined> = {
  'bouncingball.nax2': undefined,
  'eagle.nax2': 'eagle.n2',
  'kila_layoutA.nax2': 'kila.n2',
  'kila_layoutB.nax2': 'kila.n2',
  'Unit_Footman.nax3': 'Unit_Footman.constants',
};

function close(a: ArrayLike<number>, b: ArrayLike<number>, tol: number): boolean {
  for (let i = 0; i < 4; i++) if (!(Math.abs(a[i]! - b[i]!) <= tol)) return false;
  return true;
}

/** Equal within `tol`, or (for quaternions) equal to the negated value. */
function closeUpToSign(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number): boolean {
  return close(actual, expected, tol) || close(actual, Array.from(expected, (x) => -x), tol);
}

function normalized(q: Vec4): Vec4 {
  const l = Math.hypot(...q);
  return q.map((x) => x / l) as Vec4;
}

function clipOf(resource: AnimResource, key: string): AnimClip {
  const m = /^clip(\d+)$/.exec(key);
  return m ? resource.clips[Number(m[1])]! : resource.clip(key);
}

describe.skipIf(!haveFixtures('nebula')).each(BUILDS)('Nebula fixtures sampled by the %s build reproduce expected.json', (build) => {
  const expected = expectedJson('nebula');
  let core: AnimCore;
  const resources = new Map<string, AnimResource>();

  beforeAll(async () => {
    core = await createCore(build);
    for (const [file, skeleton] of Object.entries(FILES)) {
      const resource = openNebula({ animation: readFixture('nebula', file), skeleton: skeleton ? readFixture('nebula', skeleton) : undefined });
      core.load(resource);
      resources.set(file, resource);
    }
  });

  function sampleAt(clip: AnimClip, seconds: number, options: Parameters<AnimCore['sampler']['sample']>[3]): AnimSampleBuffer {
    const buf = core.createSampleBuffer(clip);
    core.sampler.sample(clip, seconds, buf, options);
    return buf;
  }

  it.each(Object.keys(FILES))('%s: n3 cases (N3 2009 AnimUtil::Sample)', (file) => {
    const resource = resources.get(file)!;
    let checked = 0;
    for (const [key, clipCases] of Object.entries(expected.files[file].n3 as Record<string, { cases: N3Case[] }>)) {
      const clip = clipOf(resource, key);
      for (const c of clipCases.cases) {
        const buf = sampleAt(clip, c.tick / 1000, { rotation: 'slerp', sampleType: c.sampleType });
        expect(Array.from(buf.counts), `${file} ${key} tick ${c.tick}`).toEqual(c.counts);
        c.samples.forEach((s, i) => {
          if (s === null) return; // inactive curve: no defined value
          const ok = closeUpToSign(buf.sampleOf(i), s, 1e-5);
          if (!ok) expect(buf.sampleOf(i), `${file} ${key} tick ${c.tick} ${c.sampleType} curve ${i}`).toEqual(s);
          checked++;
        });
        buf.dispose();
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it.each(['bouncingball.nax2', 'eagle.nax2', 'kila_layoutA.nax2'])('%s: n2 cases (Nebula2 SampleCurves)', (file) => {
    const resource = resources.get(file)!;
    let checked = 0;
    for (const [key, cases] of Object.entries(expected.files[file].n2 as Record<string, { timeSec: number; samples: Vec4[] }[]>)) {
      const clip = clipOf(resource, key);
      for (const c of cases) {
        const lerped = sampleAt(clip, c.timeSec, { rotation: 'nlerp' });
        const slerped = sampleAt(clip, c.timeSec, { rotation: 'slerp' });
        c.samples.forEach((s, i) => {
          const rotation = clip.curves[i]!.curveType === 'rotation';
          const want = rotation ? normalized(s) : s;
          const ok = closeUpToSign(lerped.sampleOf(i), want, 1e-5) || (rotation && closeUpToSign(slerped.sampleOf(i), want, 1e-5));
          if (!ok) expect(lerped.sampleOf(i), `${file} ${key} t=${c.timeSec} curve ${i}`).toEqual(want);
          checked++;
        });
        lerped.dispose();
        slerped.dispose();
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('Unit_Footman: AnimMixer::Mix(walk@100 ticks, idle@100 ticks, w = 0.25)', () => {
    const resource = resources.get('Unit_Footman.nax3')!;
    const mix = expected.files['Unit_Footman.nax3'].mix as { counts: number[]; samples: Vec4[] };
    const a = sampleAt(resource.clip('walk'), 0.1, { rotation: 'slerp' });
    const b = sampleAt(resource.clip('idle'), 0.1, { rotation: 'slerp' });
    core.mixer.mix(a, b, 0.25, a, { rotation: 'slerp' });
    expect(Array.from(a.counts)).toEqual(mix.counts);
    mix.samples.forEach((s, i) => {
      if (!closeUpToSign(a.sampleOf(i), s, 1e-5)) expect(a.sampleOf(i), `curve ${i}`).toEqual(s);
    });
    a.dispose();
    b.dispose();
  });

  it('SIMD and scalar builds agree on every fixture clip at 50 times', async () => {
    const other = await createCore(build === 'simd' ? 'scalar' : 'simd');
    for (const resource of resources.values()) {
      other.load(resource);
      for (const clip of resource.clips) {
        const x = core.createSampleBuffer(clip);
        const y = other.createSampleBuffer(clip);
        for (let k = 0; k < 50; k++) {
          const t = -0.5 + (k * clip.duration * 2.3) / 50;
          core.sampler.sample(clip, t, x);
          other.sampler.sample(clip, t, y);
          const xs = x.samples;
          const ys = y.samples;
          for (let i = 0; i < xs.length; i++) expect(Math.abs(xs[i]! - ys[i]!)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(xs[i]!)));
        }
        x.dispose();
        y.dispose();
      }
    }
  });
});
