import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AnimCore, AnimSampleBuffer } from '../../src/core/index.js';
import { exactSlerp, slerp } from '../../src/reference/quat.js';
import { BUILDS, createCore } from '../helpers/core.js';

/**
 * Rotation angle between two quaternions in degrees, from their directions only (slerp results are
 * not renormalised; q and −q are one rotation).
 */
function angleDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < 4; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! ** 2;
    bb += b[i]! ** 2;
  }
  const cross = Math.sqrt(Math.max(0, aa * bb - dot * dot));
  return (2 * Math.atan2(cross, Math.abs(dot)) * 180) / Math.PI;
}

/** A random unit quaternion, and another one `gap` degrees of rotation away (either sign). */
const keyPair = (maxGap: number) =>
  fc
    .record({
      axis: fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
      spin: fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: 0.1, max: 1, noNaN: true })),
      gap: fc.double({ min: 0, max: maxGap, noNaN: true }),
      flip: fc.boolean(),
      w: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .filter(({ axis }) => Math.hypot(...axis) > 0.1)
    .map(({ axis, spin, gap, flip, w }) => {
      const l = Math.hypot(...spin);
      const q0 = spin.map((c) => c / l) as [number, number, number, number];
      const n = Math.hypot(...axis);
      const h = ((gap / 2) * Math.PI) / 180;
      // r = (axis sin h, cos h); q1 = r ⊗ q0, stored as float32 keys are.
      const [rx, ry, rz, rw] = [(axis[0] / n) * Math.sin(h), (axis[1] / n) * Math.sin(h), (axis[2] / n) * Math.sin(h), Math.cos(h)];
      const [x, y, z, qw] = q0;
      const q1 = [rw * x + rx * qw + ry * z - rz * y, rw * y - rx * z + ry * qw + rz * x, rw * z + rx * y - ry * x + rz * qw, rw * qw - rx * x - ry * y - rz * z].map(
        (c) => (flip ? -c : c),
      );
      return { q0: Float32Array.from(q0), q1: Float32Array.from(q1), w: Math.fround(w) };
    });

describe('the slerp polynomial (Eberly 2011) against the exact slerp', () => {
  it.each([
    [90, 1e-5],
    [180, 1e-3],
  ])('reference twin: within the bound for key gaps up to %s°', (gap, bound) => {
    fc.assert(
      fc.property(keyPair(gap), ({ q0, q1, w }) => {
        expect(angleDeg(slerp(q0, 0, q1, 0, w), exactSlerp(q0, 0, q1, 0, w))).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 5000 },
    );
  });
});

describe.each(BUILDS)('%s build slerp', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it.each([
    [90, 1e-5],
    [180, 1e-3],
  ])('mixes within the bound of the exact slerp for key gaps up to %s°', (gap, bound) => {
    const types = Array<'rotation'>(64).fill('rotation');
    const [a, b, out] = [0, 1, 2].map(() => new AnimSampleBuffer(core, types)) as [AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer];
    try {
      fc.assert(
        fc.property(fc.array(keyPair(gap), { minLength: 64, maxLength: 64 }), fc.double({ min: 0, max: 1, noNaN: true }), (pairs, weight) => {
          const w = Math.fround(weight);
          pairs.forEach(({ q0, q1 }, i) => {
            a.samples.set(q0, 4 * i);
            b.samples.set(q1, 4 * i);
          });
          a.counts.fill(1);
          b.counts.fill(1);
          core.mixer.mix(a, b, w, out, { rotation: 'slerp' });
          pairs.forEach(({ q0, q1 }, i) => {
            expect(angleDeg(out.samples.subarray(4 * i, 4 * i + 4), exactSlerp(q0, 0, q1, 0, w))).toBeLessThanOrEqual(bound);
          });
        }),
        { numRuns: 200 },
      );
    } finally {
      for (const x of [a, b, out]) x.dispose();
    }
  });
});
