// Skeleton companions: Nebula2 .n2 scripts (nskinanimator block, both clip syntaxes) and Nebula3
// .constants XML; malformed lines give FormatErrors with the line number.
import { describe, expect, it } from 'vitest';
import { haveFixtures, readFixtureText } from '../helpers/fixtures.js';
import { readConstantsSkeleton, readN2Skeleton, readNebulaSkeleton } from '../../src/formats/nebula/index.js';
import { formatErrorOf } from './helpers.js';

const have = haveFixtures('nebula');

describe.skipIf(!have)('skeleton fixtures', () => {
  it('kila.n2: 80 joints, new clip syntax (.setclip 0 0 "one")', () => {
    const s = readN2Skeleton(readFixtureText('nebula', 'kila.n2'));
    expect(s.joints).toHaveLength(80);
    expect(s.joints[0]).toEqual({
      name: 'Kila_Walk:Root',
      parent: -1,
      rest: { translation: [0, 0.941381, 0.004], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    });
    expect(s.joints[79]!.name).toBe('Kila_Walk:R_Toe');
    expect(s.joints[79]!.parent).toBe(78);
    expect(s.clips).toEqual([{ index: 0, group: 0, name: 'one' }]);
    expect(s.clipNames).toEqual(new Map([[0, 'one']]));
    expect(s.states).toEqual([]);
    expect(s.animation).toBe('anims:examples/kila.nax2');
    expect(s.loopType).toBe('loop');
    expect(s.animatorName).toBe('skinanimator');
  });

  it('eagle.n2: 79 joints, old state syntax names groups by state name', () => {
    const s = readN2Skeleton(readFixtureText('nebula', 'eagle.n2'));
    expect(s.joints).toHaveLength(79);
    expect(s.joints[13]!.name).toBe('finger_05_R|joint23');
    expect(s.clipNames).toEqual(
      new Map([
        [0, 'fliegen'],
        [1, 'gleiten'],
      ]),
    );
    expect(s.states).toEqual([
      { index: 0, group: 0, fadeIn: 0.8, name: 'fliegen', weightChannels: ['one'] },
      { index: 1, group: 1, fadeIn: 1.6, name: 'gleiten', weightChannels: ['one'] },
    ]);
    expect(s.clips).toEqual([]);
    expect(s.animation).toBe('anims:examples/eagle.nanim2');
  });

  it('Unit_Footman.constants: 21 joints in index order with their bind pose', () => {
    const s = readConstantsSkeleton(readFixtureText('nebula', 'Unit_Footman.constants'));
    expect(s.joints).toHaveLength(21);
    expect(s.characterNode).toBe('Unit_Footman_ch');
    expect(s.animation).toBe('ani:Units/Unit_Footman.nax3');
    expect(s.model).toBe('Units/Unit_Footman');
    expect(s.joints[1]).toEqual({
      name: 'Hip',
      parent: 0,
      rest: { translation: [0, 1.17966, -0.029045], rotation: [-0.490021, -0.509784, 0.490021, 0.509784], scale: [1, 1, 1] },
    });
    expect(s.joints.map((j) => j.parent)).toEqual([-1, 0, 1, 2, 3, 2, 5, 6, 5, 2, 9, 10, 9, 1, 13, 14, 15, 1, 17, 18, 19]);
    expect(readNebulaSkeleton(readFixtureText('nebula', 'Unit_Footman.constants'))).toEqual(s);
  });

  it('malformed .setjoint lines in kila.n2 name their line', () => {
    const lines = readFixtureText('nebula', 'kila.n2').split('\n');
    const at = lines.findIndex((l) => l.includes('.setjoint 5 4')) + 1;
    const edit = (fn: (l: string) => string): string => lines.map((l, i) => (i === at - 1 ? fn(l) : l)).join('\n');
    expect(formatErrorOf(() => readN2Skeleton(edit((l) => l.replace('0.086764', '0.08x6764'))))).toMatchObject({ format: 'n2', code: 'bad-number', line: at });
    expect(formatErrorOf(() => readN2Skeleton(edit((l) => l.replace('"Kila_Walk:Head"', '"Kila_Walk:Head'))))).toMatchObject({ code: 'bad-string', line: at });
    expect(formatErrorOf(() => readN2Skeleton(edit((l) => l.replace('.setjoint 5 4', '.setjoint 5 7'))))).toMatchObject({ code: 'bad-value', line: at });
    expect(formatErrorOf(() => readN2Skeleton(edit((l) => l.replace('.setjoint 5 4', '.setjoint 4 3'))))).toMatchObject({ code: 'bad-value', line: at });
    expect(formatErrorOf(() => readN2Skeleton(edit((l) => l.replace(' 1.000000 1.000000 "', ' "'))))).toMatchObject({ code: 'bad-arguments', line: at });
    // A joint never set: reported at .endjoints.
    const end = lines.findIndex((l) => l.includes('.endjoints')) + 1;
    expect(formatErrorOf(() => readN2Skeleton(edit(() => '')))).toMatchObject({ code: 'bad-count', line: end });
  });
});

describe('n2 scripts', () => {
  const script = (body: string[]): string =>
    ['# ---', 'new ntransformnode model', '    sel model', '    new nskinanimator anim', '        sel anim', ...body, '    sel ..', 'sel ..'].join('\n');

  it('reads pre-2005 .setjoint lines without a name', () => {
    const s = readN2Skeleton(script(['.beginjoints 2', '.setjoint 0 -1 0 0 0 0 0 0 1 1 1 1', '.setjoint 1 0 1 0 0 0 0 0 1 1 1 1 "arm"', '.endjoints']));
    expect(s.joints.map((j) => j.name)).toEqual(['joint0', 'arm']);
  });

  it('ignores commands of other objects and reads the first skin animator only', () => {
    const s = readN2Skeleton(
      [
        'new ntransformnode a',
        'sel a',
        '.setjoint 9 9 x',
        'new nskinanimator one',
        'sel one',
        '.beginjoints 1',
        '.setjoint 0 -1 0 0 0 0 0 0 1 1 1 1 "root"',
        '.endjoints',
        'sel ..',
        'new nskinanimator two',
        'sel two',
        '.beginjoints 1',
        '.setjoint 0 -1 0 0 0 0 0 0 1 1 1 1 "other"',
        '.endjoints',
        'sel ..',
        'sel ..',
      ].join('\r\n'),
    );
    expect(s.joints.map((j) => j.name)).toEqual(['root']);
    expect(s.animatorName).toBe('one');
  });

  it('refuses broken binary scripts, missing animators, unclosed joint lists and absurd counts', () => {
    expect(formatErrorOf(() => readN2Skeleton(Uint8Array.from([0x30, 0x42, 0x4f, 0x4e, 0x05, 0x00, 0x41])))).toMatchObject({ code: 'truncated', offset: 6 });
    expect(formatErrorOf(() => readN2Skeleton('new ntransformnode a\nsel a\n.setfoo 1\nsel ..'))).toMatchObject({ code: 'no-skinanimator', line: 4 });
    expect(formatErrorOf(() => readN2Skeleton(script(['.beginjoints 1', '.setjoint 0 -1 0 0 0 0 0 0 1 1 1 1'])))).toMatchObject({ code: 'bad-order', line: 9 });
    expect(formatErrorOf(() => readN2Skeleton(script(['.beginjoints 1000000000'])))).toMatchObject({ code: 'bad-count', line: 6 });
    expect(formatErrorOf(() => readN2Skeleton(script(['.setanim "a" "b"'])))).toMatchObject({ code: 'bad-arguments', line: 6 });
    expect(formatErrorOf(() => readN2Skeleton(script(['.setanim "x"'])))).toMatchObject({ code: 'no-joints' });
  });
});

describe('constants XML', () => {
  const joint = (attrs: string): string => `      <Joint ${attrs} />`;
  const xml = (joints: string[]): string =>
    [
      '<?xml version="1.0" encoding="UTF-8" ?>',
      '<Nebula3 version="4">',
      '  <Model name="m">',
      '    <CharacterNodes>',
      '      <CharacterNode name="c">',
      ...joints,
      '      </CharacterNode>',
      '    </CharacterNodes>',
      '  </Model>',
      '</Nebula3>',
    ].join('\n');
  const root = 'name="Root" index="0" parent="-1" position="0,0,0,0" rotation="0,0,0,1" scale="1,1,1,0"';
  const child = (extra: string): string => joint(`name="Arm" index="1" parent="0" ${extra}`);

  it('reads joints listed out of index order; scale is optional', () => {
    const s = readConstantsSkeleton(xml([child('position="1,2,3" rotation="0,0,0,1"'), joint(root)]));
    expect(s.joints.map((j) => j.name)).toEqual(['Root', 'Arm']);
    expect(s.joints[1]!.rest).toEqual({ translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [1, 1, 1] });
  });

  it('malformed joints give FormatErrors at the joint line', () => {
    const cases: [string, string][] = [
      ['position="1,2,3x" rotation="0,0,0,1"', 'bad-number'],
      ['position="1,2" rotation="0,0,0,1"', 'bad-value'],
      ['position="1,2,3" rotation="0,0,1"', 'bad-value'],
      ['rotation="0,0,0,1"', 'missing-attribute'],
      ['position="1,2,3" rotation="0,0,0,1" scale="1,1,,1"', 'bad-number'],
    ];
    for (const [attrs, code] of cases) {
      expect(formatErrorOf(() => readConstantsSkeleton(xml([joint(root), child(attrs)]))), attrs).toMatchObject({ format: 'constants', code, line: 7 });
    }
    expect(formatErrorOf(() => readConstantsSkeleton(xml([joint(root.replace('parent="-1"', 'parent="0"'))])))).toMatchObject({ code: 'bad-value', line: 6 });
    expect(formatErrorOf(() => readConstantsSkeleton(xml([joint(root), joint(root)])))).toMatchObject({ code: 'bad-value', line: 7 });
    expect(formatErrorOf(() => readConstantsSkeleton(xml([joint(root), joint('name="x" index="1.5" parent="0" position="0,0,0" rotation="0,0,0,1"')])))).toMatchObject({ code: 'bad-number', line: 7 });
  });

  it('bad XML and missing character nodes are FormatErrors with a line', () => {
    expect(formatErrorOf(() => readConstantsSkeleton(xml([joint(root).replace(' />', '>')])))).toMatchObject({ code: 'bad-xml' });
    expect(typeof formatErrorOf(() => readConstantsSkeleton('<a>\n<b x="1" x="2"/></a>')).line).toBe('number');
    expect(formatErrorOf(() => readConstantsSkeleton('<a>\n<b x="1" x="2"/></a>')).line).toBe(2);
    expect(formatErrorOf(() => readConstantsSkeleton('<Nebula3><Model/></Nebula3>'))).toMatchObject({ code: 'no-character-node', line: 1 });
    expect(formatErrorOf(() => readConstantsSkeleton(xml([])))).toMatchObject({ code: 'no-joints', line: 5 });
  });
});
