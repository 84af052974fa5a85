// The uniform sampler nlerps rotations four at a time as structure of arrays in the SIMD build
// (quat.ts `nlerpAlignedLanes4`) and one by one in the scalar build (`nlerpAligned`): the same f32
// operations per lane, so both builds give the same bits, and a group of four holding a zero or
// overflowing rotation falls back to the per-quaternion path (identity, rescaling). Clips of many
// rotation curves (groups of four and a remainder) next to translations, with broken keys.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, InfinityType } from '../../src/anim/index.js';
import { expectSamplesLikeReference } from '../helpers/sample-like-reference.js';
import { BUILDS, createCore } from '../helpers/core.js';

const f = (min: number, max: number) => fc.float({ min, max, noNaN: true, noDefaultInfinity: true });

/** A unit quaternion, now and then negated or replaced by a zero or overflowing key. */
const rotationKey = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(f(-1, 1), f(-1, 1), f(-1, 1), f(-1, 1)).filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01) },
  { weight: 1, arbitrary: fc.constantFrom([0, 0, 0, 0], [1e-9, -1e-9, 0, 1e-10], [1e30, 0, 0, 0], [2e19, -3e19, 1e19, 2e19]) },
);

const arbitraryRotationClip = fc
  .record({
    keyCount: fc.integer({ min: 1, max: 6 }),
    rotations: fc.integer({ min: 1, max: 19 }),
    translations: fc.integer({ min: 0, max: 3 }),
    post: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
  })
  .chain(({ keyCount, rotations, translations, post }) =>
    fc
      .tuple(
        fc.array(fc.array(rotationKey, { minLength: keyCount, maxLength: keyCount }), { minLength: rotations, maxLength: rotations }),
        fc.array(fc.array(fc.array(f(-100, 100), { minLength: 4, maxLength: 4 }), { minLength: keyCount, maxLength: keyCount }), {
          minLength: translations,
          maxLength: translations,
        }),
      )
      .map(([rotationKeys, translationKeys]) => {
        const curve = (curveType: 'rotation' | 'translation', i: number, keys: readonly (readonly number[])[]): AnimCurve => ({
          curveType,
          active: true,
          target: { joint: `j${i}`, property: curveType },
          keys: { encoding: 'uniform', values: Float32Array.from(keys.flat()) },
        });
        const curves = [...rotationKeys.map((keys, i) => curve('rotation', i, keys)), ...translationKeys.map((keys, i) => curve('translation', i, keys))];
        return new AnimClip({ name: 'rotations', curves, keyCount, keyDuration: 0.25, postInfinity: post });
      }),
  );

const times = fc.array(fc.double({ min: -1, max: 3, noNaN: true }), { minLength: 1, maxLength: 8 });

describe('uniform rotations, four at a time in the SIMD build', () => {
  it('sample the same bits in both builds, and like the reference (nlerp)', async () => {
    const cores = await Promise.all(BUILDS.map((build) => createCore(build)));
    fc.assert(
      fc.property(arbitraryRotationClip, times, (clip, ts) => {
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        try {
          const [a, b] = cores.map((core) => {
            core.load(resource);
            expectSamplesLikeReference(core, clip, ts, { rotation: 'nlerp' });
            const buf = core.createSampleBuffer(clip);
            const bits: number[] = [];
            for (const t of ts) {
              core.sampler.sample(clip, t, buf, { rotation: 'nlerp' });
              bits.push(...new Uint32Array(buf.samples.buffer, buf.samples.byteOffset, buf.samples.length));
            }
            buf.dispose();
            return bits;
          });
          expect(a).toEqual(b);
        } finally {
          resource.dispose();
        }
      }),
      { numRuns: 300 },
    );
  });
});
