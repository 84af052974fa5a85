import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimResource, type SampleArrays } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { referenceSampleUnity } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryUnityClip } from '../helpers/random-unity.js';

function expectClose(actual: Float32Array, expected: Float32Array, tol = 1e-5): void {
  for (let i = 0; i < expected.length; i++) {
    const scale = Math.max(1, Math.abs(expected[i]!));
    if (!(Math.abs(actual[i]! - expected[i]!) <= tol * scale)) {
      throw new Error(`index ${i}: wasm ${actual[i]} vs reference ${expected[i]}`);
    }
  }
}

const arrays = (n: number): SampleArrays => ({ samples: new Float32Array(4 * n), counts: new Uint8Array(n) });

describe.each(BUILDS)('%s build evaluates Unity curves like src/reference', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('random Unity curves (tangents, weights, modes, wrap modes), raw and corrected rotations', () => {
    fc.assert(
      fc.property(
        arbitraryUnityClip,
        fc.array(fc.double({ min: -30, max: 30, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('nlerp', 'raw') as fc.Arbitrary<'nlerp' | 'raw'>,
        (clip, times, rotation) => {
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          const buf = core.createSampleBuffer(clip);
          const ref = arrays(clip.curves.length);
          try {
            for (const t of times) {
              core.sampler.sample(clip, t, buf, { rotation });
              referenceSampleUnity(clip, t, ref, { rotation });
              expect(Array.from(buf.counts)).toEqual(Array.from(ref.counts));
              expectClose(buf.samples, ref.samples);
            }
          } finally {
            buf.dispose();
            resource.dispose();
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('forward playback through the segment cursors matches the reference, also when a buffer switches clips', () => {
    fc.assert(
      fc.property(arbitraryUnityClip, arbitraryUnityClip, fc.double({ min: 0.001, max: 0.3, noNaN: true }), (clip, other, step) => {
        if (other.curves.length !== clip.curves.length) other = clip;
        const resource = new AnimResource({ format: 'test', clips: [clip, other] });
        core.load(resource);
        const buf = core.createSampleBuffer(clip);
        const ref = arrays(clip.curves.length);
        try {
          for (let t = -6; t < 8; t += step) {
            const c = Math.floor(t) % 3 === 0 ? other : clip;
            core.sampler.sample(c, t, buf);
            referenceSampleUnity(c, t, ref);
            expectClose(buf.samples, ref.samples);
          }
        } finally {
          buf.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 300 },
    );
  });
});
