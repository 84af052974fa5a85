// .nanim2 (spec nebula.md §1.9): the ASCII twins decode to the same keys as their .nax2 files
// (expected.json nanim2CrossCheck: 76 quaternion sign flips in eagle, 0 in bouncingball), the
// pre-2006 6-field forms, CRLF, and malformed lines.
import { describe, expect, it } from 'vitest';
import { expectedJson, haveFixtures, readFixture, readFixtureText } from '../helpers/fixtures.js';
import { detectNebulaFormat, nax2ToResource, openNebula, readNanim2, readNax2 } from '../../src/formats/nebula/index.js';
import { clipContent, countSignFlips, formatErrorOf } from './helpers.js';
import type { UniformKeys } from '../../src/anim/index.js';

const have = haveFixtures('nebula');

describe.skipIf(!have)('nanim2 twins of the nax2 fixtures', () => {
  const cross = have ? expectedJson('nebula').nanim2CrossCheck : {};
  for (const name of ['bouncingball', 'eagle']) {
    it(`${name}.nanim2 has the keys of ${name}.nax2 (quaternions up to sign)`, () => {
      const text = readNanim2(readFixtureText('nebula', `${name}.nanim2`));
      const bin = readNax2(readFixture('nebula', `${name}.nax2`));
      expect(text.layout).toBe('nanim2');
      expect(text.keyDataOffset).toBeNull();
      expect(text.numKeys).toBe(cross[name].numKeysText);
      expect(bin.numKeys).toBe(cross[name].numKeysBinary);
      expect(text.groups.length).toBe(bin.groups.length);
      text.groups.forEach((g, i) => {
        const b = bin.groups[i]!;
        expect([g.startKey, g.numKeys, g.keyStride, g.keyTime, g.loopType]).toEqual([b.startKey, b.numKeys, b.keyStride, b.keyTime, b.loopType]);
        expect(g.fadeInFrames).toBe(0);
        expect(g.curves.map((c) => c.firstKeyIndex)).toEqual(b.curves.map((c) => c.firstKeyIndex));
        expect(g.curves.every((c) => c.isAnimated === 1)).toBe(true);
      });

      // Pool keys that belong to rotation curves (index % 3 == 1) may be flipped; others may not.
      const rotationKeys = new Set<number>();
      for (const g of bin.groups) {
        g.curves.forEach((c, i) => {
          if (i % 3 !== 1 || c.firstKeyIndex === -1) return;
          for (let k = 0; k < g.numKeys; k++) rotationKeys.add(c.firstKeyIndex + k * g.keyStride);
        });
      }
      const flips = countSignFlips(text.pool, bin.pool, 1e-6, (k) => rotationKeys.has(k));
      expect(flips).toBe(cross[name].quaternionSignFlips);
      expect(flips).toBe(name === 'eagle' ? 76 : 0);

      // The models agree too (rotations up to sign), and the text has no ipol contradictions.
      const a = nax2ToResource(text);
      const b = nax2ToResource(bin);
      expect(a.format).toBe('nanim2');
      expect(a.warnings).toEqual([]);
      a.clips.forEach((clip, c) => {
        clip.curves.forEach((curve, i) => {
          const other = b.clips[c]!.curves[i]!;
          expect([curve.curveType, curve.active, curve.keys.encoding]).toEqual([other.curveType, other.active, other.keys.encoding]);
          const x = curve.keys.encoding === 'static' ? curve.keys.value : (curve.keys as UniformKeys).values;
          const y = other.keys.encoding === 'static' ? other.keys.value : (other.keys as UniformKeys).values;
          countSignFlips(x, y, 1e-6, () => curve.curveType === 'rotation');
        });
      });
    });
  }

  it('eagle.nanim2 opens with eagle.n2 (detected by content)', () => {
    const bytes = readFixture('nebula', 'eagle.nanim2');
    expect(detectNebulaFormat(bytes)).toBe('nanim2');
    const res = openNebula({ animation: bytes, skeleton: readFixture('nebula', 'eagle.n2') });
    expect(res.clips.map((c) => c.name)).toEqual(['fliegen', 'gleiten']);
    expect(res.warnings).toEqual([]);
  });

  it('CRLF line ends, comments and blank lines read the same', () => {
    const lf = readFixtureText('nebula', 'bouncingball.nanim2');
    const crlf = '# exported\r\n\r\n' + lf.replace(/\n/g, '\r\n');
    expect(readNanim2(crlf).pool).toEqual(readNanim2(lf).pool);
    expect(detectNebulaFormat(new TextEncoder().encode(crlf))).toBe('nanim2');
    expect(clipContent(nax2ToResource(readNanim2(crlf)))).toEqual(clipContent(nax2ToResource(readNanim2(lf))));
  });

  it('accepts the pre-2006 6-field group and curve lines (no fadeInFrames, no isAnimated)', () => {
    const lf = readFixtureText('nebula', 'bouncingball.nanim2');
    const old = lf
      .split('\n')
      .map((line) => {
        const t = line.split(' ');
        if (t[0] === 'group') t.splice(6, 1); // drop fadeInFrames
        if (t[0] === 'curve') t.splice(3, 1); // drop isAnimated
        return t.join(' ');
      })
      .join('\n');
    const a = readNanim2(old);
    const b = readNanim2(lf);
    expect(a.groups[0]!.fadeInFrames).toBeNull();
    expect(a.groups[0]!.curves[0]!.isAnimated).toBeNull();
    expect(a.pool).toEqual(b.pool);
    expect(clipContent(nax2ToResource(a))).toEqual(clipContent(nax2ToResource(b)));
  });
});

describe('malformed nanim2 lines are FormatErrors with the line number', () => {
  const good = ['type nanim2', 'numgroups 1', 'numkeys 2', 'group 3 0 2 1 0.04 0 repeat', 'curve linear 0 1 0 0 0 0', 'curve quat -1 1 0 0 0 1', 'curve linear -1 1 1 1 1 0', 'key 1 2 3 0', 'key 4 5 6 0'];
  const withLine = (n: number, text: string | null): string => good.map((l, i) => (i === n - 1 ? text : l)).filter((l) => l !== null).join('\n');

  it('the good file reads', () => {
    const doc = readNanim2(good.join('\n'));
    expect(doc.groups[0]!.curves.map((c) => c.ipolType)).toEqual([3, 2, 3]);
    expect(doc.groups[0]!.source).toEqual({ line: 4 });
  });

  const cases: [string, string, number, string][] = [
    ['unknown keyword', withLine(8, 'kee 1 2 3 0'), 8, 'bad-keyword'],
    ['not a number', withLine(8, 'key 1 2 x 0'), 8, 'bad-number'],
    ['trailing garbage in a number', withLine(8, 'key 1 2 3.5e 0'), 8, 'bad-number'],
    ['wrong key field count', withLine(8, 'key 1 2 3'), 8, 'bad-field-count'],
    ['wrong group field count', withLine(4, 'group 3 0 2 1 0.04 0 0 repeat'), 4, 'bad-field-count'],
    ['unknown loop type', withLine(4, 'group 3 0 2 1 0.04 0 forever'), 4, 'bad-value'],
    ['unknown ipol', withLine(5, 'curve cubic 0 1 0 0 0 0'), 5, 'bad-value'],
    ['missing type line', withLine(1, '# no type'), 2, 'bad-header'],
    ['wrong type', withLine(1, 'type nanim3'), 1, 'bad-header'],
    ['too few keys', withLine(9, null), 3, 'bad-count'],
    ['too many keys', good.join('\n') + '\nkey 0 0 0 0', 10, 'bad-count'],
    ['curve count short of numCurves', withLine(7, null), 8, 'bad-count'],
    ['key index out of the pool', withLine(5, 'curve linear 1 1 0 0 0 0'), 5, 'bad-key-index'],
    ['curve before group', withLine(4, null), 4, 'bad-order'],
  ];
  for (const [what, text, line, code] of cases) {
    it(what, () => {
      const e = formatErrorOf(() => readNanim2(text));
      expect(e).toMatchObject({ format: 'nanim2', code, line });
    });
  }
});
