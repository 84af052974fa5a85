import { beforeAll, describe, expect, it } from 'vitest';
import { bindJoints } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer, localToModel } from '../../src/core/index.js';
import { bncSkeleton, readBnc } from '../../src/formats/meteor/index.js';
import { referenceLocalToModel } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { expectedJson, haveFixtures, readFixture } from '../helpers/fixtures.js';
import { errorLine } from '../helpers/format-error.js';

const text = (s: string) => new TextEncoder().encode(s);

const GOOD = [
  '# comment',
  'Bones: 2 Dummey: 2',
  'bone b',
  '{',
  '  parent d_base',
  '  pivot 0 0 1',
  '  quaternion 1 0 0 0',
  '  children 1',
  '}',
  'bone arm',
  '{',
  '  parent b',
  '  pivot 1 0 0',
  '  quaternion 1 0 0 0',
  '}',
  'Dummey d_base',
  '{',
  '  parent NULL',
  '  pivot 0 0 0',
  '  quaternion 1 0 0 0',
  '}',
  'Dummey d_hand',
  '{',
  '  parent b1',
  '  pivot 0.5 0 0',
  '  quaternion 1 0 0 0',
  '}',
];

/** GOOD with line `no` (1-based) replaced by `line` (or removed when `null`). */
function edit(no: number, line: string | null): Uint8Array {
  const lines = [...GOOD];
  if (line === null) lines.splice(no - 1, 1);
  else lines[no - 1] = line;
  return text(lines.join('\n'));
}

describe('readBnc grammar', () => {
  it('reads LF or CRLF, spaces or tabs; resolves parents by name, b<i> and d<i>', () => {
    for (const doc of [text(GOOD.join('\n')), text(GOOD.join('\r\n').replace(/ {2}/g, '\t'))]) {
      const bnc = readBnc(doc);
      expect(bnc.bones.map((b) => [b.name, b.parent])).toEqual([
        ['b', { kind: 'dummy', index: 0 }],
        ['arm', { kind: 'bone', index: 0 }],
      ]);
      expect(bnc.dummies.map((d) => d.parent)).toEqual([null, { kind: 'bone', index: 1 }]);
      expect(bnc.bones[0]!.children).toBe(1);
    }
  });

  it('orders joints so parents precede children', () => {
    const { skeleton, boneJoints, dummyJoints } = bncSkeleton(readBnc(text(GOOD.join('\n'))), false);
    expect(skeleton.joints.map((j) => j.name)).toEqual(['d_base', 'b', 'arm', 'd_hand']);
    expect([boneJoints, dummyJoints]).toEqual([
      [1, 2],
      [0, 3],
    ]);
  });

  it.each([
    ['a missing opening brace', 4, null, 'expected-brace', 4],
    ['a missing closing brace', 9, null, 'unknown-keyword', 9],
    ['a bad number', 6, '  pivot 0 x 1', 'bad-number', 6],
    ['too few numbers', 7, '  quaternion 1 0 0', 'bad-value', 7],
    ['an unknown parent', 12, '  parent nobody', 'unknown-parent', 10],
    ['an out-of-range index parent', 24, '  parent b7', 'unknown-parent', 22],
    ['an unknown keyword', 13, '  pivto 1 0 0', 'unknown-keyword', 13],
    ['a bad header', 2, 'Bones: 2 Dummies: 2', 'bad-header', 2],
    ['a count mismatch', 2, 'Bones: 3 Dummey: 2', 'count-mismatch', 2],
    ['a block without a pivot', 6, null, 'missing-keyword', 3],
    ['a cycle', 18, '  parent b1', 'cycle', 3],
  ] as const)('%s is a FormatError with the line', (_, no, line, code, at) => {
    expect(errorLine(() => readBnc(edit(no, line)))).toEqual({ code, line: at });
  });

  it('a file that ends inside a block', () => {
    expect(errorLine(() => readBnc(text(GOOD.slice(0, 20).join('\n'))))).toEqual({ code: 'truncated', line: 20 });
  });
});

describe.runIf(haveFixtures('meteor'))('P0.bnc', () => {
  const e = expectedJson('meteor');
  const bnc = readBnc(readFixture('meteor', 'P0.bnc'));
  const { skeleton } = bncSkeleton(bnc, false);

  it('reads the names, parents, pivots and rotations', () => {
    expect([bnc.boneCount, bnc.dummyCount]).toEqual([e.bnc.header.bones, e.bnc.header.dummies]);
    expect(bnc.bones.map((b) => b.name)).toEqual(e.bnc.bone_names);
    expect(bnc.bones.map((b) => b.parentRef)).toEqual(e.bnc.bone_parents);
    expect(bnc.dummies.map((d) => d.name)).toEqual(e.bnc.dummy_names);
    expect(bnc.dummies.map((d) => d.parentRef)).toEqual(e.bnc.dummy_parents);
    expect(bnc.bones[0]!.pivot).toEqual(e.bnc.bone0.pivot);
    expect(bnc.bones[0]!.quaternion).toEqual(e.bnc.bone0.quat_wxyz);
    expect(bnc.bones[13]!.name).toBe(e.bnc.bone13.name);
    expect(bnc.bones[13]!.pivot).toEqual(e.bnc.bone13.pivot);
    expect(bnc.bones[13]!.quaternion).toEqual(e.bnc.bone13.quat_wxyz);
    expect(skeleton.size).toBe(36);
  });

  const checkTPose = (m: Float32Array) => {
    for (const [name, p] of Object.entries<number[]>(e.tpose_world_file_xyz)) {
      const j = skeleton.indexOf(name);
      expect(j).toBeGreaterThanOrEqual(0);
      p.forEach((v, a) => expect(Math.abs(m[16 * j + 12 + a]! - v), `${name}[${a}]`).toBeLessThanOrEqual(1e-4));
    }
  };

  it('gives the T-pose world positions (reference)', () => {
    const m = new Float32Array(16 * skeleton.size);
    referenceLocalToModel({ samples: new Float32Array(0), counts: new Uint8Array(0) }, bindJoints([], skeleton), m);
    checkTPose(m);
  });

  describe.each(BUILDS)('%s build', (build) => {
    let core: AnimCore;
    beforeAll(async () => {
      core = await createCore(build);
    });
    it('gives the T-pose world positions', () => {
      const m = new Float32Array(16 * skeleton.size);
      const empty = new AnimSampleBuffer(core, []);
      localToModel(core, empty, bindJoints([], skeleton), m);
      empty.dispose();
      checkTPose(m);
    });
  });
});
