import { describe, expect, it } from 'vitest';
import { AnimClip, InfinityType } from '../../src/anim/index.js';
import { curveTrack } from '../../src/export/curve-track.js';

describe('curveTrack of uniform curves', () => {
  const clip = (post: InfinityType) =>
    new AnimClip({
      name: 'walk',
      keyCount: 3,
      keyDuration: 0.1,
      postInfinity: post,
      curves: [
        { curveType: 'translation', target: { joint: 'hip', property: 'translation' }, active: true, keys: { encoding: 'uniform', values: Float32Array.of(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0) } },
        { curveType: 'rotation', target: { joint: 'hip', property: 'rotation' }, active: true, keys: { encoding: 'uniform', values: Float32Array.of(0, 0, 0, 1, 0, 0, 0.6, 0.8, 0, 0, -0.6, -0.8) } },
      ],
    });

  it.each([InfinityType.Constant, InfinityType.Cycle])('gives every track of a clip one array of times k · keyDuration (post-infinity %s)', (post) => {
    const c = clip(post);
    const [a, b] = c.curves.map((curve) => curveTrack(c, curve));
    const n = post === InfinityType.Cycle ? 4 : 3;
    expect(Array.from(a!.times)).toEqual(Array.from({ length: n }, (_, k) => Math.fround(k * 0.1)));
    // One array, so writers find one input by identity (SharedTimes) instead of comparing every time.
    expect(b!.times).toBe(a!.times);
    // Rotations sign-aligned to their predecessor (−0 compared as 0).
    expect(Array.from(b!.values.subarray(8, 12)).map((v) => v + 0)).toEqual([0, 0, 0.6, 0.8].map(Math.fround));
  });
});
