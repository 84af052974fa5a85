// openNebula: every fixture opens with its skeleton companion, formats and skeleton kinds are
// detected by content, and anything else is a FormatError.
import { describe, expect, it } from 'vitest';
import { haveFixtures, readFixture, readFixtureText } from '../helpers/fixtures.js';
import { UsageError } from '../../src/errors.js';
import { Skeleton } from '../../src/anim/index.js';
import { detectNebulaFormat, nax3ToResource, openNebula, readNax3, readNebulaSkeleton } from '../../src/formats/nebula/index.js';
import { formatErrorOf } from './helpers.js';

const have = haveFixtures('nebula');

describe.skipIf(!have)('every fixture opens', () => {
  const cases: [string, string | undefined, string, number, string[]][] = [
    ['bouncingball.nax2', undefined, 'nax2', 0, ['clip0', 'clip1']],
    ['eagle.nax2', 'eagle.n2', 'nax2', 79, ['fliegen', 'gleiten']],
    ['kila_layoutA.nax2', 'kila.n2', 'nax2', 80, ['one']],
    ['kila_layoutB.nax2', 'kila.n2', 'nax2', 80, ['one']],
    ['Unit_Footman.nax3', 'Unit_Footman.constants', 'nax3', 21, ['walk', 'charge', 'taunt', 'attack_1', 'attack_2', 'attack_3', 'idle', 'death']],
    ['bouncingball.nanim2', undefined, 'nanim2', 0, ['clip0', 'clip1']],
    ['eagle.nanim2', 'eagle.n2', 'nanim2', 79, ['fliegen', 'gleiten']],
  ];
  for (const [file, skeleton, format, joints, clips] of cases) {
    it(`${file}${skeleton ? ` + ${skeleton}` : ''}`, () => {
      const animation = readFixture('nebula', file);
      expect(detectNebulaFormat(animation)).toBe(format);
      for (const sk of skeleton ? [readFixture('nebula', skeleton), readFixtureText('nebula', skeleton)] : [undefined]) {
        const res = openNebula({ animation, skeleton: sk });
        expect(res.format).toBe(format);
        expect(res.clips.map((c) => c.name)).toEqual(clips);
        expect(res.skeleton?.size ?? 0).toBe(joints);
        if (res.skeleton) expect(res.skeleton).toBeInstanceOf(Skeleton);
        if (skeleton) expect(res.clips[0]!.curves[0]!.target.joint).toBe(res.skeleton!.joints[0]!.name);
        expect(res.warnings.length).toBe(file === 'kila_layoutB.nax2' ? 1 : 0);
      }
    });
  }

  it('a model Skeleton can be passed to the converters directly', () => {
    const skeleton = new Skeleton(readNebulaSkeleton(readFixtureText('nebula', 'Unit_Footman.constants')).joints);
    const res = nax3ToResource(readNax3(readFixture('nebula', 'Unit_Footman.nax3')), skeleton);
    expect(res.skeleton).toBe(skeleton);
    expect(res.clips[0]!.curves[8]!.target.joint).toBe('Chest');
  });
});

describe('detection', () => {
  it('refuses unknown content with a FormatError at offset 0', () => {
    const e = formatErrorOf(() => openNebula({ animation: new TextEncoder().encode('hello world') }));
    expect(e).toMatchObject({ format: 'nebula', code: 'unknown-format', offset: 0 });
    expect(detectNebulaFormat(new Uint8Array(0))).toBeNull();
    expect(detectNebulaFormat(new TextEncoder().encode('  \n# c\ntype nanim2\n'))).toBe('nanim2');
    expect(detectNebulaFormat(new TextEncoder().encode('type nanim3'))).toBeNull();
  });

  it('misuse is a UsageError', () => {
    expect(() => openNebula({ animation: 'x' as unknown as Uint8Array })).toThrow(UsageError);
  });

  it('a skeleton is XML when it starts with < (after a BOM or blanks), otherwise an .n2 script', () => {
    const xml = '\uFEFF  <Nebula3><Model><CharacterNodes><CharacterNode name="c"><Joint name="r" index="0" parent="-1" position="0,0,0" rotation="0,0,0,1"/></CharacterNode></CharacterNodes></Model></Nebula3>';
    expect(readNebulaSkeleton(xml)).toMatchObject({ characterNode: 'c' });
    expect(formatErrorOf(() => readNebulaSkeleton('sel ..'))).toMatchObject({ format: 'n2', code: 'no-skinanimator' });
  });
});
