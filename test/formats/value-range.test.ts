import binaryen from 'binaryen';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLOAT32_CHECK_BYTES, FLOAT32_CHECK_WAT, firstBadFloat32 } from '../../src/formats/float32-check.js';
import { firstBadValue, isFileValue } from '../../src/formats/value-range.js';

/** The rule itself, value by value as numbers (what the float32 check must agree with). */
const expected = (values: ArrayLike<number>): number => {
  for (let i = 0; i < values.length; i++) if (!isFileValue(values[i]!)) return i;
  return -1;
};

const bits = (b: number) => new Float32Array(Int32Array.of(b).buffer)[0]!;
// Float32s around the limit: the largest accepted (9.99999968e37) and the smallest refused; NaN, ±Inf, the extremes.
const EDGES = [bits(0x7e967699), -bits(0x7e967699), bits(0x7e96769a), -bits(0x7e96769a), NaN, Infinity, -Infinity, 0, -0, bits(1), bits(0x7f7fffff), bits(0x7fc00001)];

describe('firstBadValue of float32 arrays (the WebAssembly SIMD check)', () => {
  it('runs in WebAssembly SIMD here (Node 20), so the tests below check it', () => {
    expect(firstBadFloat32(Float32Array.of(1, NaN))).toBe(1);
  });

  it('finds the first refused float32 at any position, as the rule value by value does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...EDGES))), fc.nat(5), (length, placed, offset) => {
        // A view at an offset into a larger buffer, as a reader's accessor views are.
        const values = new Float32Array(length + offset).subarray(offset);
        for (let i = 0; i < length; i++) values[i] = Math.sin(i) * 1e3;
        for (const [at, v] of placed) if (length > 0) values[at % length] = v;
        expect(firstBadValue(values)).toBe(expected(values));
        expect(firstBadValue(Array.from(values))).toBe(expected(values));
      }),
      { numRuns: 500 },
    );
  });

  it('across the chunks the floats are copied in (65,536 floats each)', () => {
    const values = new Float32Array(3 * 65536 + 11);
    expect(firstBadValue(values)).toBe(-1);
    for (const at of [65535, 65536, 2 * 65536 + 7, 3 * 65536 + 10]) {
      for (const bad of [NaN, -Infinity, 2e38]) {
        values[at] = bad;
        expect(firstBadValue(values)).toBe(at);
        values[at] = bits(0x7e967699); // the largest accepted
        expect(firstBadValue(values)).toBe(-1);
      }
    }
  });

  it('accepts the largest float32 within ±1e38 and refuses the next one up', () => {
    expect(firstBadValue(Float32Array.of(0, bits(0x7e967699), -bits(0x7e967699)))).toBe(-1);
    expect(firstBadValue(Float32Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8, -bits(0x7e96769a)))).toBe(9);
    expect(firstBadValue(Float32Array.of(0, 1, NaN, 3, Infinity, 5, 6, 7))).toBe(2);
  });

  it('holds the bytes binaryen assembles from the module text', () => {
    const module = binaryen.parseText(FLOAT32_CHECK_WAT);
    module.setFeatures(binaryen.Features.MVP | binaryen.Features.SIMD128);
    expect(module.validate()).toBeTruthy();
    expect(Array.from(module.emitBinary())).toEqual(Array.from(FLOAT32_CHECK_BYTES));
    module.dispose();
  });

  describe('where WebAssembly may not be compiled (a Content-Security-Policy without wasm-unsafe-eval)', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
      vi.resetModules();
    });

    it('checks in JS with the same results', async () => {
      vi.resetModules();
      vi.stubGlobal('WebAssembly', {
        validate: () => true,
        Module: function () {
          throw new Error('Refused to compile or instantiate WebAssembly module');
        },
      });
      const fresh = await import('../../src/formats/float32-check.js');
      const range = await import('../../src/formats/value-range.js');
      expect(fresh.firstBadFloat32(Float32Array.of(1, NaN))).toBeUndefined();
      expect(range.firstBadValue(Float32Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8, -Infinity))).toBe(9);
      expect(range.firstBadValue(Float32Array.of(0, bits(0x7e967699)))).toBe(-1);
    });
  });
});
