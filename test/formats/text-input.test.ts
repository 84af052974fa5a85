// Issue 13 items 1 and 7 for every text reader (Nebula .nanim2, .n2, .constants; Meteor .bnc,
// .pos, .skc): numbers are scanned in linear time and refused with one short line naming the
// line; a UTF-8 BOM and LF, CRLF or CR-only line endings all read alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { readBnc, readPos, readSkc } from '../../src/formats/meteor/index.js';
import { openNebula, readNebulaSkeleton } from '../../src/formats/nebula/index.js';
import { parseFloatStrict, parseIntStrict } from '../../src/formats/text-numbers.js';
import { quote } from '../../src/formats/text.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';

interface TextReader {
  format: string;
  dir: 'nebula' | 'meteor';
  file: string;
  read(bytes: Uint8Array): unknown;
  /** A number in the file (its first occurrence) that the tests replace. */
  number: { before: string; token: string };
}

const READERS: TextReader[] = [
  { format: 'nanim2', dir: 'nebula', file: 'bouncingball.nanim2', read: (b) => openNebula({ animation: b }), number: { before: 'key ', token: '0.000000' } },
  { format: 'n2', dir: 'nebula', file: 'eagle.n2', read: (b) => readNebulaSkeleton(b), number: { before: '.setjoint 0 -1 ', token: '0.000000' } },
  { format: 'constants', dir: 'nebula', file: 'Unit_Footman.constants', read: (b) => readNebulaSkeleton(b), number: { before: 'position="0.000000,', token: '1.179660' } },
  { format: 'bnc', dir: 'meteor', file: 'P0.bnc', read: readBnc, number: { before: 'pivot -0.000  0.000 ', token: '20.264' } },
  { format: 'pos', dir: 'meteor', file: 'P0.pos', read: readPos, number: { before: 'Start      ', token: '1' } },
  { format: 'skc', dir: 'meteor', file: 'p0.skc', read: readSkc, number: { before: 'v   2.87744   ', token: '0.99344' } },
];

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const fromLatin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** The file with its first `before + token` changed to `before + replacement`, and that line's number. */
function withToken(r: TextReader, replacement: string): { bytes: Uint8Array; line: number } {
  const text = latin1(readFixture(r.dir, r.file)).replace(/\r\n/g, '\n');
  const at = text.indexOf(r.number.before + r.number.token);
  if (at < 0) throw new Error(`${r.file}: "${r.number.before}${r.number.token}" not found`);
  const cut = at + r.number.before.length;
  const bytes = fromLatin1(text.slice(0, cut) + replacement + text.slice(cut + r.number.token.length));
  return { bytes, line: text.slice(0, at).split('\n').length };
}

/** Tokens that once took seconds (a long run of digits, then a letter) or echoed 300 KB into the message. */
const HOSTILE_TOKENS = [
  ['300,000 digits and a letter', '7'.repeat(300_000) + 'x'],
  ['a 300,000-digit number beyond ±1e38', '9'.repeat(300_000)],
  ['digits, a dot, digits and a bare exponent', '1'.repeat(150_000) + '.' + '2'.repeat(150_000) + 'e'],
  ['a number beyond ±1e38', '3.5e38'],
] as const;

describe.each(READERS)('$format: hostile numbers', (r) => {
  it.skipIf(!haveFixtures(r.dir)).each(HOSTILE_TOKENS)('%s is a FormatError on its line, in one short sentence', (_, token) => {
    const { bytes, line } = withToken(r, token);
    let error: unknown;
    try {
      r.read(bytes);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    const e = error as FormatError;
    expect(e.line).toBe(line);
    expect(e.code).toBe('bad-number');
    expect(e.message.length).toBeLessThan(200);
  });
});

describe.each(READERS)('$format: BOM and line endings', (r) => {
  it.skipIf(!haveFixtures(r.dir))('reads the file alike with LF, CRLF and CR-only endings, with or without a UTF-8 BOM', () => {
    const lf = latin1(readFixture(r.dir, r.file)).replace(/\r\n/g, '\n');
    const expected = r.read(fromLatin1(lf));
    for (const eol of ['\r\n', '\r']) {
      for (const bom of ['', '\xef\xbb\xbf']) {
        expect(r.read(fromLatin1(bom + lf.replace(/\n/g, eol))), `eol ${JSON.stringify(eol)}, bom ${bom !== ''}`).toEqual(expected);
      }
    }
  });
});

describe('strict number scanning', () => {
  // The grammar the readers always had, as the regular expressions stated it (fine on short input).
  const INT = /^[+-]?\d+$/;
  const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
  const token = fc.string({ unit: fc.constantFrom(...'0123456789+-.eEx '.split('')), maxLength: 12 });

  it('accepts exactly the decimal grammar (differential against the old expressions)', () => {
    fc.assert(
      fc.property(token, (s) => {
        const i = parseIntStrict(s);
        const f = parseFloatStrict(s);
        expect(i !== null).toBe(INT.test(s) && Number.isSafeInteger(Number(s)));
        expect(f !== null).toBe(FLOAT.test(s) && Math.abs(Number(s)) <= 1e38);
        if (i !== null) expect(i).toBe(Number(s));
        if (f !== null) expect(f).toBe(Number(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses integers beyond ±2^53 and numbers beyond ±1e38', () => {
    expect(parseIntStrict('9007199254740991')).toBe(2 ** 53 - 1);
    expect(parseIntStrict('9007199254740993')).toBeNull();
    expect(parseFloatStrict('1e38')).toBe(1e38);
    expect(parseFloatStrict('-1.0000001e38')).toBeNull();
    expect(parseFloatStrict('3.5e38')).toBeNull();
    expect(parseFloatStrict('-1e39')).toBeNull();
    expect(parseFloatStrict('1e-50')).toBe(1e-50);
  });

  it('quotes file text cut to one short line, control characters escaped', () => {
    expect(quote('abc')).toBe('"abc"');
    expect(quote('a\u0000\u001b')).toBe('"a\\x00\\x1b"');
    const long = quote('x'.repeat(100_000));
    expect(long.length).toBeLessThan(80);
    expect(long).toContain('(100000 characters)');
  });
});
