// Issue 14 item 3: binary Nebula2 scripts (nbinscriptserver, magic "0BON"), the binary twin of the
// text .n2 skeleton: the same commands, so the same joints and clips. The binary files are written
// for the test from the text ones (n2Binary in the fuzz generators, after nbinscriptserver_main.cc).
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { openNebula, readN2Skeleton, readNebulaSkeleton } from '../../src/formats/nebula/index.js';
import { n2Binary, n2Text } from '../fuzz/gen-nebula.js';
import { Params } from '../fuzz/input.js';
import { Rng } from '../fuzz/rng.js';
import { haveFixtures, readFixture, readFixtureText } from '../helpers/fixtures.js';
import { clipContent, formatErrorOf } from './helpers.js';

const le = (text: string) => n2Binary(text, true).bytes;

/** A binary script: magic, header string, then the given blocks (each already encoded). */
function script(...blocks: number[][]): Uint8Array {
  const header = [...'$parser:nbinscriptserver$ $class:x$'].map((c) => c.charCodeAt(0));
  return Uint8Array.from([0x30, 0x42, 0x4f, 0x4e, header.length, 0, ...header, ...blocks.flat()]);
}
/** A command block: fourcc (as a little-endian int), int16 length, argument bytes. */
const block = (code: string, args: number[], length = args.length) => [...[...code].reverse().map((c) => c.charCodeAt(0)), length & 0xff, (length >> 8) & 0xff, ...args];
const i32 = (v: number) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff];
const str = (s: string) => [s.length & 0xff, s.length >> 8, ...[...s].map((c) => c.charCodeAt(0))];
const skin = [...block('_new', []).slice(0, 4), ...str('nskinanimator'), ...str('skin'), ...block('_sel', []).slice(0, 4), ...str('skin')];

describe('binary .n2 scripts (nbinscript "0BON")', () => {
  it.skipIf(!haveFixtures('nebula'))('kila.n2 and eagle.n2 written as nbinscript give the same skeleton, clip names and states as the text', () => {
    for (const name of ['kila.n2', 'eagle.n2']) {
      const text = readFixtureText('nebula', name);
      for (const littleEndian of [true, false]) {
        const bytes = n2Binary(text, littleEndian).bytes;
        expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe(littleEndian ? '0BON' : 'NOB0');
        expect(readN2Skeleton(bytes), `${name} ${littleEndian ? 'LE' : 'BE'}`).toEqual(readN2Skeleton(text));
        expect(readNebulaSkeleton(bytes)).toEqual(readN2Skeleton(text));
      }
    }
  });

  it.skipIf(!haveFixtures('nebula'))('kila_layoutA.nax2 with the binary kila.n2 opens exactly as with the text one', () => {
    const text = readFixtureText('nebula', 'kila.n2');
    const animation = readFixture('nebula', 'kila_layoutA.nax2');
    const a = openNebula({ animation, skeleton: text });
    const b = openNebula({ animation, skeleton: le(text) });
    expect(b.skeleton?.joints).toEqual(a.skeleton?.joints);
    expect(clipContent(b)).toEqual(clipContent(a));
    expect(b.warnings).toEqual(a.warnings);
  });

  it('generated skeletons: binary and text agree for many random scripts', () => {
    for (let i = 0; i < 40; i++) {
      const text = n2Text(new Params(new Rng(14, i), 0), 1 + (i % 7), 1 + (i % 3));
      expect(readN2Skeleton(n2Binary(text, i % 2 === 0).bytes)).toEqual(readN2Skeleton(text));
    }
  });

  it('skips commands it does not know by their length, as nBinScriptServer::ReadBlock does', () => {
    const joint = block('SJNT', [...i32(0), ...i32(-1), ...[0, 0, 0, 0, 0, 0, 1, 1, 1, 1].flatMap((v) => [...new Uint8Array(Float32Array.of(v).buffer)])]);
    const bytes = script(skin, block('XYZW', [1, 2, 3]), block('BJNT', i32(1)), joint, block('EJNT', []));
    expect(readN2Skeleton(bytes).joints).toEqual([{ name: 'joint0', parent: -1, rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }]);
  });

  it('hostile input: every truncation, bad lengths and counts are FormatErrors at a byte offset', () => {
    const bytes = le(n2Text(new Params(new Rng(3, 3), 0), 3, 2));
    // A cut between two blocks is a shorter script (it may still hold the joints); a cut inside one is refused.
    let refused = 0;
    for (let n = 4; n < bytes.length; n++) {
      try {
        readN2Skeleton(bytes.subarray(0, n));
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        expect((e as FormatError).offset, `cut at ${n}: ${(e as FormatError).message}`).toBeTypeOf('number');
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0.9 * bytes.length);
    // A string or argument length beyond the file is refused before anything is read for it.
    expect(formatErrorOf(() => readN2Skeleton(script([...block('_new', []).slice(0, 4), 0xff, 0xff])))).toMatchObject({ code: 'truncated', offset: script().length + 4 + 2 });
    expect(formatErrorOf(() => readN2Skeleton(script(skin, block('BJNT', i32(1), 30000))))).toMatchObject({ code: 'truncated' });
    expect(formatErrorOf(() => readN2Skeleton(script(skin, block('BJNT', i32(1), -4 & 0xffff))))).toMatchObject({ code: 'bad-count' });
    // Arguments that fit no prototype of the command, a joint count beyond the commands left, NaN.
    const at = script(skin).length;
    expect(formatErrorOf(() => readN2Skeleton(script(skin, block('BJNT', [1, 2, 3]))))).toMatchObject({ code: 'bad-arguments', offset: at + 6 });
    expect(formatErrorOf(() => readN2Skeleton(script(skin, block('BJNT', i32(0x7fffffff)))))).toMatchObject({ code: 'bad-count', offset: at });
    const nan = block('SJNT', [...i32(0), ...i32(-1), ...[NaN, 0, 0, 0, 0, 0, 1, 1, 1, 1].flatMap((v) => [...new Uint8Array(Float32Array.of(v).buffer)])]);
    expect(formatErrorOf(() => readN2Skeleton(script(skin, block('BJNT', i32(1)), nan)))).toMatchObject({ code: 'bad-number', offset: at + 10 });
    expect(() => readN2Skeleton(Uint8Array.from([0x30, 0x42, 0x4f, 0x4e]))).toThrow(FormatError);
  });
});
