import { describe, expect, it } from 'vitest';
import { SharedTimes } from '../../src/export/shared-times.js';

describe('SharedTimes', () => {
  it('finds the value added for equal times (another array of the same values), not for times that differ only inside', () => {
    const times = new SharedTimes<number>();
    const a = Float32Array.of(0, 0.5, 1, 1.5);
    expect(times.find(a)).toBeUndefined();
    times.add(a, 7);
    expect(times.find(Float32Array.of(0, 0.5, 1, 1.5))).toBe(7);
    // Same length, second and last time (one lookup key), different third: a value of its own.
    const b = Float32Array.of(0, 0.5, 1.25, 1.5);
    expect(times.find(b)).toBeUndefined();
    times.add(b, 9);
    expect(times.find(b)).toBe(9);
    expect(times.find(a)).toBe(7);
    expect(times.get(Float32Array.of(0, 0.5, 1.25, 1.5), () => 11)).toBe(9);
    expect(times.get(Float32Array.of(0, 1), () => 11)).toBe(11);
    expect(times.find(Float32Array.of(0, 1))).toBe(11);
  });
});
