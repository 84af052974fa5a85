import { describe, expect, it } from 'vitest';
import { loopTime, poseTimeTable, readPos } from '../../src/formats/meteor/index.js';
import { expectedJson, haveFixtures, readFixture } from '../helpers/fixtures.js';
import { errorLine } from '../helpers/format-error.js';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

const SAMPLE = [
  'Pose 0      #\xb2\xa7\xb1`\xaa\xac\xbaA', // a Big5 comment
  '{',
  '  Source     1',
  '  start      001',
  '  End        20\t ',
  '  LoopStart  3',
  '  LoopEnd    12',
  '  EffectType 0',
  '  EffectID   Pos000',
  '  Link       034',
  '  Blend',
  '  {',
  '    start 1',
  '    end   4',
  '    Speed 2',
  '  }',
  '  Action',
  '  {',
  '    start 3',
  '    end   20',
  '  }',
  '  Attack',
  '  {',
  '    bone = "bau R Hand", "weapon",',
  '           "bad L Foot"',
  '    Start       5',
  '    End         7',
  '    AttackType  1',
  '    CheckFriend 0',
  '    DefenseValue 0.5',
  '    DefenseMove 2',
  '    TargetValue 1',
  '    TargetMove  3',
  '    TargetPose  096',
  '    TargetPoseFront  095',
  '  }',
  '  Attack',
  '  {',
  '    bone = "effect"',
  '    Start 8',
  '    End 9',
  '  }',
  '  Drag',
  '  {',
  '    Start  5',
  '    End    9',
  '    Time   0.05',
  '    Color  255,255,198',
  '  }',
  '  NextPose',
  '  {',
  '    start 6',
  '    end   15',
  '    Time  0.1',
  '  }',
  '}',
  'Pose 1',
  '{}',
].join('\r\n');

/** SAMPLE with line `no` (1-based) replaced by `line`, or removed when `null`. */
function edit(no: number, line: string | null): Uint8Array {
  const lines = SAMPLE.split('\r\n');
  if (line === null) lines.splice(no - 1, 1);
  else lines[no - 1] = line;
  return bytes(lines.join('\n'));
}

describe('readPos grammar', () => {
  const [pose, empty] = readPos(bytes(SAMPLE)).poses;

  it('reads every keyword, case variants, leading zeros, CRLF and comments in any encoding', () => {
    expect(pose).toMatchObject({ number: 0, empty: false, source: 1, start: 1, end: 20, loopStart: 3, loopEnd: 12, effectType: 0, effectId: 'Pos000', link: 34 });
    expect(pose!.segments).toEqual([
      { kind: 'blend', start: 1, end: 4, speed: 2, line: 11 },
      { kind: 'action', start: 3, end: 20, speed: 1, line: 17 },
    ]);
    expect(pose!.attacks).toHaveLength(2);
    expect(pose!.attacks[0]).toMatchObject({
      bones: ['bau_R_Hand', 'weapon', 'bad_L_Foot'],
      start: 5,
      end: 7,
      attackType: 1,
      checkFriend: 0,
      defenseValue: 0.5,
      defenseMove: 2,
      targetPose: 96,
      targetPoseFront: 95,
      targetPoseBack: null,
    });
    expect(pose!.attacks[1]).toMatchObject({ bones: ['effect'], start: 8, end: 9 });
    expect(pose!.drags).toEqual([{ start: 5, end: 9, time: 0.05, color: [255, 255, 198], line: 43 }]);
    expect(pose!.nextPoses).toEqual([{ start: 6, end: 15, time: 0.1, line: 50 }]);
    expect(empty).toMatchObject({ number: 1, empty: true, source: null });
  });

  it('builds the time table from the first matching segment (§7.1)', () => {
    const kt = poseTimeTable({ start: 1, end: 20, segments: pose!.segments }, 30);
    // Frames 2–4 at speed 2 (the Blend wins over the overlapping Action), 5–20 at speed 1.
    expect(kt).toHaveLength(20);
    expect(kt[3]).toBeCloseTo(3 / 60, 12);
    expect(kt[19]).toBeCloseTo(3 / 60 + 16 / 30, 12);
    const zero = poseTimeTable({ start: 0, end: 3, segments: [{ kind: 'action', start: 0, end: 3, speed: 0, line: 1 }] }, 30);
    expect(zero[3]).toBeCloseTo(0.1, 12); // speed 0 means 1
  });

  it.each([
    ['an unknown keyword', 8, '  EffectKind 0', 'unknown-keyword', 8],
    ['an unknown keyword in a sub-block', 30, '    Damage 3', 'unknown-keyword', 30],
    ['a missing opening brace', 2, null, 'expected-brace', 2],
    ['a missing sub-block brace', 12, null, 'expected-brace', 12],
    ['a bad integer', 4, '  start 1x', 'bad-number', 4],
    ['a bad float', 15, '    Speed fast', 'bad-number', 15],
    ['a missing value', 5, '  End', 'bad-value', 5],
    ['a stray value', 5, '  End 20 21', 'bad-value', 5],
    ['an unquoted bone', 24, '    bone = bau_R_Hand', 'bad-value', 24],
    ['a bad colour', 48, '    Color  255,255', 'bad-value', 48],
    ['a keyword given twice', 4, '  End 3', 'duplicate-keyword', 5],
    ['text instead of a pose', 1, 'Poser 0', 'unknown-keyword', 1],
  ] as const)('%s is a FormatError with the line', (_, no, line, code, at) => {
    expect(errorLine(() => readPos(edit(no, line)))).toEqual({ code, line: at });
  });

  it('a missing closing brace', () => {
    expect(errorLine(() => readPos(edit(56, null)))).toEqual({ code: 'unknown-keyword', line: 56 });
    expect(errorLine(() => readPos(bytes(SAMPLE.split('\r\n').slice(0, 55).join('\n'))))).toEqual({ code: 'truncated', line: 55 });
  });

  it('ends a bone list at a stray trailing comma before the next keyword (§6.1)', () => {
    const [p] = readPos(edit(25, '           "bad L Foot",')).poses;
    expect(p!.attacks[0]).toMatchObject({ bones: ['bau_R_Hand', 'weapon', 'bad_L_Foot'], start: 5 });
  });

  it('a repeated pose number', () => {
    expect(errorLine(() => readPos(edit(57, 'Pose 0')))).toEqual({ code: 'duplicate-pose', line: 57 });
  });
});

describe('loopTime (§7.3)', () => {
  const loop = { start: 0.5, end: 1.5 };
  it('wraps past LoopEnd to LoopStart without crossing the seam, clamps otherwise', () => {
    expect(loopTime(1.5, loop, 2)).toBe(1.5);
    expect(loopTime(1.75, loop, 2)).toBeCloseTo(0.75, 12);
    expect(loopTime(3.6, loop, 2)).toBeCloseTo(0.6, 12);
    expect(loopTime(-1, loop, 2)).toBe(0);
    expect(loopTime(0.25, loop, 2)).toBe(0.25);
    expect(loopTime(5, { start: 1, end: 1 }, 2)).toBe(1); // a hold
    expect(loopTime(5, null, 2)).toBe(2);
    expect(loopTime(-5, null, 2)).toBe(0);
  });
});

describe.runIf(haveFixtures('meteor'))('P0.pos', () => {
  const e = expectedJson('meteor');
  const pos = readPos(readFixture('meteor', 'P0.pos'));

  it('holds 574 poses, 95 empty, 9 from p0.amb', () => {
    expect(pos.poses).toHaveLength(e.pos.pose_count);
    expect(pos.poses.map((p) => p.number)).toEqual(pos.poses.map((_, i) => i));
    expect(pos.poses.filter((p) => p.empty)).toHaveLength(e.pos.empty_poses);
    expect(pos.poses.filter((p) => p.source === 1).map((p) => p.number)).toEqual(e.pos.source1_poses);
    expect(Math.max(...pos.poses.filter((p) => p.source === 0).map((p) => p.end ?? 0))).toBe(e.pos.source0_max_frame);
  });

  it('matches the data facts of spec §6.2', () => {
    const all = <T>(f: (p: (typeof pos.poses)[number]) => T[]) => pos.poses.flatMap(f);
    const segments = all((p) => p.segments);
    expect([segments.length, segments.filter((s) => s.kind === 'blend').length]).toEqual([1004, 461]);
    expect(all((p) => p.attacks)).toHaveLength(299);
    expect(all((p) => p.nextPoses)).toHaveLength(233);
    expect(pos.poses.filter((p) => p.loopStart && p.loopEnd)).toHaveLength(167);
  });

  it.each(Object.keys(expectedJson('meteor').pos.poses))('pose %s: frames, loop, link, segments and timing', (key) => {
    const x = e.pos.poses[key];
    const p = pos.poses[Number(key)]!;
    expect([p.source, p.start, p.end, p.link && p.link !== 0 ? p.link : null]).toEqual([x.source, x.start, x.end, x.link]);
    expect(p.loopStart && p.loopEnd ? [p.loopStart, p.loopEnd] : null).toEqual(x.loop);
    expect(p.segments.map((s) => ({ type: s.kind === 'blend' ? 'Blend' : 'Action', start: s.start, end: s.end, speed: s.speed }))).toEqual(x.segments);
    const kt = poseTimeTable({ start: p.start!, end: p.end!, segments: p.segments }, 30);
    expect(kt[kt.length - 1]).toBeCloseTo(x.duration_s, 5);
    if (x.loop_window_s) {
      expect(kt[Math.max(p.loopStart!, p.start!) - p.start!]).toBeCloseTo(x.loop_window_s[0], 5);
      expect(kt[p.loopEnd! - p.start!]).toBeCloseTo(x.loop_window_s[1], 5);
    }
  });
});
