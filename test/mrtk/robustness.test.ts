import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { unityCurve } from '../../src/anim/index.js';
import { type MrtkPoseCurves, readMrtk, writeMrtk } from '../../src/formats/mrtk/index.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { arbitraryRecording } from '../helpers/random-recording.js';

const LARGE = 'InputAnimation-20201027-134946.bin';

/** Parses or throws a FormatError; anything else fails the test. */
function parseOrFormatError(bytes: Uint8Array): void {
  try {
    readMrtk(bytes);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
  }
}

describe('MRTK reader and writer', () => {
  it('random recordings round-trip through write → read (and the bytes again)', () => {
    fc.assert(
      fc.property(arbitraryRecording, (rec) => {
        const bytes = writeMrtk(rec);
        const back = readMrtk(bytes);
        expect(back).toEqual(rec);
        expect(Buffer.from(writeMrtk(back)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses counts larger than the remaining bytes before allocating', () => {
    const bytes = writeMrtk({ versionMajor: 1, versionMinor: 1, camera: null, hands: null, gaze: null, markers: [] });
    const view = new DataView(bytes.buffer);
    view.setInt32(19, 0x7fffffff, true);
    expect(() => readMrtk(bytes)).toThrow(expect.objectContaining({ code: 'bad-count', offset: 19 }));
  });

  it('refuses a v1.0 segment that reaches beyond ±1e38 (value + weight × tangent × Δt), at the tangent, and keeps one just within', () => {
    const empty = () => unityCurve({ time: [], value: [] });
    const pose = (x = empty()): MrtkPoseCurves => ({ position: [x, empty(), empty()], rotation: [empty(), empty(), empty(), empty()] });
    const hand = () => ({ tracked: empty(), pinching: empty(), joints: Array.from({ length: 27 }, () => pose()) });
    const recording = (x: ReturnType<typeof unityCurve>) => writeMrtk({ versionMajor: 1, versionMinor: 0, camera: pose(x), hands: { left: hand(), right: hand() }, gaze: null, markers: [] });
    // The fuzz finding (mrtk-1.0, seed 3522747296 #60604): a Hermite segment of 1e30 s whose out-tangent is 1e30.
    const far = unityCurve({ time: [0.177, 1e30], value: [0, 0], outTangent: [1e30, 0], inTangent: [0, 0], weightedMode: [0, 0] });
    const bytes = recording(far);
    let error: unknown;
    try {
      readMrtk(bytes);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    const { code, offset, message } = error as FormatError;
    expect(code).toBe('bad-value');
    expect(new DataView(bytes.buffer).getFloat32(offset!, true)).toBe(Math.fround(1e30)); // the out-tangent
    expect(message).toMatch(/camera PositionX key 0 outTangent: over the .* s to the next key the curve reaches 3\.33e\+59; expected a segment within ±1e\+38/);
    // A weighted in-tangent side too; a stepped segment (infinite tangent) samples key values only.
    const weighted = unityCurve({ time: [0, 1e20], value: [0, 0], inTangent: [0, -1e19], outTangent: [0, 0], inWeight: [0, 1], weightedMode: [0, 1] });
    expect(() => readMrtk(recording(weighted))).toThrow(expect.objectContaining({ code: 'bad-value', message: expect.stringMatching(/key 1 inTangent/) }));
    const stepped = unityCurve({ time: [0, 1e30], value: [0, 0], outTangent: [Infinity, 0], inTangent: [0, 1e30], weightedMode: [0, 0] });
    expect(readMrtk(recording(stepped)).camera!.position[0].time).toHaveLength(2);
    const within = unityCurve({ time: [0, 1e18], value: [0, 0], outTangent: [2.9e20, 0], inTangent: [0, 0], weightedMode: [0, 0] });
    expect(readMrtk(recording(within)).camera!.position[0].outTangent[0]).toBe(Math.fround(2.9e20));
  });

  it('names the offset of a bad magic, an unsupported version and a bad key count', () => {
    const ok = writeMrtk({ versionMajor: 1, versionMinor: 1, camera: null, hands: null, gaze: null, markers: [{ time: 1, name: 'é' }] });
    const corrupt = (at: number, v: number) => {
      const b = ok.slice();
      new DataView(b.buffer).setInt32(at, v, true);
      return b;
    };
    expect(() => readMrtk(corrupt(0, 1))).toThrow(expect.objectContaining({ code: 'bad-magic', offset: 0 }));
    expect(() => readMrtk(corrupt(12, 2))).toThrow(expect.objectContaining({ code: 'unsupported-version', offset: 8 }));
    expect(() => readMrtk(corrupt(19, -1))).toThrow(expect.objectContaining({ code: 'bad-count', offset: 19 }));
    const badUtf8 = ok.slice();
    badUtf8[ok.length - 1] = 0xff;
    expect(() => readMrtk(badUtf8)).toThrow(expect.objectContaining({ code: 'bad-value' }));
  });

  it.runIf(haveFixtures('mrtk'))('random corruptions of the large recording parse or throw FormatError', () => {
    const original = readFixture('mrtk', LARGE);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: original.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat({ max: original.length })),
        (edits, cut) => {
          const bytes = original.slice(0, cut ?? original.length);
          for (const [at, v] of edits) if (at < bytes.length) bytes[at] = v;
          parseOrFormatError(bytes);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.runIf(haveFixtures('mrtk'))('corrupting any curve header field of the large recording parses or throws FormatError', () => {
    const original = readFixture('mrtk', LARGE);
    fc.assert(
      fc.property(fc.nat({ max: (original.length >> 2) - 1 }), fc.integer(), (word, v) => {
        const bytes = original.slice();
        new DataView(bytes.buffer).setInt32(4 * word, v, true);
        parseOrFormatError(bytes);
      }),
      { numRuns: 300 },
    );
  });
});
