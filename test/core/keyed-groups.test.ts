import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, type KeyedKeys } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { CLIP_KEY_COUNT, CLIP_SINGLE_COUNT } from '../../assembly/layout.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitrarySharedKeyedClip } from '../helpers/random-clip.js';
import { expectSamplesLikeReference } from '../helpers/sample-like-reference.js';

// Keyed curves sharing key times are sampled as one time group (assembly/layout.ts KEYED_*): one
// key search, then every member with the same key pair and weight.

const curve = (curveType: 'translation' | 'rotation', times: Float32Array, values: number[], interpolation?: 'step'): AnimCurve => ({
  curveType,
  active: true,
  target: { joint: curveType, property: curveType },
  keys: { encoding: 'keyed', times, values: Float32Array.from(values), ...(interpolation && { interpolation }) },
});

describe.each(BUILDS)('keyed curves sharing key times, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  /** The loaded block's time groups and groups of one slot. */
  function groupsOf(clip: AnimClip): { groups: number; single: number } {
    const { ptr } = core.runtime.loaded(clip);
    return { groups: core.runtime.u32[(ptr + CLIP_KEY_COUNT) >>> 2]!, single: core.runtime.u32[(ptr + CLIP_SINGLE_COUNT) >>> 2]! };
  }

  it('one array of times for a translation and a rotation from q to −q: held before the first key and after the last, interpolated between', () => {
    const times = Float32Array.of(1, 2, 3);
    const h = Math.SQRT1_2;
    const clip = new AnimClip({
      name: 'shared',
      curves: [curve('translation', times, [0, 0, 0, 0, 10, 20, 30, 0, 20, 40, 60, 0]), curve('rotation', times, [0, 0, 0, 1, 0, 0, 0, -1, 0, 0, h, h])],
    });
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    expect(groupsOf(clip)).toEqual({ groups: 1, single: 0 });
    const buf = core.createSampleBuffer(clip);
    const at = (t: number) => (core.sampler.sample(clip, t, buf), Array.from(buf.samples));
    expect(at(0)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    // q → −q is no turn at all along the shorter arc: the first key all the way.
    expect(at(1.5)).toEqual([5, 10, 15, 0, 0, 0, 0, 1]);
    expect(at(2)).toEqual([10, 20, 30, 0, 0, 0, 0, -1]);
    const mid = at(2.5);
    expect(mid.slice(0, 4)).toEqual([15, 30, 45, 0]);
    // Halfway from −identity to a 90° turn about z, taken the short way (the second key negated): 45°
    // about z, in the first key's hemisphere.
    const c = Math.cos(Math.PI / 8);
    const s = Math.sin(Math.PI / 8);
    mid.slice(4).forEach((v, i) => expect(v).toBeCloseTo([0, 0, -s, -c][i]!, 6));
    expect(at(7)).toEqual([20, 40, 60, 0, 0, 0, Math.fround(h), Math.fround(h)]);
    buf.dispose();
    resource.dispose();
  });

  it('groups equal times held in different arrays, keeps step curves and other times apart', () => {
    const times = Float32Array.of(0, 0.5, 1);
    const values = [0, 0, 0, 0, 1, 1, 1, 0, 2, 2, 2, 0];
    const clip = new AnimClip({
      name: 'groups',
      curves: [
        curve('translation', times, values),
        curve('translation', times.slice(), values),
        curve('translation', times, values, 'step'),
        curve('translation', Float32Array.of(0, 0.25, 1), values),
      ],
    });
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    expect(groupsOf(clip)).toEqual({ groups: 3, single: 2 });
    const buf = core.createSampleBuffer(clip);
    core.sampler.sample(clip, 0.75, buf);
    // The last curve: 1 + (2 − 1) · w with w = (0.75 − 0.25) / 0.75 in float32.
    const last = Math.fround(1 + Math.fround(2 / 3));
    expect(Array.from(buf.samples)).toEqual([1.5, 1.5, 1.5, 0, 1.5, 1.5, 1.5, 0, 1, 1, 1, 0, last, last, last, 0]);
    buf.dispose();
    resource.dispose();
  });

  it('slerps every rotation of a group of 1 to 9 rotations like the reference (the SIMD build four at a time, the last four again)', () => {
    const times = Float32Array.of(0, 0.5, 1, 1.5);
    for (let count = 1; count <= 9; count++) {
      // Rotation r turns about its own axis by a different angle per key (gaps up to 40°).
      const rotations = Array.from({ length: count }, (_, r) => {
        const axis = [Math.sin(r + 1), Math.cos(2 * r + 1), 0.5];
        const len = Math.hypot(...axis);
        const values = Array.from(times).flatMap((_, k) => {
          const half = (((r + 1) * (k + 1) * 7) % 40) * (Math.PI / 360);
          return [...axis.map((x) => (x / len) * Math.sin(half)), Math.cos(half)];
        });
        return curve('rotation', times, values);
      });
      const clip = new AnimClip({ name: `rotations${count}`, curves: [curve('translation', times, Array.from({ length: 16 }, (_, i) => i)), ...rotations] });
      const resource = new AnimResource({ format: 'test', clips: [clip] });
      core.load(resource);
      try {
        expect(groupsOf(clip)).toEqual({ groups: 1, single: 0 });
        expectSamplesLikeReference(core, clip, [0.1, 0.3, 0.75, 1.2, 1.45, 0.6], { rotation: 'slerp' });
      } finally {
        resource.dispose();
      }
    }
  });

  it('samples random clips of shared and copied times like the reference (nlerp, slerp, step; forward, backward and random times)', () => {
    fc.assert(
      fc.property(
        arbitrarySharedKeyedClip,
        fc.array(fc.double({ min: -2, max: 3, noNaN: true }), { minLength: 1, maxLength: 10 }),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        fc.constantFrom('linear', 'step') as fc.Arbitrary<'linear' | 'step'>,
        (clip, randomTimes, rotation, sampleType) => {
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          // One group per distinct array of times and step flag among the sampled curves.
          const animated = clip.curves.filter((c) => c.active && c.keys.encoding === 'keyed').map((c) => c.keys as KeyedKeys);
          const distinct = new Set(animated.map((k) => `${Array.from(k.times)} ${k.interpolation}`));
          if (distinct.size > 0) expect(groupsOf(clip).groups).toBe(distinct.size);
          const keyTimes = [...new Set(animated.flatMap((k) => Array.from(k.times)))];
          const sorted = [...randomTimes, ...keyTimes].sort((a, b) => a - b);
          try {
            expectSamplesLikeReference(core, clip, [...sorted, ...[...sorted].reverse(), ...randomTimes], { rotation, sampleType });
          } finally {
            resource.dispose();
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
