import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimClip, AnimResource } from '../../src/anim/index.js';
import type { AnimCore, AnimSampleBuffer } from '../../src/core/index.js';
import { mrtkToResource, readMrtk, TRACKED_HAND_JOINTS, writeMrtk } from '../../src/formats/mrtk/index.js';
import { referenceSampleUnity } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { expectedJson, haveFixtures, readFixture } from '../helpers/fixtures.js';

const SMALL = 'InputAnimation-20201011-130542.bin';
const LARGE = 'InputAnimation-20201027-134946.bin';

/** Index of the curve driving `joint`'s `property`. */
function curveIndex(clip: AnimClip, joint: string, property: string): number {
  const i = clip.curves.findIndex((c) => c.target.joint === joint && c.target.property === property);
  if (i < 0) throw new Error(`no curve ${joint} ${property}`);
  return i;
}

/** Translation xyz and rotation xyzw of a pose as 7 numbers (expected.json's layout). */
function pose(buf: AnimSampleBuffer, clip: AnimClip, joint: string): number[] {
  return [...buf.sampleOf(curveIndex(clip, joint, 'translation')).slice(0, 3), ...buf.sampleOf(curveIndex(clip, joint, 'rotation'))];
}

describe.runIf(haveFixtures('mrtk'))('sampling MRTK recordings', () => {
  describe.each(BUILDS)('%s build', (build) => {
    let core: AnimCore;
    let large: AnimResource;
    beforeAll(async () => {
      core = await createCore(build);
      large = mrtkToResource(readMrtk(readFixture('mrtk', LARGE)));
      core.load(large);
    });

    it('has the targets the issue lists', () => {
      const clip = large.clip(0);
      expect(clip.curves).toHaveLength(2 + 4 + 2 * 27 * 2 + 2);
      expect(clip.curves.map((c) => `${c.target.joint}.${c.target.property}`)).toEqual(
        expect.arrayContaining(['camera.rotation', 'left/IndexTip.translation', 'right/None.rotation', 'gaze.origin', 'gaze.direction', 'left.tracked', 'right.pinching']),
      );
      expect(clip.duration).toBeCloseTo(14.4626, 3);
      expect(large.info).toMatchObject({ version: '1.0', hasEyeGaze: false, keys: 118081 + 8 });
    });

    it('reproduces expected.json within 1e-4 in raw mode', () => {
      const clip = large.clip(0);
      const buf = core.createSampleBuffer(clip);
      const expected = expectedJson('mrtk').samples as Record<string, unknown>[];
      for (const s of expected) {
        const t = s.t as number;
        core.sampler.sample(clip, t, buf, { rotation: 'raw' });
        const check = (actual: number[], want: number[], what: string) =>
          want.forEach((v, c) => expect(Math.abs(actual[c]! - v), `${what} [${c}] at t=${t}`).toBeLessThanOrEqual(1e-4));
        check(pose(buf, clip, 'camera'), s.camera as number[], 'camera');
        for (const key of ['left.Wrist', 'left.IndexTip', 'right.Wrist', 'right.IndexTip']) {
          check(pose(buf, clip, key.replace('.', '/')), s[key] as number[], key);
        }
        const flag = (joint: string, property: string) => buf.sampleOf(curveIndex(clip, joint, property));
        expect(flag('left', 'tracked')).toEqual([s.trackedLeft ? 1 : 0, 0, 0, 0]);
        expect(flag('right', 'tracked')).toEqual([s.trackedRight ? 1 : 0, 0, 0, 0]);
        expect(flag('left', 'pinching')).toEqual([s.pinchLeft ? 1 : 0, 0, 0, 0]);
        expect(flag('right', 'pinching')).toEqual([s.pinchRight ? 1 : 0, 0, 0, 0]);
      }
      buf.dispose();
    });

    it('corrected rotations have unit length at every time, across the sign flips; raw ones dip near zero', () => {
      const clip = large.clip(0);
      const buf = core.createSampleBuffer(clip);
      const rotations = clip.curves.flatMap((c, i) => (c.curveType === 'rotation' && !c.target.joint!.endsWith('/None') ? [i] : []));
      let rawMin = Infinity;
      for (let t = -0.5; t <= clip.duration + 0.5; t += 1 / 240) {
        core.sampler.sample(clip, t, buf);
        for (const i of rotations) expect(Math.hypot(...buf.sampleOf(i))).toBeCloseTo(1, 5);
        core.sampler.sample(clip, t, buf, { rotation: 'raw' });
        for (const i of rotations) rawMin = Math.min(rawMin, Math.hypot(...buf.sampleOf(i)));
      }
      expect(rawMin).toBeLessThan(0.5);
      buf.dispose();
    });

    it('matches the reference sampler on the whole recording (raw and corrected)', () => {
      const clip = large.clip(0);
      const buf = core.createSampleBuffer(clip);
      const ref = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
      let worst = 0;
      for (let t = -1; t <= 16; t += 0.0371) {
        for (const rotation of ['raw', 'nlerp'] as const) {
          core.sampler.sample(clip, t, buf, { rotation });
          referenceSampleUnity(clip, t, ref, { rotation });
          buf.samples.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - ref.samples[i]!))));
        }
      }
      expect(worst).toBeLessThanOrEqual(1e-5);
      buf.dispose();
    });

    it('the empty recording samples to MRTK defaults: 0 for every curve raw, identity rotations corrected', () => {
      const res = mrtkToResource(readMrtk(readFixture('mrtk', SMALL)));
      core.load(res);
      const clip = res.clip(0);
      const buf = core.createSampleBuffer(clip);
      core.sampler.sample(clip, 1, buf, { rotation: 'raw' });
      clip.curves.forEach((c, i) => {
        const want = c.target.joint === 'gaze' && c.target.property === 'direction' ? [0, 0, 1, 0] : [0, 0, 0, 0];
        expect(buf.sampleOf(i), `${c.target.joint}.${c.target.property}`).toEqual(want);
      });
      core.sampler.sample(clip, 1, buf);
      for (const hand of ['left', 'right']) {
        for (const j of TRACKED_HAND_JOINTS) expect(buf.sampleOf(curveIndex(clip, `${hand}/${j}`, 'rotation'))).toEqual([0, 0, 0, 1]);
        expect(buf.sampleOf(curveIndex(clip, hand, 'tracked'))).toEqual([0, 0, 0, 0]);
      }
      expect(Array.from(buf.counts).every((c) => c === 1)).toBe(true);
      buf.dispose();
      res.dispose();
    });

    it('a 1.1 recording without flags samples to MRTK defaults (§4.2); its conversion samples like the original', () => {
      const rec = readMrtk(readFixture('mrtk', LARGE));
      const none = mrtkToResource(readMrtk(writeMrtk({ ...rec, versionMinor: 1, camera: null, hands: null }, { versionMinor: 1 })));
      const v11 = mrtkToResource(readMrtk(writeMrtk(rec, { versionMinor: 1 })));
      core.load(none);
      core.load(v11);
      const buf = core.createSampleBuffer(none.clip(0));
      core.sampler.sample(none.clip(0), 3, buf, { rotation: 'raw' });
      expect(pose(buf, none.clip(0), 'camera')).toEqual([0, 0, 0, 0, 0, 0, 1]);
      expect(pose(buf, none.clip(0), 'left/Wrist')).toEqual([0, 0, 0, 0, 0, 0, 1]);
      expect(buf.sampleOf(curveIndex(none.clip(0), 'gaze', 'direction'))).toEqual([0, 0, 1, 0]);
      const orig = core.createSampleBuffer(large.clip(0));
      let worst = 0;
      for (let t = -1; t < 16; t += 0.1) {
        core.sampler.sample(large.clip(0), t, orig, { rotation: 'raw' });
        core.sampler.sample(v11.clip(0), t, buf, { rotation: 'raw' });
        buf.samples.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - orig.samples[i]!))));
      }
      expect(worst).toBeLessThanOrEqual(1e-5);
      buf.dispose();
      orig.dispose();
      none.dispose();
      v11.dispose();
    });
  });
});
