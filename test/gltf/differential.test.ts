import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, InfinityType } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { expectSamplesLikeReference } from '../helpers/sample-like-reference.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryChannels, arbitrarySharedChannels, RANDOM_TARGETS, randomGlb } from '../helpers/random-gltf.js';

const options = fc.record({
  rotation: fc.constantFrom<'nlerp' | 'slerp' | undefined>(undefined, 'nlerp', 'slerp'),
  sampleType: fc.constantFrom<'linear' | 'step' | undefined>(undefined, undefined, 'step'),
});

describe.each(BUILDS)('random glTF animations through AnimCore equal the reference, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  /** Samples `clip` in the core and the reference at `times`, in that order (1e-5 relative). */
  const expectLikeReference = (clip: AnimClip, times: readonly number[], sampleOptions: { rotation?: 'nlerp' | 'slerp'; sampleType?: 'linear' | 'step' }) => {
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    try {
      expectSamplesLikeReference(core, clip, times, sampleOptions);
    } finally {
      resource.dispose();
    }
  };

  it('LINEAR, STEP and CUBICSPLINE channels (mixed in one clip), quantized outputs, any infinity, forward, backward and random times (1e-5)', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryChannels,
        fc.array(fc.double({ min: -1, max: 7, noNaN: true }), { minLength: 1, maxLength: 12 }),
        options,
        fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
        async (channels, times, sampleOptions, infinity) => {
          const read = (await openGltf({ gltf: randomGlb(channels) })).clips[0]!;
          const clip = new AnimClip({ name: read.name, curves: [...read.curves], rotation: read.rotation, preInfinity: infinity, postInfinity: infinity });
          const sorted = [...times, ...channels.flatMap((c) => c.times)].sort((a, b) => a - b);
          expectLikeReference(clip, [...sorted, ...[...sorted].reverse(), ...times], sampleOptions);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('channels sharing an input accessor or equal times (one key search per time array in the core), before the first key, on every key, between, after the last (1e-5)', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrarySharedChannels, options, async (channels, sampleOptions) => {
        const clip = (await openGltf({ gltf: randomGlb(channels) })).clips[0]!;
        // The reader hands a shared accessor's times to every channel as one array.
        const firstCurve = (i: number) => channels.slice(0, i).reduce((n, c) => n + (c.path === 'weights' ? RANDOM_TARGETS : 1), 0);
        const timesOf = (i: number) => (clip.curves[firstCurve(i)]!.keys as { times: Float32Array }).times;
        channels.forEach((c, i) => c.input !== undefined && expect(timesOf(i)).toBe(timesOf(c.input)));
        const keyTimes = [...new Set(channels.flatMap((c) => c.times))].sort((a, b) => a - b);
        const between = keyTimes.slice(1).map((t, k) => (t + keyTimes[k]!) / 2);
        const all = [-1, ...keyTimes, ...between, keyTimes[keyTimes.length - 1]! + 1].sort((a, b) => a - b);
        expectLikeReference(clip, [...all, ...[...all].reverse()], sampleOptions);
      }),
      { numRuns: 300 },
    );
  });
});
