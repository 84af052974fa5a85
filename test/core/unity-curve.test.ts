import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unityCurve, UnityWrapMode } from '../../src/anim/index.js';
import { evaluateUnityCurve, evaluateUnitySegment, evaluateUnityStep, interpolateUnitySegment } from '../../src/reference/index.js';

// Real-Unity values from agate-pris/intar `AnimationCurveTest.Unity.cs` (spec mrtk.md §5, §6.3, §6.6).
const identityLine = (pre: number, post: number) =>
  unityCurve({ time: [1, 2], value: [0, 1], inTangent: [1, 1], outTangent: [1, 1], weightedMode: [0, 0], preWrapMode: pre, postWrapMode: post });

describe('Unity AnimationCurve.Evaluate (reference)', () => {
  it('Hermite: 0.99218738 at 0.875 (§6.3)', () => {
    const c = unityCurve({
      time: [0.5, 1.25],
      value: [1.5, 0.25],
      inTangent: [1.5, 0.25],
      outTangent: [1.5, 0.25],
      weightedMode: [0, 0],
    });
    expect(evaluateUnityCurve(c, 0.875)).toBeCloseTo(0.99218738, 6);
  });

  it.each([
    ['Loop', UnityWrapMode.Loop],
    ['Default', UnityWrapMode.Default],
  ])('%s repeats (§5)', (_name, mode) => {
    const c = identityLine(mode, mode);
    expect(evaluateUnityCurve(c, -0.125)).toBeCloseTo(0.875, 6);
    expect(evaluateUnityCurve(c, 2.125)).toBeCloseTo(0.125, 6);
    expect(evaluateUnityCurve(c, 3.0)).toBeCloseTo(0, 6);
  });

  it('PingPong ping-pongs (§5)', () => {
    const c = identityLine(UnityWrapMode.PingPong, UnityWrapMode.PingPong);
    expect(evaluateUnityCurve(c, -0.125)).toBeCloseTo(0.875, 6);
    expect(evaluateUnityCurve(c, 0)).toBeCloseTo(1, 6);
    expect(evaluateUnityCurve(c, 2.125)).toBeCloseTo(0.875, 6);
    expect(evaluateUnityCurve(c, 3.0)).toBeCloseTo(0, 6);
  });

  it.each([
    ['Clamp', UnityWrapMode.Clamp],
    ['ClampForever', UnityWrapMode.ClampForever],
  ])('%s clamps (§5)', (_name, mode) => {
    const c = identityLine(mode, mode);
    expect(evaluateUnityCurve(c, -0.125)).toBe(0);
    expect(evaluateUnityCurve(c, 0)).toBe(0);
    expect(evaluateUnityCurve(c, 2.125)).toBe(1);
    expect(evaluateUnityCurve(c, 3.0)).toBe(1);
  });

  it('0 keys → 0 and 1 key → its value under every wrap mode (§6.6)', () => {
    for (const mode of [0, 1, 2, 4, 8]) {
      expect(evaluateUnityCurve(unityCurve({ time: [], value: [], preWrapMode: mode, postWrapMode: mode }), 0.3)).toBe(0);
      const one = unityCurve({ time: [1], value: [2.5], preWrapMode: mode, postWrapMode: mode });
      for (const t of [-3, 1, 7]) expect(evaluateUnityCurve(one, t)).toBe(2.5);
    }
  });

  it('zero-length curves clamp under every wrap mode (our decision; Unity gives NaN for Loop)', () => {
    for (const mode of [0, 2, 4]) {
      const c = unityCurve({ time: [1, 1], value: [3, 4], preWrapMode: mode, postWrapMode: mode });
      expect(evaluateUnityCurve(c, 0)).toBe(3);
      expect(evaluateUnityCurve(c, 1)).toBe(4);
      expect(evaluateUnityCurve(c, 2)).toBe(4);
    }
  });

  it('an interior key time uses the segment that starts there; infinite tangents step (§6.1, §6.2)', () => {
    const c = unityCurve({ time: [0, 1, 2], value: [0, 10, 20], outTangent: [Infinity, 0, 0], weightedMode: [0, 0, 0] });
    expect(evaluateUnityCurve(c, 0.99)).toBe(0);
    expect(evaluateUnityCurve(c, 1)).toBe(10);
  });

  it('weights 0/0 give a straight line whatever the tangents; 1/3 weights equal Hermite (§6.4)', () => {
    const line = unityCurve({ time: [2, 5], value: [1, 4], inTangent: [7, -3], outTangent: [7, -3], weightedMode: [3, 3] });
    const hermite = unityCurve({ time: [0, 1], value: [0, 1], inTangent: [2, -1], outTangent: [2, -1], weightedMode: [0, 0] });
    const third = unityCurve({
      time: [0, 1],
      value: [0, 1],
      inTangent: [2, -1],
      outTangent: [2, -1],
      inWeight: [1 / 3, 1 / 3],
      outWeight: [1 / 3, 1 / 3],
      weightedMode: [3, 3],
    });
    for (let s = 0; s <= 1; s += 1 / 64) {
      expect(interpolateUnitySegment(line, 0, 2 + 3 * s, 1)).toBeCloseTo(1 + 3 * s, 5);
      expect(interpolateUnitySegment(third, 0, s, 1)).toBeCloseTo(interpolateUnitySegment(hermite, 0, s, 1), 5);
    }
  });

  it('weights 1/1 with zero tangents are symmetric and monotone (§6.4)', () => {
    const c = unityCurve({ time: [0, 1], value: [0, 1], inWeight: [1, 1], outWeight: [1, 1] });
    expect(interpolateUnitySegment(c, 0, 0.5, 1)).toBeCloseTo(0.5, 6);
    let last = -1;
    for (let s = 0; s < 1; s += 1 / 128) {
      const y = interpolateUnitySegment(c, 0, s, 1);
      expect(y).toBeGreaterThanOrEqual(last - 1e-9);
      last = y;
    }
  });

  it('only k0 Out and k1 In bits decide weighting (§6.2)', () => {
    const unused = unityCurve({ time: [0, 1], value: [0, 1], inTangent: [1, 1], outTangent: [1, 1], inWeight: [0.9, 0.9], outWeight: [0.9, 0.9], weightedMode: [1, 2] });
    expect(evaluateUnityCurve(unused, 0.3)).toBeCloseTo(0.3, 6);
  });

  it('bool curves are exact steps tested > 0.5 (§6.8)', () => {
    const c = unityCurve({ time: [-5, 1, 2], value: [0, 1, 0], outWeight: [1e6, 1e6, 1e6] });
    expect(evaluateUnityStep(c, -10)).toBe(0);
    expect(evaluateUnityStep(c, 0.999)).toBe(0);
    expect(evaluateUnityStep(c, 1)).toBe(1);
    expect(evaluateUnityStep(c, 1.999)).toBe(1);
    expect(evaluateUnityStep(c, 2)).toBe(0);
    expect(evaluateUnityStep(unityCurve({ time: [], value: [] }), 0)).toBe(0);
  });

  it('the linear fast path gives the weighted Bézier values of MRTK keys (weights 0, mode Both, any finite tangents)', () => {
    const f = (min: number, max: number) => fc.double({ min, max, noNaN: true });
    fc.assert(
      fc.property(f(-100, 100), f(0.001, 10), f(-100, 100), f(-100, 100), f(-50, 50), f(-50, 50), f(0, 1), (t0, dx, v0, v1, outT, inT, s) => {
        const c = unityCurve({ time: [t0, t0 + dx], value: [v0, v1], inTangent: [0, inT], outTangent: [outT, 0] });
        const t = c.time[0]! + s * (c.time[1]! - c.time[0]!);
        if (t >= c.time[1]!) return;
        const fast = evaluateUnitySegment(c, 0, t, 1);
        expect(Math.abs(fast - interpolateUnitySegment(c, 0, t, 1))).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(fast)));
      }),
      { numRuns: 2000 },
    );
  });
});
