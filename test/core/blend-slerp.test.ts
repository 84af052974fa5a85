import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { BlendOptions } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer, BlendJob, type BlendJobLayer } from '../../src/core/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { expectWithinBudget, keyPair } from '../helpers/slerp-budget.js';

// The blend's slerps keep the slerp budget of the mixer and the samplers (test/helpers/slerp-budget.ts):
// each result within the budget and the issue-16 bound of the exact slerp of its inputs. The SIMD
// build slerps four rotations that share a weight at a time (`slerpGathered4`, `slerp4` in f32
// for small gaps), in the normal layers and in the additive deltas, so 64 rotations of one weight
// per draw run through that path as well as the one-at-a-time one.

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

  const gaps = [
    [20, 1e-5],
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
