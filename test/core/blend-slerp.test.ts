import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { BlendOptions } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer, BlendJob, type BlendJobLayer } from '../../src/core/index.js';
import { slerp } from '../../src/reference/quat.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { angleDeg, expectWithinBudget, keyPair } from '../helpers/slerp-budget.js';

// The blend's slerps keep the slerp budget of the mixer and the samplers (test/helpers/slerp-budget.ts):
// each result within the budget and the issue-16 bound of the exact slerp of its inputs. The SIMD
// build slerps four rotations that share a weight at a time (`slerpGathered4`, `slerp4` in f32
// for small gaps), in the normal layers and in the additive deltas, so 64 rotations of one weight
// per draw run through that path as well as the one-at-a-time one. The planned path (masks of 0
// and 1) keeps groups of four through every layer (`slerpSoa4`: f32 for gaps up to 45°, else f64
// two lanes at a time, gaps over 120° halved lane by lane), chains of three layers included.

const CURVES = 64;
const types = Array<'rotation'>(CURVES).fill('rotation');

describe.each(BUILDS)('blend slerps (%s build)', (build) => {
  let core: AnimCore;
  let job: BlendJob;
  let buffers: AnimSampleBuffer[];
  beforeAll(async () => {
    core = await createCore(build);
    job = new BlendJob(core, types, new Float32Array(4 * CURVES), 2);
    buffers = [0, 1, 2, 3].map(() => new AnimSampleBuffer(core, types));
  });
  afterAll(() => {
    for (const b of buffers) b.dispose();
    job.dispose();
  });

  // 45°: the end of the groups' f32 slerp (quat.ts SOA_SMALL).
  const gaps = [
    [20, 1e-5],
    [45, 1e-5],
    [90, 1e-5],
    [180, 1e-3],
  ] as const;

  it.each(gaps)('blends two normal layers within the budget for key gaps up to %s°', (gap, bound) => {
    const [a, b, out] = buffers as [AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer];
    fc.assert(
      fc.property(
        fc.array(keyPair(gap), { minLength: CURVES, maxLength: CURVES }),
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.constantFrom<BlendOptions['rule']>('weighted', 'priority'),
        (pairs, w0, w1, rule) => {
          pairs.forEach(({ q0, q1 }, i) => {
            a.samples.set(q0, 4 * i);
            b.samples.set(q1, 4 * i);
          });
          a.counts.fill(1);
          b.counts.fill(1);
          // priority: layer 0 as is, layer 1 mixed in with its weight (kept within [0, 1]);
          // weighted, τ = 0: the running slerp's share w1 / (w0 + w1), both in float32.
          const weight1 = rule === 'priority' ? Math.fround(w1 / 2) : Math.fround(w1);
          const layers: BlendJobLayer[] = [
            { samples: a, weight: Math.fround(w0) },
            { samples: b, weight: weight1 },
          ];
          job.run(layers, out, { rule, rotation: 'slerp', threshold: 0 });
          const t = rule === 'priority' ? weight1 : Math.fround(weight1 / Math.fround(Math.fround(w0) + weight1));
          pairs.forEach(({ q0, q1 }, i) => expectWithinBudget(out.samples.subarray(4 * i, 4 * i + 4), q0, q1, t, bound));
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each(gaps)('chains three normal layers within the budget at each step for key gaps up to %s°', (gap) => {
    const [a, b, c, out] = buffers as [AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer];
    const job3 = new BlendJob(core, types, new Float32Array(4 * CURVES), 3);
    const mid = new AnimSampleBuffer(core, types);
    try {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(keyPair(gap), keyPair(gap)), { minLength: CURVES, maxLength: CURVES }),
          fc.tuple(fc.double({ min: 0.05, max: 2, noNaN: true }), fc.double({ min: 0.05, max: 2, noNaN: true }), fc.double({ min: 0.05, max: 2, noNaN: true })),
          (pairs, [w0, w1, w2]) => {
            // Layer c's key is q1 of a second pair: its gap to the first step's result is anything
            // up to 180°, and the bound is the one of that gap.
            pairs.forEach(([p, r], i) => {
              a.samples.set(p.q0, 4 * i);
              b.samples.set(p.q1, 4 * i);
              c.samples.set(r.q1, 4 * i);
            });
            for (const x of [a, b, c]) x.counts.fill(1);
            const weights = [w0, w1, w2].map(Math.fround) as [number, number, number];
            job3.run(weights.map((weight, k) => ({ samples: [a, b, c][k]!, weight })), out, { rule: 'weighted', rotation: 'slerp', threshold: 0 });
            // The second step from the first step's result as the kernel stores it (two layers).
            job.run([{ samples: a, weight: weights[0] }, { samples: b, weight: weights[1] }], mid, { rule: 'weighted', rotation: 'slerp', threshold: 0 });
            const total = Math.fround(weights[0] + weights[1]);
            const t = Math.fround(weights[2] / Math.fround(total + weights[2]));
            pairs.forEach((_, i) => {
              const q = mid.samples.slice(4 * i, 4 * i + 4);
              const r = c.samples.slice(4 * i, 4 * i + 4);
              expectWithinBudget(out.samples.subarray(4 * i, 4 * i + 4), q, r, t, angleDeg(q, r) <= 90 ? 1e-5 : 1e-3);
            });
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      mid.dispose();
      job3.dispose();
    }
  });

  it('hands lanes the four-at-a-time slerp does not take to the one-at-a-time one: keys not unit, zero keys, results near zero', () => {
    const [a, b, out] = buffers as [AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer];
    // Each key scaled by 1 (unit), 1.0004 or 0.9996 (|q|² within 1e-3 of 1: unit to the slerp, so
    // halved over 120° with the midpoint's 1 / √(2 + 2|cos θ|), as the twin does), 0.5 or 1.7 (not
    // unit: over 120° the exact formula), or 0 (zero key: identity when the result is shorter than
    // 1e-6); and q1 = −q0 (opposite keys at ½ meet at 0).
    const scale = fc.constantFrom(1, 1, 1, 1.0004, 0.9996, 0.5, 1.7, 0);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(keyPair(180), scale, scale, fc.boolean()), { minLength: CURVES, maxLength: CURVES }),
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        (draws, w0, w1) => {
          draws.forEach(([{ q0, q1 }, s0, s1, opposite], i) => {
            a.samples.set(q0.map((v) => v * s0), 4 * i);
            b.samples.set(opposite ? q0.map((v) => -v * s0) : q1.map((v) => v * s1), 4 * i);
          });
          a.counts.fill(1);
          b.counts.fill(1);
          const weights = [Math.fround(w0), Math.fround(w1)] as const;
          job.run([{ samples: a, weight: weights[0] }, { samples: b, weight: weights[1] }], out, { rule: 'weighted', rotation: 'slerp', threshold: 0 });
          const t = Math.fround(weights[1] / Math.fround(weights[0] + weights[1]));
          draws.forEach((_, i) => {
            const want = Float32Array.from(slerp(a.samples, 4 * i, b.samples, 4 * i, t));
            const got = out.samples.subarray(4 * i, 4 * i + 4);
            // Within rounding of the twin (unit halved gaps: the midpoint unrounded, see quat.ts).
            for (let k = 0; k < 4; k++) {
              if (!(Math.abs(got[k]! - want[k]!) <= 1e-6 * Math.max(1, Math.abs(want[k]!)))) {
                throw new Error(`curve ${i}: ${Array.from(got)} vs the twin's ${Array.from(want)} (keys ${Array.from(a.samples.subarray(4 * i, 4 * i + 4))}, ${Array.from(b.samples.subarray(4 * i, 4 * i + 4))}, t ${t})`);
              }
            }
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([20, 180])('ends a share of 1 exactly at the layer rotation, on its shortest arc (priority weight 1, additive weight 1), gaps up to %s°', (gap) => {
    // slerp(a, b, 1) = ±b (spec sequencer.md §3): the kernel stores b itself, its sign flipped where
    // the float64 dot of a and b is negative, for every gap (over 120° included) and either sign.
    const [a, b, reference, out] = buffers as [AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer];
    const identity = [0, 0, 0, 1];
    fc.assert(
      fc.property(fc.array(keyPair(gap), { minLength: CURVES, maxLength: CURVES }), fc.double({ min: 0.05, max: 2, noNaN: true }), (pairs, w0) => {
        pairs.forEach(({ q0, q1 }, i) => {
          a.samples.set(q0, 4 * i);
          b.samples.set(q1, 4 * i);
          reference.samples.set(identity, 4 * i);
        });
        for (const x of [a, b, reference]) x.counts.fill(1);
        // ±b component by component (=== : a zero's sign is not asked).
        const expectArc = (p: Float32Array, q: Float32Array, i: number): void => {
          const dot = (p[4 * i]! * q[4 * i]! + p[4 * i + 2]! * q[4 * i + 2]!) + (p[4 * i + 1]! * q[4 * i + 1]! + p[4 * i + 3]! * q[4 * i + 3]!);
          const want = Array.from(q.subarray(4 * i, 4 * i + 4), (v) => (dot < 0 ? -v : v));
          const got = Array.from(out.samples.subarray(4 * i, 4 * i + 4));
          if (!got.every((v, k) => v === want[k])) throw new Error(`curve ${i}: ${got} is not ${want} (a ${Array.from(p.subarray(4 * i, 4 * i + 4))})`);
        };
        job.run([{ samples: a, weight: Math.fround(w0) }, { samples: b, weight: 1 }], out, { rule: 'priority', rotation: 'slerp' });
        pairs.forEach((_, i) => expectArc(a.samples, b.samples, i));
        // On identity, an additive layer of weight 1 against the identity reference adds b itself (its w ≥ 0 arc).
        a.samples.fill(0);
        for (let i = 0; i < CURVES; i++) a.samples[4 * i + 3] = 1;
        for (const rule of ['weighted', 'priority'] as const) {
          job.run([{ samples: a, weight: 1 }, { samples: b, weight: 1, mode: 'additive', reference }], out, { rule, rotation: 'slerp' });
          pairs.forEach((_, i) => expectArc(a.samples, b.samples, i));
        }
      }),
      { numRuns: 40 },
    );
  });

  it.each(gaps)('adds additive deltas within the budget for deltas up to %s°', (gap, bound) => {
    const [base, sample, reference, out] = buffers as [AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer, AnimSampleBuffer];
    fc.assert(
      fc.property(fc.array(keyPair(gap), { minLength: CURVES, maxLength: CURVES }), fc.double({ min: 0, max: 1, noNaN: true }), (pairs, weight) => {
        // On identity, the result is slerp(identity, Δ, w) itself, Δ = reference⁻¹ ⊗ sample in
        // float64 rounded to float32 as the kernel stores it.
        const w = Math.fround(weight);
        const deltas = pairs.map(({ q0, q1 }, i) => {
          reference.samples.set(q0, 4 * i);
          sample.samples.set(q1, 4 * i);
          base.samples.set([0, 0, 0, 1], 4 * i);
          return Float32Array.from(inverseTimes(q0, q1));
        });
        for (const b of [base, sample, reference]) b.counts.fill(1);
        job.run(
          [
            { samples: base, weight: 1 },
            { samples: sample, weight: w, mode: 'additive', reference },
          ],
          out,
          { rule: 'weighted', rotation: 'slerp' },
        );
        const identity = Float32Array.of(0, 0, 0, 1);
        deltas.forEach((delta, i) => {
          if (w > 0) expectWithinBudget(out.samples.subarray(4 * i, 4 * i + 4), identity, delta, w, bound);
        });
      }),
      { numRuns: 60 },
    );
  });
});

/** a⁻¹ ⊗ b for unit-length float32 quaternions (x y z w), in float64. */
function inverseTimes(a: Float32Array, b: Float32Array): number[] {
  const n = a[0]! ** 2 + a[1]! ** 2 + a[2]! ** 2 + a[3]! ** 2;
  const [ax, ay, az, aw] = [-a[0]! / n, -a[1]! / n, -a[2]! / n, a[3]! / n];
  const [bx, by, bz, bw] = [b[0]!, b[1]!, b[2]!, b[3]!];
  return [ax * bw + aw * bx + ay * bz - az * by, ay * bw + aw * by + az * bx - ax * bz, az * bw + aw * bz + ax * by - ay * bx, aw * bw - ax * bx - ay * by - az * bz];
}
