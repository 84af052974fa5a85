import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantizedRotations } from '../../src/export/quantize-rotations.js';

describe('quantizedRotations (glTF normalized int16 rotation outputs)', () => {
  it('writes each key normalised, times 32767, rounded; a key shorter than 1e-6 as identity', () => {
    expect(Array.from(quantizedRotations(Float32Array.of(0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 4))!)).toEqual([0, 0, 0, 32767, 0, 0, 0, 32767, 19660, 0, 0, 26214]);
  });

  it('is null when two consecutive keys are within rounding of 180° apart (their dot within 1e-4 of 0)', () => {
    expect(quantizedRotations(Float32Array.of(0, 0, 0, 1, 1, 0, 0, 0))).toBeNull();
    expect(quantizedRotations(Float32Array.of(0, 0, 0, 1, 1, 0, 0, 2e-4))).not.toBeNull();
  });

  it('decodes (c / 32767) within half a code of every normalised component', () => {
    const quat = fc.tuple(fc.float({ min: -1, max: 1, noNaN: true }), fc.float({ min: -1, max: 1, noNaN: true }), fc.float({ min: -1, max: 1, noNaN: true }), fc.float({ min: Math.fround(0.1), max: 1, noNaN: true }));
    fc.assert(
      fc.property(fc.array(quat, { minLength: 1, maxLength: 8 }), (keys) => {
        const codes = quantizedRotations(Float32Array.from(keys.flat()));
        if (codes === null) return;
        keys.forEach((q, k) => {
          const len = Math.hypot(...q);
          q.forEach((c, i) => expect(Math.abs(codes[4 * k + i]! / 32767 - c / len)).toBeLessThanOrEqual(0.5 / 32767 + 1e-12));
        });
      }),
    );
  });
});
