import { beforeAll, describe, expect, it } from 'vitest';
import { type AnimClip, bindJoints, type SampleArrays } from '../../src/anim/index.js';
import { type AnimCore, localToModel } from '../../src/core/index.js';
import { FormatError, UsageError } from '../../src/errors.js';
import { openFormatFile, planSet } from '../../src/formats/open-files.js';
import { AMB_HEADER_BYTES, meteorHandler, meteorLoopTime, openMeteorCharacter } from '../../src/formats/meteor/index.js';
import { detectFormat } from '../../src/formats/registry.js';
import { referenceLocalToModel, referenceSample } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { expectedJson, haveFixtures, readFixture } from '../helpers/fixtures.js';

const within = (actual: ArrayLike<number>, expected: number[], tol: number, what: string) =>
  expected.forEach((v, i) => expect(Math.abs(actual[i]! - v), `${what}[${i}]: ${actual[i]} vs ${v}`).toBeLessThanOrEqual(tol));

/** Quaternions within `tol` up to sign (q and −q are one rotation; keys are sign-aligned at load, §10). */
const withinRotation = (actual: ArrayLike<number>, expected: number[], tol: number, what: string) => {
  const dot = expected.reduce((sum, v, i) => sum + v * actual[i]!, 0);
  within(actual, dot < 0 ? expected.map((v) => -v) : expected, tol, what);
};

/** A file quaternion w x y z as the model's x y z w. */
const xyzw = ([w, x, y, z]: number[]) => [x!, y!, z!, w!];

describe.runIf(haveFixtures('meteor'))('openMeteorCharacter on P0', () => {
  const e = expectedJson('meteor');
  const files = { amb: readFixture('meteor', 'p0.amb'), bnc: readFixture('meteor', 'P0.bnc'), pos: readFixture('meteor', 'P0.pos') };
  const resource = openMeteorCharacter({ ...files, skc: readFixture('meteor', 'p0.skc') });
  const skeleton = resource.skeleton!;

  it('has the 36-joint skeleton, one clip per available pose, and lists the unavailable ones', () => {
    expect(skeleton.size).toBe(36);
    expect(resource.clips.map((c) => c.name)).toEqual(e.pos.source1_poses.map((n: number) => `pose${n}`));
    const unavailable = resource.info.unavailablePoses as { pose: number; reason: string }[];
    expect(unavailable).toHaveLength(e.pos.pose_count - e.pos.empty_poses - e.pos.source1_poses.length);
    expect(unavailable.every((u) => /character\.amb/.test(u.reason))).toBe(true);
    expect(resource.warnings).toEqual([expect.stringMatching(/470 poses use character\.amb/)]);
    expect(resource.info).toMatchObject({ bones: 30, dummies: 6, frames: 650, fps: 30, emptyPoses: 95, skin: [{ vertices: 1290, triangles: 1482 }] });
  });

  it('carries timing, the loop window, link and windows as metadata and events', () => {
    for (const [n, x] of Object.entries<any>(e.pos.poses)) {
      if (x.source !== 1) continue;
      const clip = resource.clip(`pose${n}`);
      expect(clip.duration).toBeCloseTo(x.duration_s, 5);
      const loop = clip.metadata.loop as { start: number; end: number } | null;
      if (x.loop_window_s) {
        expect(loop!.start).toBeCloseTo(x.loop_window_s[0], 5);
        expect(loop!.end).toBeCloseTo(x.loop_window_s[1], 5);
        expect(clip.events.filter((ev) => ev.category === 'loop').map((ev) => ev.time)).toEqual([loop!.start, loop!.end]);
      } else expect(loop).toBeNull();
      expect(clip.metadata).toMatchObject({ pose: Number(n), startFrame: x.start, endFrame: x.end });
    }
    expect(resource.clip('pose22').metadata.link).toBe(34);
  });

  /** The expected sample cases as [clip, time, expectation]. */
  const cases = Object.entries<any>(e.samples).map(([key, s]) => {
    const [, pose, t] = /^pose(\d+)@([\d.]+)s$/.exec(key)!;
    return [key, `pose${pose}`, Number(t), s] as const;
  });

  const checkSample = (clip: AnimClip, samples: Float32Array, s: any) => {
    within(samples.subarray(0, 4), s.root_pos_file_xyz, 1e-5, 'root');
    withinRotation(samples.subarray(4, 8), xyzw(s.bone0_quat_file_wxyz), 1e-5, 'bone 0');
    withinRotation(samples.subarray(4 * 26, 4 * 26 + 4), xyzw(s.bone25_quat_file_wxyz), 1e-5, 'bone 25');
    expect(clip.curves[26]!.target).toEqual({ joint: 'bau_R_Hand', property: 'rotation' });
  };

  const checkWorld = (m: Float32Array, s: any) => {
    for (const [name, p] of Object.entries<number[]>(s.world_file_xyz)) within(m.subarray(16 * skeleton.indexOf(name) + 12), p, 1e-4, name);
  };

  describe('reference', () => {
    it.each(cases)('%s', (_, name, t, s) => {
      const clip = resource.clip(name);
      const out: SampleArrays = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
      referenceSample(clip, t, out, { rotation: 'slerp' });
      checkSample(clip, out.samples, s);
      const m = new Float32Array(16 * skeleton.size);
      referenceLocalToModel(out, bindJoints(clip.curves, skeleton), m);
      checkWorld(m, s);
    });
  });

  describe.each(BUILDS)('%s build', (build) => {
    let core: AnimCore;
    beforeAll(async () => {
      core = await createCore(build);
      core.load(resource);
    });

    const sample = (name: string, t: number) => {
      const clip = resource.clip(name);
      const buf = core.createSampleBuffer(clip);
      core.sampler.sample(clip, t, buf, { rotation: 'slerp' });
      return { clip, buf };
    };

    it.each(cases)('%s: local values and world positions', (_, name, t, s) => {
      const { clip, buf } = sample(name, t);
      checkSample(clip, buf.samples, s);
      const m = new Float32Array(16 * skeleton.size);
      localToModel(core, buf, bindJoints(clip.curves, skeleton), m);
      checkWorld(m, s);
      buf.dispose();
    });

    it('takes the shortest arc across the sign flip of bone 25 (pose 22 @ 0.45 s)', () => {
      const f = e.sign_flip_case;
      for (const rotation of ['slerp', 'nlerp'] as const) {
        const { clip, buf } = sample('pose22', 0.45);
        core.sampler.sample(clip, 0.45, buf, { rotation });
        const q = buf.samples.subarray(4 * 26, 4 * 26 + 4);
        within(q, xyzw(f.shortest_mid_wxyz), 1e-5, rotation);
        const naive = xyzw(f.naive_mid_wxyz);
        expect(Math.max(...naive.map((v, i) => Math.abs(v - q[i]!)))).toBeGreaterThan(0.1);
        buf.dispose();
      }
    });

    it('clamps outside the clip and loops LoopStart–LoopEnd with meteorLoopTime', () => {
      const end = sample('pose22', 99);
      const last = sample('pose22', end.clip.duration);
      expect(end.buf.samples).toEqual(last.buf.samples);
      const clip = resource.clip('pose140');
      const loop = clip.metadata.loop as { start: number; end: number };
      const length = loop.end - loop.start;
      const wrapped = sample('pose140', meteorLoopTime(clip, loop.end + 2 * length + 0.3));
      const inside = sample('pose140', loop.start + 0.3);
      within(wrapped.buf.samples, Array.from(inside.buf.samples), 1e-5, 'wrapped');
      for (const s of [end, last, wrapped, inside]) s.buf.dispose();
    });
  });

  it('mirrors y↔z for Y-up consumers (the game’s Unity form, §2)', () => {
    const mirrored = openMeteorCharacter({ ...files, mirrorYZ: true });
    const clip = mirrored.clip('pose0');
    const out: SampleArrays = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
    referenceSample(clip, 0, out); // frame 1
    within(out.samples.subarray(0, 3), e.frames['1'].root_pos_unity_xyz, 1e-5, 'root');
    withinRotation(out.samples.subarray(4, 8), e.frames['1'].bone0_quat_unity_xyzw, 1e-5, 'bone 0');
    expect(mirrored.info.space).toMatch(/mirror/);
  });

  it('plays character.amb poses when it is given (frames starting at 1)', () => {
    // A stand-in shared-move file: p0.amb records 0…399 stored as frames 1…400.
    const shared = files.amb.slice(0, AMB_HEADER_BYTES + 400 * 698);
    const view = new DataView(shared.buffer);
    view.setInt32(13, 400, true);
    for (let r = 0; r < 400; r++) view.setInt32(AMB_HEADER_BYTES + 698 * r + 4, r + 1, true);
    const withShared = openMeteorCharacter({ ...files, characterAmb: shared });
    const pose10 = withShared.clip('pose10'); // source 0, frames 1–55
    expect(pose10.metadata.source).toBe(0);
    const out: SampleArrays = { samples: new Float32Array(4 * pose10.curves.length), counts: new Uint8Array(pose10.curves.length) };
    referenceSample(pose10, 0, out);
    within(out.samples.subarray(0, 3), e.frames['0'].root_pos_file_xyz, 1e-5, 'frame 1 = record 0');
    const unavailable = withShared.info.unavailablePoses as { pose: number; reason: string }[];
    expect(unavailable.find((u) => u.pose === 1)!.reason).toMatch(/frame 7242 .* not in character\.amb/);
  });

  it("opens a 1.07 pose table, whose brace line carries `source 0` (`{  source     0`), like the game", () => {
    // Pose 10 (source 0, frames 1–55) written the 1.07 way; the game's parser opens the block on
    // that line and never reads the source, which stays at its default, 0 — the value written.
    const shared = files.amb.slice(0, AMB_HEADER_BYTES + 400 * 698);
    const view = new DataView(shared.buffer);
    view.setInt32(13, 400, true);
    for (let r = 0; r < 400; r++) view.setInt32(AMB_HEADER_BYTES + 698 * r + 4, r + 1, true);
    const text = Buffer.from(files.pos).toString('latin1');
    const at = text.indexOf('Pose 10\r\n') >= 0 ? text.indexOf('Pose 10\r\n') : text.indexOf('Pose 10\n');
    const v107 = text.slice(0, at) + text.slice(at).replace(/\{\r?\n\s*source\s+0/, '{  source     0');
    expect(v107).not.toBe(text);
    const before = openMeteorCharacter({ ...files, characterAmb: shared });
    const after = openMeteorCharacter({ ...files, pos: new Uint8Array(Buffer.from(v107, 'latin1')), characterAmb: shared });
    expect(after.warnings).toEqual(before.warnings);
    expect(after.clips.map((c) => c.name)).toEqual(before.clips.map((c) => c.name));
    const [a, b] = [before.clip('pose10'), after.clip('pose10')];
    expect(b.metadata.source).toBe(0);
    expect(b.duration).toBe(a.duration);
    expect(b.curves).toEqual(a.curves);
  });

  it('rejects an .amb that does not match the .bnc', () => {
    const amb = files.amb.slice();
    for (let r = 0; r < 650; r++) amb[AMB_HEADER_BYTES + 698 * r + 20 + 16 * 30 + 33 + 1] = 0x39; // dummy 1's tag b13 → b93
    expect(() => openMeteorCharacter({ ...files, amb })).toThrow(FormatError);
    expect(() => openMeteorCharacter({ ...files, amb })).toThrow(/"b93" differs from the \.bnc parent "b13"/);
    const fewer = files.amb.slice(0, AMB_HEADER_BYTES);
    new DataView(fewer.buffer).setInt32(13, 0, true);
    new DataView(fewer.buffer).setInt32(5, 29, true);
    expect(() => openMeteorCharacter({ ...files, amb: fewer })).toThrow(/29 bones/);
  });

  describe('format handler', () => {
    const names: Record<string, Uint8Array> = { 'p0.amb': files.amb, 'P0.bnc': files.bnc, 'P0.pos': files.pos, 'p0.skc': readFixture('meteor', 'p0.skc') };
    const folder = (entries: Record<string, Uint8Array>) => ({ names: () => Object.keys(entries), read: (name: string) => entries[name]! });

    it('detects .amb by its BANIM magic and is registered', () => {
      expect(meteorHandler.detect(files.amb, 'x.bin')).not.toBeNull();
      expect(meteorHandler.detect(files.bnc, 'P0.bnc')).toBeNull();
      expect(detectFormat(files.amb, 'p0.amb')?.handler.id).toBe('meteor');
    });

    it('finds P0.bnc and P0.pos next to p0.amb case-insensitively, or takes companions', async () => {
      const r = await openFormatFile({ name: 'game/p0.amb', bytes: files.amb }, { folder: folder(names) });
      expect(r.resource.clips).toHaveLength(9);
      expect(r.resource.info.skin).toBeDefined();
      expect(r.companions.map((c) => c.file)).toEqual(['P0.bnc', 'P0.pos', 'p0.skc']);
      const given = { bnc: { file: 'b', bytes: files.bnc }, pos: { file: 'p', bytes: files.pos } };
      const named = await openFormatFile({ name: 'elsewhere/walk.amb', bytes: files.amb }, { companions: given });
      expect(named.resource.clips).toHaveLength(9);
      await expect(openFormatFile({ name: 'elsewhere/walk.amb', bytes: files.amb }, { companions: { bnc: given.bnc } })).rejects.toThrow(UsageError);
      await expect(openFormatFile({ name: 'elsewhere/walk.amb', bytes: files.amb }, { companions: { bnc: given.bnc } })).rejects.toThrow(/no walk\.pos beside it.*--pos/);
    });

    it('in a folder, character.amb is a companion of p0.amb, not an input of its own', () => {
      const plan = planSet(['character.amb', 'p0.amb', 'P0.bnc'].map((name) => ({ name, detection: name.endsWith('.amb') ? detectFormat(files.amb, name) : null })));
      expect(plan.mains.map((m) => m.name)).toEqual(['p0.amb']);
      expect(plan.companions.map((m) => m.name)).toEqual(['character.amb']);
      expect(plan.undetected.map((m) => m.name)).toEqual(['P0.bnc']);
    });
  });
});
