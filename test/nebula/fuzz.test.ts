// Random corruption (fast-check): 1–8 changed bytes in a real file must end in a successful read
// and conversion, or in a FormatError with a byte offset — never another exception, never a hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { FormatError } from '../../src/errors.js';
import { openNebula, readNax3, writeNax3 } from '../../src/formats/nebula/index.js';

const have = haveFixtures('nebula');
const RUNS = 2000;

/** Positions biased towards the headers (where corruption changes the structure) half the time. */
function corruption(length: number, headerEnd: number) {
  const position = fc.oneof(fc.integer({ min: 0, max: length - 1 }), fc.integer({ min: 0, max: Math.min(length, headerEnd) - 1 }));
  return fc.array(fc.tuple(position, fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 });
}

function decodeOrFormatError(bytes: Uint8Array): 'ok' | 'format-error' {
  try {
    const res = openNebula({ animation: bytes });
    for (const clip of res.clips) for (const curve of clip.curves) void curve.keys;
    return 'ok';
  } catch (e) {
    if (e instanceof FormatError && typeof e.offset === 'number') return 'format-error';
    throw e;
  }
}

describe.skipIf(!have)('random byte corruption', () => {
  for (const [file, headerEnd] of [
    ['bouncingball.nax2', 192],
    ['Unit_Footman.nax3', 17228],
    ['kila_layoutB.nax2', 6760],
  ] as const) {
    it(`${file}: ${RUNS} corruptions of 1–8 bytes end in success or a FormatError with an offset`, () => {
      const original = readFixture('nebula', file);
      const outcomes = { ok: 0, 'format-error': 0 };
      fc.assert(
        fc.property(corruption(original.length, headerEnd), (changes) => {
          const bytes = original.slice();
          for (const [at, value] of changes) bytes[at] = value;
          outcomes[decodeOrFormatError(bytes)]++;
        }),
        { numRuns: RUNS },
      );
      expect(outcomes.ok + outcomes['format-error']).toBe(RUNS);
      expect(outcomes['format-error']).toBeGreaterThan(0);
    }, 120_000);
  }

  it('Unit_Footman.nax3: whatever reads also rewrites byte for byte', () => {
    const original = readFixture('nebula', 'Unit_Footman.nax3');
    fc.assert(
      fc.property(corruption(original.length, 17228), (changes) => {
        const bytes = original.slice();
        for (const [at, value] of changes) bytes[at] = value;
        let doc;
        try {
          doc = readNax3(bytes);
        } catch (e) {
          if (e instanceof FormatError && typeof e.offset === 'number') return;
          throw e;
        }
        expect(Buffer.from(writeNax3(doc)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
