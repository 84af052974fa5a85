import fc from 'fast-check';
import type { ReduceTrack } from '../../src/anim/index.js';

const f = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** Strictly increasing float32 times from 0: uniform steps or random ones. */
function times(n: number, steps: number[], uniform: boolean): Float32Array {
  const out = new Float32Array(n);
  let t = 0;
  for (let k = 1; k < n; k++) {
    t += uniform ? steps[0]! : steps[k]!;
    out[k] = t; // steps ≥ 1e-3 and t < 25: float32 keeps them increasing
  }
  return out;
}

/** Rotation keys: a walk of turns about a drifting axis (small, large, or a steady spin), unit and sign-continuous in float32. */
function rotationKeys(n: number, turn: number, axis: number[], wobble: number[], noise: number[]): Float32Array {
  const out = new Float32Array(4 * n);
  let q = [0, 0, 0, 1];
  for (let k = 0; k < n; k++) {
    if (k > 0) {
      let a = [axis[0]! + wobble[k % wobble.length]!, axis[1]!, axis[2]! - wobble[(k + 1) % wobble.length]!];
      let len = Math.hypot(a[0]!, a[1]!, a[2]!);
      if (len < 1e-3) [a, len] = [[0, 1, 0], 1]; // no usable axis: turn about y
      const angle = turn + noise[k % noise.length]!;
      const s = Math.sin(angle / 2) / len;
      const r = [a[0]! * s, a[1]! * s, a[2]! * s, Math.cos(angle / 2)];
      q = [
        r[3]! * q[0]! + r[0]! * q[3]! + r[1]! * q[2]! - r[2]! * q[1]!,
        r[3]! * q[1]! - r[0]! * q[2]! + r[1]! * q[3]! + r[2]! * q[0]!,
        r[3]! * q[2]! + r[0]! * q[1]! - r[1]! * q[0]! + r[2]! * q[3]!,
        r[3]! * q[3]! - r[0]! * q[0]! - r[1]! * q[1]! - r[2]! * q[2]!,
      ];
    }
    const len = Math.hypot(...q);
    let v = q.map((x) => x / len);
    if (k > 0 && v[0]! * out[4 * k - 4]! + v[1]! * out[4 * k - 3]! + v[2]! * out[4 * k - 2]! + v[3]! * out[4 * k - 1]! < 0) v = v.map((x) => -x);
    out.set(v, 4 * k);
  }
  return out;
}

/** Vector keys: a sum of sines plus noise per component (w 0 for three-component curves). */
function vectorKeys(n: number, t: Float32Array, amplitude: number[], frequency: number[], noise: number[], lanes: number): Float32Array {
  const out = new Float32Array(4 * n);
  for (let k = 0; k < n; k++) {
    for (let c = 0; c < lanes; c++) out[4 * k + c] = amplitude[c]! * Math.sin(frequency[c]! * t[k]! + c) + noise[(k + c) % noise.length]!;
  }
  return out;
}

/** The shape of one track's keys, shared by single tracks and groups. */
const trackFields = {
  rotation: fc.boolean(),
  step: fc.boolean(),
  tolerance: fc.constantFrom(0, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 0.5, 3),
  turn: fc.constantFrom(0, 0.001, 0.02, 0.2, 1, 2.5),
  axis: fc.array(f(-1, 1), { minLength: 3, maxLength: 3 }),
  wobble: fc.array(f(-0.3, 0.3), { minLength: 1, maxLength: 8 }),
  noiseScale: fc.constantFrom(0, 1e-6, 1e-3, 0.1),
  noise: fc.array(f(-1, 1), { minLength: 1, maxLength: 16 }),
  amplitude: fc.array(f(-10, 10), { minLength: 4, maxLength: 4 }),
  frequency: fc.array(f(0, 20), { minLength: 4, maxLength: 4 }),
  lanes: fc.constantFrom(1, 3, 4),
};
const trackSpec = fc.record(trackFields);

/**
 * Random groups of tracks sharing their times (`withPrevious` on every member after the first),
 * as the morph target weights of one glTF sampler are: 2–4 members of any kind.
 */
export const arbitraryReduceGroup: fc.Arbitrary<ReduceTrack[]> = fc
  .record({
    n: fc.integer({ min: 1, max: 80 }),
    uniform: fc.boolean(),
    steps: fc.array(f(1e-3, 0.2), { minLength: 81, maxLength: 81 }),
    members: fc.array(trackSpec, { minLength: 2, maxLength: 4 }),
  })
  .map((g) => {
    const t = times(g.n, g.steps, g.uniform);
    return g.members.map((s, i) => {
      const noise = s.noise.map((x) => x * s.noiseScale);
      const values = s.rotation ? rotationKeys(g.n, s.turn, s.axis, s.wobble, noise) : vectorKeys(g.n, t, s.amplitude, s.frequency, noise, s.lanes);
      return { times: t, values, rotation: s.rotation, step: g.members[0]!.step, tolerance: s.tolerance, withPrevious: i > 0 };
    });
  });

/** Random `ReduceTrack`s: 1–120 keys, rotations or vectors, lerp or step, tolerances from 0 to large, smooth or noisy or constant. */
export const arbitraryReduceTrack: fc.Arbitrary<ReduceTrack> = fc
  .record({
    n: fc.integer({ min: 1, max: 120 }),
    uniform: fc.boolean(),
    steps: fc.array(f(1e-3, 0.2), { minLength: 121, maxLength: 121 }),
    ...trackFields,
  })
  .map((s) => {
    const t = times(s.n, s.steps, s.uniform);
    const noise = s.noise.map((x) => x * s.noiseScale);
    const values = s.rotation ? rotationKeys(s.n, s.turn, s.axis, s.wobble, noise) : vectorKeys(s.n, t, s.amplitude, s.frequency, noise, s.lanes);
    return { times: t, values, rotation: s.rotation, step: s.step, tolerance: s.tolerance };
  });
