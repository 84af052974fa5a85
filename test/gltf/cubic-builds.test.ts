import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, type AnimCurve, staticKeys } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { createCore } from '../helpers/core.js';

// The SIMD cubic sampler normalises a time group's rotations four at a time
// (assembly/cubic-clip.ts, quat.ts `normalizeLanes4`: the squared lengths gathered into one
// vector, one square root for four); the scalar build normalises them one by one with the same
// f32 operations. Groups of 1–11 rotations cover whole fours and the rest; keys of zero length
// (identity) and of ±1e20 (|q|² beyond float32) send a four down the per-quaternion path. The
// scalar build is the oracle here; both builds against the reference: differential.test.ts.

const TIMES = Float32Array.of(0, 0.5, 1.25, 2);

const component = fc.oneof(
  { weight: 8, arbitrary: fc.float({ min: -2, max: 2, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1e20, -1e20) },
);
/** In-tangent, value and out-tangent per key of TIMES: 12 floats a key; `zero` keys are all 0. */
const rotationKeys = fc.oneof(
  { weight: 6, arbitrary: fc.array(component, { minLength: 12 * TIMES.length, maxLength: 12 * TIMES.length }) },
  { weight: 1, arbitrary: fc.constant(new Array<number>(12 * TIMES.length).fill(0)) },
);

const arbitraryClip = fc.record({
  rotations: fc.array(rotationKeys, { minLength: 1, maxLength: 11 }),
  times: fc.array(fc.double({ min: -0.5, max: 2.5, noNaN: true }), { minLength: 1, maxLength: 8 }),
});

function cubicClip(rotations: readonly number[][]): AnimClip {
  const curves: AnimCurve[] = rotations.map((values, j) => ({
    curveType: 'rotation',
    target: { joint: `j${j}`, property: 'rotation' },
    active: true,
    // One times array for every curve: one time group.
    keys: { encoding: 'cubic', times: TIMES, values: Float32Array.from(values) },
  }));
  curves.push({ curveType: 'translation', target: { joint: 'j0', property: 'translation' }, active: true, keys: staticKeys(1, 2, 3, 0) });
  return new AnimClip({ name: 'cubic', curves, rotation: 'slerp' });
}

describe('cubic rotations, SIMD and scalar builds', () => {
  let simd: AnimCore;
  let scalar: AnimCore;
  beforeAll(async () => {
    [simd, scalar] = await Promise.all([createCore('simd'), createCore('scalar')]);
  });

  it('are the same bits at every time', () => {
    fc.assert(
      fc.property(arbitraryClip, ({ rotations, times }) => {
        const clip = cubicClip(rotations);
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        const bufs = [simd, scalar].map((core) => {
          core.load(resource);
          return core.createSampleBuffer(clip);
        });
        try {
          for (const t of [...times, ...TIMES, 0.9]) {
            const [a, b] = [simd, scalar].map((core, i) => {
              core.sampler.sample(clip, t, bufs[i]!);
              return new Uint32Array(bufs[i]!.samples.slice().buffer);
            });
            expect(a).toEqual(b);
          }
        } finally {
          for (const b of bufs) b.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 300 },
    );
  });
});
