import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindJoints, type Joint, Skeleton, skeletonInverseBindMatrices } from '../../src/anim/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceLocalToModel } from '../../src/reference/index.js';

const rest = (x: number): Joint['rest'] => ({ translation: [x, 1, 0], rotation: [0, Math.sin(x / 4), 0, Math.cos(x / 4)], scale: [1, 1 + x / 10, 1] });

/** A random forest of `n` joints listed in a random order: parents of the permuted joints and the permutation. */
const permutedForest = fc.integer({ min: 1, max: 24 }).chain((n) =>
  fc.tuple(
    fc.tuple(...Array.from({ length: n }, (_, i) => fc.integer({ min: -1, max: i - 1 }))),
    fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n }),
  ),
);

describe('Skeleton', () => {
  it('orders parents before children, keeps index order when it already holds, and composes the same matrices in any listing order', () => {
    fc.assert(
      fc.property(permutedForest, ([parents, perm]) => {
        const n = parents.length;
        const ordered = new Skeleton(parents.map((p, i) => ({ name: `j${i}`, parent: p, rest: rest(i) })));
        expect(Array.from(ordered.order)).toEqual(Array.from({ length: n }, (_, i) => i));
        expect(ordered.inIndexOrder).toBe(true);
        // perm[k] = the ordered joint listed at k.
        const at = new Array<number>(n);
        perm.forEach((j, k) => (at[j] = k));
        const listed = new Skeleton(perm.map((j) => ({ name: `j${j}`, parent: parents[j]! < 0 ? -1 : at[parents[j]!]!, rest: rest(j) })));
        const place = new Array<number>(n);
        listed.order.forEach((j, k) => (place[j] = k));
        listed.joints.forEach((joint, i) => {
          if (joint.parent >= 0) expect(place[joint.parent]!).toBeLessThan(place[i]!);
        });
        expect([...listed.order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
        const none = { samples: new Float32Array(0), counts: new Uint8Array(0) };
        const a = new Float32Array(16 * n);
        const b = new Float32Array(16 * n);
        referenceLocalToModel(none, bindJoints([], ordered), a);
        referenceLocalToModel(none, bindJoints([], listed), b);
        perm.forEach((j, k) => expect(Array.from(b.subarray(16 * k, 16 * k + 16))).toEqual(Array.from(a.subarray(16 * j, 16 * j + 16))));
      }),
      { numRuns: 200 },
    );
  });

  it('pulls a parent listed after its child forward, and refuses cycles and bad parents', () => {
    const s = new Skeleton([
      { name: 'c', parent: 2, rest: rest(0) },
      { name: 'r', parent: -1, rest: rest(1) },
      { name: 'p', parent: 1, rest: rest(2) },
    ]);
    expect(Array.from(s.order)).toEqual([1, 2, 0]);
    expect(() => new Skeleton([{ name: 'a', parent: 1, rest: rest(0) }, { name: 'b', parent: 0, rest: rest(1) }])).toThrow(/own ancestor/);
    expect(() => new Skeleton([{ name: 'a', parent: 0, rest: rest(0) }])).toThrow(UsageError);
    expect(() => new Skeleton([{ name: 'a', parent: 3, rest: rest(0) }])).toThrow(UsageError);
    expect(() => new Skeleton([{ name: 'a', parent: -1, rest: rest(0) }], [{ name: 's', joints: Uint32Array.of(1), inverseBindMatrices: new Float32Array(16), skeleton: -1 }])).toThrow(/not a joint/);
    expect(() => new Skeleton([{ name: 'a', parent: -1, rest: rest(0) }], [{ name: 's', joints: Uint32Array.of(0), inverseBindMatrices: new Float32Array(15), skeleton: -1 }])).toThrow(/16 × 1/);
  });

  it('spreads a skin’s inverse bind matrices over the skeleton, identity elsewhere', () => {
    const ibm = Float32Array.from({ length: 16 }, (_, i) => i + 1);
    const out = skeletonInverseBindMatrices({ name: 's', joints: Uint32Array.of(2), inverseBindMatrices: ibm, skeleton: -1 }, 3);
    expect(Array.from(out.subarray(32, 48))).toEqual(Array.from(ibm));
    expect(Array.from(out.subarray(0, 16))).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });
});
