import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, type SampleArrays, unityCurve, UnityWrapMode } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { referenceSampleUnity } from '../../src/reference/index.js';
import { expectCloseRelative, sampleArrays } from '../helpers/compare.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryUnityClip } from '../helpers/random-unity.js';

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
          const ref = sampleArrays(clip.curves.length);
          try {
            for (const t of times) {
              core.sampler.sample(clip, t, buf, { rotation });
              referenceSampleUnity(clip, t, ref, { rotation });
              expect(Array.from(buf.counts)).toEqual(Array.from(ref.counts));
              expectCloseRelative(buf.samples, ref.samples);
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

  it('reproduces the real-Unity values of spec mrtk.md §5 and §6.3', () => {
    const line = (mode: number) =>
      unityCurve({ time: [1, 2], value: [0, 1], inTangent: [1, 1], outTangent: [1, 1], weightedMode: [0, 0], preWrapMode: mode, postWrapMode: mode });
    const hermite = unityCurve({ time: [0.5, 1.25], value: [1.5, 0.25], inTangent: [1.5, 0.25], outTangent: [1.5, 0.25], weightedMode: [0, 0] });
    const clip = new AnimClip({
      name: 'oracles',
      curves: [hermite, line(UnityWrapMode.Loop), line(UnityWrapMode.PingPong), line(UnityWrapMode.Clamp), line(UnityWrapMode.Default)].map((l, i) => ({
        curveType: 'float',
        active: true,
        target: { joint: null, property: `c${i}` },
        keys: { encoding: 'unity', lanes: [l] },
      })),
    });
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    const buf = core.createSampleBuffer(clip);
    const at = (t: number) => {
      core.sampler.sample(clip, t, buf);
      return [0, 1, 2, 3, 4].map((i) => buf.sampleOf(i)[0]);
    };
    expect(at(0.875)[0]).toBeCloseTo(0.99218738, 6);
    const table: [number, number, number, number][] = [
      // t, Loop (and Default), PingPong, Clamp
      [-0.125, 0.875, 0.875, 0],
      [0, 0, 1, 0],
      [2.125, 0.125, 0.875, 1],
      [3, 0, 0, 1],
    ];
    for (const [t, loop, pingPong, clamp] of table) {
      const [, l, p, c, d] = at(t);
      expect([l, p, c, d].map((v) => Math.round(v! * 1e5) / 1e5)).toEqual([loop, pingPong, clamp, loop]);
    }
    buf.dispose();
    resource.dispose();
  });

  it('forward playback through the segment cursors matches the reference, also when a buffer switches clips', () => {
    fc.assert(
      fc.property(arbitraryUnityClip, arbitraryUnityClip, fc.double({ min: 0.001, max: 0.3, noNaN: true }), (clip, other, step) => {
        if (other.curves.length !== clip.curves.length) other = clip;
        const resource = new AnimResource({ format: 'test', clips: [clip, other] });
        core.load(resource);
        const buf = core.createSampleBuffer(clip);
        const ref = sampleArrays(clip.curves.length);
        try {
          for (let t = -6; t < 8; t += step) {
            const c = Math.floor(t) % 3 === 0 ? other : clip;
            core.sampler.sample(c, t, buf);
            referenceSampleUnity(c, t, ref);
            expectCloseRelative(buf.samples, ref.samples);
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
