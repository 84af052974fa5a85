import { describe, expect, it } from 'vitest';
import type { BlendLayer, CurveType, SampleArrays } from '../../src/anim/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceBlend } from '../../src/reference/index.js';
import { axisAngle, expectSameRotation, qmul } from './helpers.js';

// Expected values are worked out by hand in the comments (or with the few lines of quaternion
// algebra in helpers.ts), never by calling the code under test.

const types: CurveType[] = ['translation', 'rotation'];
/** Rest: translation (10, 20, 30, 0), rotation identity. */
const rest = Float32Array.of(10, 20, 30, 0, 0, 0, 0, 1);

function buf(t: number[] | null, q: number[] | null): SampleArrays {
  return {
    samples: Float32Array.from([...(t ?? [0, 0, 0, 0]), ...(q ?? [0, 0, 0, 1])]),
    counts: Uint8Array.of(t ? 1 : 0, q ? 1 : 0),
  };
}

function run(layers: BlendLayer[], options: Parameters<typeof referenceBlend>[4]): SampleArrays {
  const out: SampleArrays = { samples: new Float32Array(8), counts: new Uint8Array(2) };
  referenceBlend(types, rest, layers, out, options);
  return out;
}

const T = (o: SampleArrays) => Array.from(o.samples.subarray(0, 4));
const Q = (o: SampleArrays) => o.samples.subarray(4, 8);
const z90 = axisAngle([0, 0, 1], 90);

describe('priority rule (Nebula3)', () => {
  it('takes the first active layer as is and mixes the next with its weight; counts add up', () => {
    // (1,2,3) then (3,6,9) with share 0.25: 1 + 0.25·2 = 1.5, 2 + 0.25·4 = 3, 3 + 0.25·6 = 4.5
    const o = run([
      { samples: buf([1, 2, 3, 0], [0, 0, 0, 1]), weight: 0.1 },
      { samples: buf([3, 6, 9, 0], z90), weight: 0.25 },
    ], { rule: 'priority' });
    expect(T(o)).toEqual([1.5, 3, 4.5, 0]);
    // identity → 90° about z at 0.25 along the arc: 22.5° (slerp)
    expectSameRotation(run([
      { samples: buf([1, 2, 3, 0], [0, 0, 0, 1]), weight: 0.1 },
      { samples: buf([3, 6, 9, 0], z90), weight: 0.25 },
    ], { rule: 'priority', rotation: 'slerp' }).samples.subarray(4), axisAngle([0, 0, 1], 22.5));
    expect(Array.from(o.counts)).toEqual([2, 2]);
  });

  it('shows a lone fading layer at full weight and ignores a partial mask on the first layer', () => {
    const o = run([{ samples: buf([4, 4, 4, 0], null), weight: 0.1, mask: Float32Array.of(0.5, 0.5) }], {});
    expect(T(o)).toEqual([4, 4, 4, 0]);
    expect(Array.from(o.counts)).toEqual([1, 0]);
    // the rotation curve is inactive in every layer: rest value, count 0
    expect(Array.from(Q(o))).toEqual([0, 0, 0, 1]);
  });

  it('treats a mask weight of 0 as inactive and multiplies later shares by the mask', () => {
    // layer 0 masked out on translation → layer 1 is first there (as is: 8); layer 2 mixes with 1 · 0.5
    const o = run([
      { samples: buf([100, 0, 0, 0], null), weight: 1, mask: Float32Array.of(0, 1) },
      { samples: buf([8, 0, 0, 0], null), weight: 0.3 },
      { samples: buf([16, 0, 0, 0], null), weight: 1, mask: Float32Array.of(0.5, 1) },
    ], {});
    expect(T(o)[0]).toBe(12); // 8 + 0.5 · (16 − 8)
    expect(o.counts[0]).toBe(2);
  });

  it('nlerps along the shortest arc whatever the sign of the incoming quaternion', () => {
    const minus = z90.map((v) => -v);
    const o = run([
      { samples: buf(null, [0, 0, 0, 1]), weight: 1 },
      { samples: buf(null, minus), weight: 0.5 },
    ], { rotation: 'nlerp' });
    // halfway between identity and 90° about z: 45° (nlerp at 0.5 is exact)
    expectSameRotation(Q(o), axisAngle([0, 0, 1], 45));
  });
});

describe('weighted rule (ozz / three.js)', () => {
  it('fills with the rest pose up to τ and averages linear values', () => {
    // weights 0.25 and 0.25 on x = 2 and 4, rest 10, τ = 1: (0.5 + 1 + 0.5 · 10) / 1 = 6.5
    const layers: BlendLayer[] = [
      { samples: buf([2, 0, 0, 0], null), weight: 0.25 },
      { samples: buf([4, 0, 0, 0], null), weight: 0.25 },
    ];
    const o = run(layers, { rule: 'weighted' });
    expect(T(o)).toEqual([6.5, 10, 15, 0]); // y: 0.5 · 20, z: 0.5 · 30
    expect(o.counts[0]).toBe(2);
    // τ = 0: the plain weighted mean (0.5 + 1) / 0.5 = 3
    expect(T(run(layers, { rule: 'weighted', threshold: 0 }))[0]).toBe(3);
    // W = 0.5 = τ: no fill
    expect(T(run(layers, { rule: 'weighted', threshold: 0.5 }))[0]).toBe(3);
    // W > τ: weights above τ normalise (2·2 + 4·2) / 4 = 3
    expect(T(run([{ ...layers[0]!, weight: 2 }, { ...layers[1]!, weight: 2 }], { rule: 'weighted' }))[0]).toBe(3);
  });

  it('skips layers of weight 0 and gives the rest pose with count 0 when W = 0', () => {
    const o = run([{ samples: buf([2, 0, 0, 0], z90), weight: 0 }], { rule: 'weighted' });
    expect(T(o)).toEqual([10, 20, 30, 0]);
    expect(Array.from(Q(o))).toEqual([0, 0, 0, 1]);
    expect(Array.from(o.counts)).toEqual([0, 0]);
    // τ = 0 and W = 0: undefined, rest value, count 0
    const u = run([{ samples: buf([2, 0, 0, 0], null), weight: 0 }], { rule: 'weighted', threshold: 0 });
    expect(T(u)).toEqual([10, 20, 30, 0]);
  });

  it('nlerp: normalised weighted sum; slerp: three.js running slerp', () => {
    const layers: BlendLayer[] = [
      { samples: buf(null, [0, 0, 0, 1]), weight: 0.25 },
      { samples: buf(null, z90.map((v) => -v)), weight: 0.75 },
    ];
    // nlerp: 0.25·(0,0,0,1) + 0.75·(0,0,s,s), s = √½ → (0, 0, 0.75s, 0.25 + 0.75s), normalised
    const s = Math.SQRT1_2;
    const len = Math.hypot(0.75 * s, 0.25 + 0.75 * s);
    expectSameRotation(Q(run(layers, { rule: 'weighted', rotation: 'nlerp' })), [0, 0, (0.75 * s) / len, (0.25 + 0.75 * s) / len]);
    // slerp: acc = identity, then slerp towards 90° by 0.75 / 1 → 67.5°
    expectSameRotation(Q(run(layers, { rule: 'weighted', rotation: 'slerp' })), axisAngle([0, 0, 1], 67.5));
  });

  it('slerps the running result towards rest by (τ − W) / τ', () => {
    // one layer at 90° with w = 0.5, τ = 1: slerp(90°, identity, 0.5) = 45°
    const one: BlendLayer[] = [{ samples: buf(null, z90), weight: 0.5 }];
    expectSameRotation(Q(run(one, { rule: 'weighted', rotation: 'slerp' })), axisAngle([0, 0, 1], 45));
    // τ = 2: slerp(90°, identity, 1.5 / 2) = 22.5°
    expectSameRotation(Q(run(one, { rule: 'weighted', rotation: 'slerp', threshold: 2 })), axisAngle([0, 0, 1], 22.5));
    // nlerp, τ = 1: normalize(0.5·q + 0.5·identity) = 45° too
    expectSameRotation(Q(run(one, { rule: 'weighted', rotation: 'nlerp' })), axisAngle([0, 0, 1], 45));
  });

  it('multiplies weights by the mask (a mask of 0 skips the layer there)', () => {
    // x: w = 1 · 0.5 on 2 → (1 + 0.5 · 10) / 1 = 6; rotation: mask 0 → rest fills, count 0
    const o = run([{ samples: buf([2, 0, 0, 0], z90), weight: 1, mask: Float32Array.of(0.5, 0) }], { rule: 'weighted' });
    expect(T(o)[0]).toBe(6);
    expect(Array.from(o.counts)).toEqual([1, 0]);
    expect(Array.from(Q(o))).toEqual([0, 0, 0, 1]);
  });
});

describe('additive layers', () => {
  const x60 = axisAngle([1, 0, 0], 60);
  const x20 = axisAngle([1, 0, 0], 20);
  const additive = (weight: number, mask?: Float32Array): BlendLayer => ({
    samples: buf([5, 1, 0, 0], x60),
    reference: buf([2, 1, 0, 0], x20),
    weight,
    mode: 'additive',
    ...(mask ? { mask } : {}),
  });

  for (const rule of ['priority', 'weighted'] as const) {
    for (const rotation of ['nlerp', 'slerp'] as const) {
      it(`adds w·(v − v_ref) and q ⊗ interp(identity, q_ref⁻¹ q, w) on top of ${rule} (${rotation})`, () => {
        const o = run([{ samples: buf([1, 0, 0, 0], z90), weight: 1 }, additive(0.5)], { rule, rotation });
        // x: 1 + 0.5 · (5 − 2) = 2.5; y: 0 + 0.5 · 0 = 0
        expect(T(o)).toEqual([2.5, 0, 0, 0]);
        // Δ = 40° about x; half of it (slerp: exactly 20°)
        const expected = qmul(z90, axisAngle([1, 0, 0], 20));
        if (rotation === 'slerp') expectSameRotation(Q(o), expected);
        else {
          // nlerp from identity to Δ at 0.5 is exactly the half angle too
          expectSameRotation(Q(o), expected, 1e-6);
        }
        expect(Array.from(o.counts)).toEqual([1, 1]); // additive layers leave counts alone
      });
    }
  }

  it('applies in list order after the normal layers, with w = weight × mask, only where the result is defined', () => {
    // additive listed first still comes after the normal layer; mask 0.5 halves it: 1 + 0.25 · 3
    const o = run([additive(0.5, Float32Array.of(0.5, 0)), { samples: buf([1, 0, 0, 0], null), weight: 1 }], { rule: 'priority' });
    expect(T(o)[0]).toBe(1.75);
    // the rotation curve is undefined under priority (no normal layer animates it): rest, count 0
    expect(Array.from(Q(o))).toEqual([0, 0, 0, 1]);
    expect(o.counts[1]).toBe(0);
    // under weighted with τ > 0 the rest pose defines it, and the additive applies on top of rest
    const w = run([{ samples: buf([1, 0, 0, 0], null), weight: 1 }, additive(1)], { rule: 'weighted', rotation: 'slerp' });
    expectSameRotation(Q(w), axisAngle([1, 0, 0], 40));
    expect(w.counts[1]).toBe(0);
  });
});

describe('argument checks', () => {
  it('refuses negative weights, masks outside [0, 1], a missing reference and a negative τ', () => {
    const l = { samples: buf([1, 0, 0, 0], null), weight: 1 };
    expect(() => run([{ ...l, weight: -1 }], {})).toThrow(UsageError);
    expect(() => run([{ ...l, mask: Float32Array.of(1.5, 0) }], {})).toThrow(/outside \[0, 1\]/);
    expect(() => run([{ ...l, mode: 'additive' }], {})).toThrow(/reference/);
    expect(() => run([l], { rule: 'weighted', threshold: -1 })).toThrow(/threshold/);
  });
});
