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
  const { poses: [pose, empty], warnings } = readPos(bytes(SAMPLE));

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
    expect(warnings).toEqual([]);
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

  // What the game's parser (PoseStatus.cs ActionManager.Parse) throws on, readPos refuses.
  it.each([
    ['a bad integer', 4, '  start 1x', 'bad-number', 4],
    ['an integer beyond Int32', 4, '  start 2147483648', 'bad-number', 4],
    ['a bad float', 15, '    Speed fast', 'bad-number', 15],
    ['a missing value', 5, '  End', 'bad-value', 5],
    ['a colour without three components', 48, '    Color  255,255', 'bad-value', 48],
    ['a colour written with spaces (the game reads "255," only)', 48, '    Color  255, 255, 198', 'bad-value', 48],
    ['a bone line without "="', 24, '    bone "bau R Hand"', 'bad-value', 24],
    ['text instead of a pose', 1, 'Poser 0', 'unknown-keyword', 1],
    ['a negative speed (time would run backwards)', 15, '    Speed -2', 'bad-value', 15],
  ] as const)('%s is a FormatError with the line', (_, no, line, code, at) => {
    expect(errorLine(() => readPos(edit(no, line)))).toEqual({ code, line: at });
  });

  it('a keyword with no pose, attack or drag to go to is a FormatError (the game throws there)', () => {
    expect(errorLine(() => readPos(bytes('Start 5\nPose 0\n{\n}')))).toEqual({ code: 'bad-order', line: 1 });
    expect(errorLine(() => readPos(bytes('Pose 0\n{}\nStart 5')))).toEqual({ code: 'bad-order', line: 3 });
    expect(errorLine(() => readPos(bytes('Pose 0\n{\n  AttackType 1\n}')))).toEqual({ code: 'bad-order', line: 3 });
    expect(errorLine(() => readPos(bytes('Pose 0\n{\n  Time 0.1\n}')))).toEqual({ code: 'bad-order', line: 3 });
    expect(errorLine(() => readPos(bytes('Pose 0\n{\n  Attack\n  {\n    bone = "a",\n')))).toEqual({ code: 'truncated', line: 5 });
  });

  it("reads the 1.07 release's `{  source     0` as the game does: the brace opens the pose, the rest of the line is not read", () => {
    const text = ['Pose 7', '{  source     0', '  Start      10', '  End        12', '}', 'Pose 8', '{ source 1', '  Start 1', '  End 2', '}'].join('\r\n');
    const { poses, warnings } = readPos(bytes(text));
    expect(warnings).toEqual([]);
    expect(poses).toMatchObject([
      { number: 7, source: null, start: 10, end: 12 },
      // The game's source stays 0 here too: its parser never reads a value after `{`.
      { number: 8, source: null, start: 1, end: 2 },
    ]);
  });

  it('accepts what the game accepts: stray values, unquoted bones, repeated keywords and pose numbers, Speed without a segment', () => {
    expect(readPos(edit(5, '  End 20 21')).poses[0]!.end).toBe(20);
    expect(readPos(edit(24, '    bone = bau_R_Hand')).poses[0]!.attacks[0]!.bones).toEqual(['bau_R_Hand']);
    expect(readPos(edit(4, '  End 3')).poses[0]).toMatchObject({ start: null, end: 20 }); // the later End wins
    expect(readPos(edit(57, 'Pose 0')).poses.map((p) => p.number)).toEqual([0, 0]);
    expect(readPos(edit(10, '  Speed 9')).poses[0]!.segments[0]!.speed).toBe(2);
  });

  it.each([
    ['an unknown keyword', 8, '  EffectKind 0', 8],
    ['an unknown keyword in a sub-block', 30, '    Damage 3', 30],
    ['a keyword separated by a tab (the game deletes tabs: "Start1")', 4, '  start\t1', 4],
    ['a missing opening brace (Pose 1 then lies inside an open block)', 2, null, 56],
    ['a missing closing brace', 56, null, 56],
  ] as const)('stops where the game stops, keeps what it read and says so: %s', (_, no, line, at) => {
    const { poses, warnings } = readPos(edit(no, line));
    expect(poses[0]!.number).toBe(0);
    expect(poses.some((p) => p.number === 1)).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^line ${at}: unknown keyword .*; the game stops reading the pose table there`));
  });

  it('decodes as the game does (ASCII: bytes above 0x7f read as "?"), names an Int32 overflow, and `{}` inside a block only drops the pose', () => {
    expect(readPos(edit(9, '  EffectID   Pos\xe90')).poses[0]!.effectId).toBe('Pos?0');
    const e = (() => {
      try {
        readPos(edit(4, '  start -2147483649'));
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(e).toMatch(/outside the Int32 range/);
    expect(readPos(edit(4, '  start -2147483648')).poses[0]!.start).toBe(-2147483648);
    const inner = readPos(bytes('Pose 3\n{\n  Start 1\n  {}\n}\nPose 4\n{}')).poses;
    expect(inner.map((p) => [p.number, p.empty, p.start])).toEqual([[3, false, 1], [4, true, null]]);
  });

  it('parses hostile lines in linear time: a 512 KB bone item of quotes and spaces, a 512 KB keyword line', () => {
    const pad = ' "'.repeat(1 << 18);
    const big = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
    const p = readPos(big(`Pose 0\n{\n  Attack\n  {\n    bone = a${pad}b\n  }\n}`)).poses[0]!;
    expect(p.attacks[0]!.bones).toHaveLength(1);
    expect(p.attacks[0]!.bones[0]!.length).toBe(2 + pad.length);
    const { warnings } = readPos(big(`Pose 0\n{\n${'x'.repeat(1 << 19)} 1\n}`));
    expect(warnings[0]).toMatch(/^line 3: unknown keyword "x{40}/);
  });

  it('ends a bone list ending in "," as the game does: a line with Start is passed over, the next one appended', () => {
    // The game's guard against a stray comma before `Start` (spec §6.1); no shipped file has it.
    const [p] = readPos(edit(25, '           "bad L Foot",')).poses;
    expect(p!.attacks[0]).toMatchObject({ bones: ['bau_R_Hand', 'weapon', 'bad_L_Foot', 'End_________7'], start: null, end: 7 });
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
