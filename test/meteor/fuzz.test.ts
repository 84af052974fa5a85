import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { readAmb, readBnc, readPos, readSkc } from '../../src/formats/meteor/index.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';

/** `read` either succeeds or throws a FormatError — never a bare RangeError/TypeError. */
function onlyFormatErrors(read: (b: Uint8Array) => unknown, bytes: Uint8Array): void {
  try {
    read(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
  }
}

/** Line-level edits of a text file: drop, duplicate or swap lines, or overwrite one byte. */
const lineEdits = fc.array(
  fc.record({ kind: fc.constantFrom('drop', 'dup', 'swap', 'byte'), at: fc.nat(), byte: fc.constantFrom(0x7b, 0x7d, 0x20, 0x0a, 0x2c, 0x22, 0x78, 0x2d, 0x39) }),
  { minLength: 1, maxLength: 4 },
);

function applyEdits(bytes: Uint8Array, edits: { kind: string; at: number; byte: number }[]): Uint8Array {
  let lines = new TextDecoder('latin1').decode(bytes).split('\n');
  for (const ed of edits) {
    const i = ed.at % lines.length;
    if (ed.kind === 'drop') lines.splice(i, 1);
    else if (ed.kind === 'dup') lines.splice(i, 0, lines[i]!);
    else if (ed.kind === 'swap' && i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
    else if (ed.kind === 'byte' && lines[i]!.length > 0) {
      const j = ed.at % lines[i]!.length;
      lines[i] = lines[i]!.slice(0, j) + String.fromCharCode(ed.byte) + lines[i]!.slice(j + 1);
    }
    if (lines.length === 0) lines = [''];
  }
  return Uint8Array.from(lines.join('\n'), (ch) => ch.charCodeAt(0));
}

describe.runIf(haveFixtures('meteor'))('readers on corrupted fixtures throw only FormatErrors', () => {
  const amb = readFixture('meteor', 'p0.amb').slice(0, 21 + 698 * 4);
  new DataView(amb.buffer).setInt32(13, 4, true);

  it('.amb: random byte overwrites and truncations', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(amb.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), fc.nat(amb.length), (writes, cut) => {
        const b = amb.slice(0, cut);
        for (const [at, v] of writes) if (at < b.length) b[at] = v;
        onlyFormatErrors(readAmb, b);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['P0.bnc', readBnc],
    ['P0.pos', readPos],
    ['p0_300.skc', readSkc],
  ] as const)('%s: random line edits', (name, read) => {
    const bytes = readFixture('meteor', name);
    fc.assert(
      fc.property(lineEdits, (edits) => onlyFormatErrors(read, applyEdits(bytes, edits))),
      { numRuns: name === 'P0.pos' ? 60 : 200 },
    );
  });
});
