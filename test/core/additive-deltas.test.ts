import { describe, expect, it } from 'vitest';
import { dropKeys } from '../../src/anim/index.js';
import { quatInverse, quatMultiply } from '../../src/anim/quaternion.js';
import { additiveDeltaClip } from '../../src/core/additive-deltas.js';
import { makeRig } from '../helpers/rig.js';

// An additive clip's keys as deltas against its reference pose (three.js makeClipAdditive), which a
// layered SampleManyJob samples instead of taking each sample's delta (sample-many-layers-rig.test.ts
// checks the job against the twin).

describe('additiveDeltaClip', () => {
  const clip = makeRig(4, 9, 5);
  const n = clip.curves.length;
  const reference = new Float32Array(4 * n);
  // The reference pose: key 3 of each curve (unit rotations).
  clip.curves.forEach((c, i) => reference.set((c.keys as { values: Float32Array }).values.subarray(12, 16), 4 * i));
  const counts = new Uint8Array(n).fill(1);

  it('rewrites rotation keys as ref⁻¹ ⊗ key and other keys as key − ref; curves of count 0 keep theirs', () => {
    counts[0] = 0;
    const deltas = additiveDeltaClip(clip, reference, counts)!;
    counts[0] = 1;
    expect(deltas.curves[0]).toBe(clip.curves[0]);
    clip.curves.forEach((c, i) => {
      if (i === 0) return;
      const v = (c.keys as { values: Float32Array }).values;
      const d = (deltas.curves[i]!.keys as { values: Float32Array }).values;
      const r = reference.subarray(4 * i, 4 * i + 4);
      for (let o = 0; o < v.length; o += 4) {
        const want = c.curveType === 'rotation' ? quatMultiply(quatInverse(r), v.subarray(o, o + 4)) : [0, 1, 2, 3].map((k) => v[o + k]! - r[k]!);
        want.forEach((x, k) => expect(d[o + k]).toBe(Math.fround(x)));
      }
      // The reference key itself becomes identity (rotations) or zero.
      expect(Array.from(d.subarray(12, 16)).map((x) => Math.round(x * 1e6) / 1e6 + 0)).toEqual(c.curveType === 'rotation' ? [0, 0, 0, 1] : [0, 0, 0, 0]);
    });
    expect(deltas.keyCount).toBe(clip.keyCount);
    expect(deltas.keyDuration).toBe(clip.keyDuration);
  });

  it('refuses cubic keys, a reference rotation that is not unit and dropped keys', () => {
    const cubic = clip.withCurves(clip.curves.map((c, i) => (i === 1 ? { ...c, keys: { encoding: 'cubic', times: Float32Array.of(0), values: new Float32Array(12) } } : c)));
    expect(additiveDeltaClip(cubic, reference, counts)).toBeNull();
    const long = reference.slice();
    long.set([0, 0, 0, 1.001], 4);
    expect(additiveDeltaClip(clip, long, counts)).toBeNull();
    const dropped = clip.withCurves([...clip.curves]);
    dropKeys(dropped);
    expect(additiveDeltaClip(dropped, reference, counts)).toBeNull();
  });

  it('refuses a rotation key far from unit length (|q| = 1.4e20: the kernel normalises such deltas per sample)', () => {
    const r = clip.curves.findIndex((c) => c.curveType === 'rotation');
    const far = clip.withCurves(clip.curves.map((c, i) => {
      if (i !== r) return c;
      const values = (c.keys as { values: Float32Array }).values.slice();
      values.set([1e20, 1e20, 0, 0], 4);
      return { ...c, keys: { ...c.keys, values } } as typeof c;
    }));
    expect(additiveDeltaClip(far, reference, counts)).toBeNull();
    // A key written with few digits (|q|² = 0.98) is near enough: its delta keeps its length, as in three.js.
    const near = clip.withCurves(clip.curves.map((c, i) => {
      if (i !== r) return c;
      const values = (c.keys as { values: Float32Array }).values.slice();
      values.set([0, 0, 0.7, 0.7], 4);
      return { ...c, keys: { ...c.keys, values } } as typeof c;
    }));
    expect(additiveDeltaClip(near, reference, counts)).not.toBeNull();
  });
});
