import type { SampleArrays } from '../../src/anim/index.js';

/**
 * Throws unless every value of `actual` is within `tol` of `expected`, relative to the expected
 * magnitude when it exceeds 1 (f32 kernels against a float64 reference).
 */
export function expectCloseRelative(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-5): void {
  for (let i = 0; i < expected.length; i++) {
    const scale = Math.max(1, Math.abs(expected[i]!));
    if (!(Math.abs(actual[i]! - expected[i]!) <= tol * scale)) {
      throw new Error(`index ${i}: wasm ${actual[i]} vs reference ${expected[i]}`);
    }
  }
}

/** Plain sample arrays for `n` curves (what the reference samplers write). */
export function sampleArrays(n: number): SampleArrays {
  return { samples: new Float32Array(4 * n), counts: new Uint8Array(n) };
}
