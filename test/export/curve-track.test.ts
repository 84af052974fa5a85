import { describe, expect, it } from 'vitest';
import { AnimClip, InfinityType } from '../../src/anim/index.js';
import { curveTrack, writeTrackValues } from '../../src/export/curve-track.js';

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

describe('writeTrackValues', () => {
  // Uniform rotation tracks are written straight into an output (AlignedRotations) rather than
  // made first: the bits must be those of the rule as written here — each key in its aligned
  // predecessor's hemisphere (dot in float64 below 0: negated), a cycling clip's closing key too,
  // then divided by its float64 length (a zero quaternion: identity).
  const expected = (keys: number[], keyCount: number, cycle: boolean): Float32Array => {
    const n = keyCount + (cycle ? 1 : 0);
    const out = new Float32Array(4 * n);
    let prev = [0, 0, 0, 0];
    for (let k = 0; k < n; k++) {
      let q = keys.slice(4 * (k % keyCount), 4 * (k % keyCount) + 4).map(Math.fround);
      if (k > 0 && prev[0]! * q[0]! + prev[1]! * q[1]! + prev[2]! * q[2]! + prev[3]! * q[3]! < 0) q = q.map((v) => -v);
      prev = q;
      const len = Math.sqrt(q[0]! * q[0]! + q[1]! * q[1]! + q[2]! * q[2]! + q[3]! * q[3]!);
      out.set(len === 0 ? [0, 0, 0, 1] : q.map((v) => v / len), 4 * k);
    }
    return out;
  };
  const rotationClip = (keys: number[], post: InfinityType) =>
    new AnimClip({
      name: 'turn',
      keyCount: keys.length / 4,
      keyDuration: 0.1,
      postInfinity: post,
      curves: [{ curveType: 'rotation', target: { joint: 'hip', property: 'rotation' }, active: true, keys: { encoding: 'uniform', values: Float32Array.from(keys) } }],
    });
  const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
  const keys = [0.1, 0.2, 0.3, 0.9, -0.1, -0.25, -0.3, -0.88, 0, 0, 0, 0, 0.3, 0.1, -0.2, 0.95, -0.31, -0.1, 0.2, -0.96, 1e-20, 3e-20, 0, 2e-20];

  it.each([InfinityType.Constant, InfinityType.Cycle])('writes uniform rotations aligned and normalised, with the bits of the rule, at any offset (post-infinity %s)', (post) => {
    const c = rotationClip(keys, post);
    const track = curveTrack(c, c.curves[0]!);
    const want = expected(keys, keys.length / 4, post === InfinityType.Cycle);
    const out = new Float32Array(want.length + 7).fill(7);
    writeTrackValues(track, out, 5, 4);
    expect(bits(out.subarray(5, 5 + want.length))).toEqual(bits(want));
    expect(Array.from(out.subarray(0, 5))).toEqual([7, 7, 7, 7, 7]);
    expect(Array.from(out.subarray(5 + want.length))).toEqual([7, 7]);
    // `values`, made when read, holds the same bits.
    expect(bits(track.values)).toEqual(bits(want));
  });

  it('collapses a uniform rotation track whose keys are all one rotation (q and −q, any length) to one key', () => {
    const c = rotationClip([0, 0, 0.6, 0.8, 0, 0, -1.2, -1.6, 0, 0, 0.3, 0.4], InfinityType.Constant);
    const track = curveTrack(c, c.curves[0]!);
    expect(track.times.length).toBe(1);
    expect(Array.from(track.values)).toEqual([0, 0, 0.6, 0.8].map(Math.fround));
  });

  it('writes x y z of each key for width 3', () => {
    const c = new AnimClip({
      name: 'move',
      keyCount: 2,
      keyDuration: 0.5,
      curves: [{ curveType: 'translation', target: { joint: 'hip', property: 'translation' }, active: true, keys: { encoding: 'uniform', values: Float32Array.of(1, 2, 3, 0, 4, 5, 6, 0) } }],
    });
    const out = new Float32Array(6);
    writeTrackValues(curveTrack(c, c.curves[0]!), out, 0, 3);
    expect(Array.from(out)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
