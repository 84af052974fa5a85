// Issue 13 item 4: zero-length (and overflowing) rotation keys. A blended rotation shorter than
// 1e-6 is identity (assembly/quat.ts), in both builds and the reference, under nlerp and slerp,
// in the sampler and the mixer; no finite key ever samples as NaN or Inf.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, InfinityType } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { referenceMix, referenceSample } from '../../src/reference/index.js';
import { expectCloseRelative, sampleArrays } from '../helpers/compare.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryKeyedClip, arbitraryUniformClip } from '../helpers/random-clip.js';

/** What a broken rotation key is replaced with: exact zero, rounding noise, or overflowing |q|². */
const BROKEN_KEYS = [
  [0, 0, 0, 0],
  [-0, 0, -0, 0],
  [1e-9, -1e-9, 0, 1e-10],
  [3e-39, 0, 0, 0], // subnormal
  [1e30, 0, 0, 0],
  [2e19, -3e19, 1e19, 2e19],
] as const;

/** `clip` with the rotation keys picked by `pick` (key index → broken key or undefined) replaced. */
function breakRotations(clip: AnimClip, pick: (curve: number, key: number) => readonly number[] | undefined): AnimClip {
  const curves = clip.curves.map((c, i): AnimCurve => {
    if (c.curveType !== 'rotation' || (c.keys.encoding !== 'uniform' && c.keys.encoding !== 'keyed')) return c;
    const values = c.keys.values.slice();
    for (let k = 0; 4 * k < values.length; k++) {
      const broken = pick(i, k);
      if (broken) values.set(broken, 4 * k);
    }
    return { ...c, keys: { ...c.keys, values } };
  });
  return new AnimClip({
    name: clip.name,
    curves,
    keyCount: clip.keyCount || undefined,
    keyDuration: clip.keyDuration || undefined,
    duration: clip.duration,
    preInfinity: clip.preInfinity,
    postInfinity: clip.postInfinity,
  });
}

const brokenClip = (arbitraryClip: fc.Arbitrary<AnimClip>) =>
  fc
    .tuple(arbitraryClip, fc.array(fc.integer({ min: -1, max: BROKEN_KEYS.length - 1 }), { minLength: 64, maxLength: 64 }))
    .map(([clip, choice]) => breakRotations(clip, (c, k) => BROKEN_KEYS[choice[(c * 8 + k) % 64]!]));

/** Sample times: random, plus every key time of the clip (w = 0 exactly, where zero keys used to give NaN). */
function sampleTimes(clip: AnimClip, random: number[]): number[] {
  const times = [...random];
  for (let k = 0; k <= clip.keyCount; k++) times.push(k * clip.keyDuration);
  for (const c of clip.curves) if (c.keys.encoding === 'keyed') times.push(...c.keys.times);
  return times;
}

function expectFinite(values: Float32Array, what: string): void {
  const i = values.findIndex((v) => !Number.isFinite(v));
  if (i >= 0) throw new Error(`${what}: value ${i} is ${values[i]}`);
}

describe.each(BUILDS)('%s build: zero-length rotation keys', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  function sampleAt(clip: AnimClip, time: number, rotation: 'nlerp' | 'slerp'): Float32Array {
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    const buf = core.createSampleBuffer(clip);
    try {
      core.sampler.sample(clip, time, buf, { rotation });
      return buf.samples.slice();
    } finally {
      buf.dispose();
      resource.dispose();
    }
  }

  /** A 3-key uniform rotation clip (1 s apart) with the given keys. */
  const threeKeys = (keys: number[][]) =>
    new AnimClip({
      name: 'q',
      keyCount: keys.length,
      keyDuration: 1,
      postInfinity: InfinityType.Constant,
      curves: [{ curveType: 'rotation', active: true, target: { joint: 'j', property: 'rotation' }, keys: { encoding: 'uniform', values: Float32Array.from(keys.flat()) } }],
    });
  const Y90 = [0, Math.SQRT1_2, 0, Math.SQRT1_2];

  it.each(['nlerp', 'slerp'] as const)('%s: a zero key samples as identity at its time and as its neighbour in between', (rotation) => {
    const clip = threeKeys([Y90, [0, 0, 0, 0], Y90]);
    expect(Array.from(sampleAt(clip, 1, rotation))).toEqual([0, 0, 0, 1]);
    if (rotation === 'nlerp') {
      for (const t of [0.25, 0.999, 1.001, 1.75]) {
        const s = Array.from(sampleAt(clip, t, rotation));
        s.forEach((v, i) => expect(v).toBeCloseTo(Y90[i]!, 6));
      }
    }
  });

  it('nlerp: two zero keys blend to identity; an overflowing |q|² is normalised, not zeroed', () => {
    expect(Array.from(sampleAt(threeKeys([[0, 0, 0, 0], [1e-8, 0, 0, 0], Y90]), 0.5, 'nlerp'))).toEqual([0, 0, 0, 1]);
    const s = sampleAt(threeKeys([[1e30, 0, 0, 0], [1e30, 0, 0, 0], Y90]), 0.5, 'nlerp');
    expect(Array.from(s)).toEqual([1, 0, 0, 0]);
  });

  it.each([
    ['uniform', arbitraryUniformClip],
    ['keyed', arbitraryKeyedClip],
  ] as const)('random %s clips with zero, tiny and huge rotation keys: finite samples equal to the reference', (_, arbitraryClip) => {
    fc.assert(
      fc.property(
        brokenClip(arbitraryClip),
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { maxLength: 6 }),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        (clip, random, rotation) => {
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          const buf = core.createSampleBuffer(clip);
          const ref = sampleArrays(clip.curves.length);
          try {
            for (const t of sampleTimes(clip, random)) {
              core.sampler.sample(clip, t, buf, { rotation });
              referenceSample(clip, t, ref, { rotation });
              expectFinite(buf.samples, `${rotation} at t = ${t}`);
              expectCloseRelative(buf.samples, ref.samples, 1e-5);
            }
          } finally {
            buf.dispose();
            resource.dispose();
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('mixing zero and finite rotation samples gives finite rotations equal to the reference', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BROKEN_KEYS),
        fc.constantFrom([0, 0, 0, 0], Y90, [0, 0, 0, 1e-8]),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
        (qa, qb, weight, rotation) => {
          const clip = threeKeys([[...qa], [...qb], [...qb]]);
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          core.load(resource);
          const [a, b, out] = [0, 1, 2].map(() => core.createSampleBuffer(clip));
          const [ra, rb, rout] = [sampleArrays(1), sampleArrays(1), sampleArrays(1)];
          try {
            for (const [buf, ref, q] of [[a, ra, qa], [b, rb, qb]] as const) {
              (buf as { samples: Float32Array }).samples.set(q);
              (buf as { counts: Uint8Array }).counts[0] = 1;
              ref.samples.set(q);
              ref.counts[0] = 1;
            }
            core.mixer.mix(a!, b!, weight, out!, { rotation });
            referenceMix(['rotation'], ra, rb, weight, rout, { rotation });
            expectFinite(out!.samples, `${rotation} mix`);
            expectCloseRelative(out!.samples, rout.samples, 1e-5);
          } finally {
            for (const x of [a, b, out]) x!.dispose();
            resource.dispose();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
