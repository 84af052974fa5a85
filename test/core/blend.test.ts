import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlendMode, BlendOptions, CurveType, SampleArrays } from '../../src/anim/index.js';
import { type AnimCore, AnimSampleBuffer, BlendJob, BlendMask } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceBlend } from '../../src/reference/index.js';
import { BUILDS, createCore } from '../helpers/core.js';

// Differential tests of the blend kernel (both builds) against its twin `referenceBlend` over
// random layer sets: counts, masks of 0, 1 and between, all-inactive curves, W < τ, W = 0, τ = 0,
// additive layers on both rules, quaternions of either sign.

interface LayerSpec {
  samples: number[];
  counts: number[];
  weight: number;
  mask: number[] | null;
  mode: BlendMode;
  reference: number[];
  referenceCounts: number[];
}
interface Case {
  types: CurveType[];
  rest: number[];
  layers: LayerSpec[];
  options: BlendOptions;
}

const weight = fc.oneof(fc.constantFrom(0, 0.25, 0.5, 1, 1.5), fc.double({ min: 0, max: 2, noNaN: true }));
const maskValue = fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true }));
const unit = fc.double({ min: -1, max: 1, noNaN: true });
/**
 * A unit quaternion of either sign (shortest-arc tests see both), from an axis and an angle in
 * [0.1, 3] rad: exactly orthogonal pairs (dot = ±0, where the shortest arc is a coin toss that
 * float32 and float64 may call differently) stay out of the draw.
 */
const quat = fc
  .tuple(unit, unit, unit, fc.double({ min: 0.1, max: 3, noNaN: true }), fc.boolean())
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
  .map(([x, y, z, angle, negate]) => {
    const s = Math.sin(angle / 2) / Math.hypot(x, y, z);
    const q = [x * s, y * s, z * s, Math.cos(angle / 2)];
    return negate ? q.map((v) => -v) : q;
  });
const vec = fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom(0, 1));

const blendCaseOf = (curveTypes: fc.Arbitrary<CurveType[]>, mask: fc.Arbitrary<number>, count: fc.Arbitrary<number>): fc.Arbitrary<Case> => curveTypes
  .chain((types) => {
    const n = types.length;
    const pose = fc.tuple(...types.map((t) => (t === 'rotation' ? quat : vec))).map((vs) => vs.flat());
    const counts = fc.array(count, { minLength: n, maxLength: n });
    const layer: fc.Arbitrary<LayerSpec> = fc.record({
      samples: pose,
      counts,
      weight,
      mask: fc.option(fc.array(mask, { minLength: n, maxLength: n }), { nil: null }),
      mode: fc.constantFrom<BlendMode>('normal', 'normal', 'additive'),
      reference: pose,
      referenceCounts: counts,
    });
    return fc.record({
      types: fc.constant(types),
      rest: pose,
      layers: fc.array(layer, { maxLength: 8 }),
      options: fc.record({
        rule: fc.constantFrom('priority' as const, 'weighted' as const),
        rotation: fc.constantFrom('nlerp' as const, 'slerp' as const),
        threshold: fc.oneof(fc.constantFrom(0, 1, 0.5, 3), fc.double({ min: 0, max: 2, noNaN: true })),
      }),
    });
  });

const blendCase = blendCaseOf(fc.array(fc.constantFrom<CurveType>('translation', 'rotation', 'scale', 'float'), { minLength: 1, maxLength: 9 }), maskValue, fc.constantFrom(0, 1, 1, 1));
/**
 * Mostly rotations, mostly animated, masks of 0 and 1: runs of four rotations that blend with one
 * weight, which the SIMD build slerps four at a time, beside runs that differ in mask, count or
 * running weight.
 */
const rotationCase = blendCaseOf(
  fc.array(fc.constantFrom<CurveType>('rotation', 'rotation', 'rotation', 'translation'), { minLength: 4, maxLength: 12 }),
  fc.constantFrom(0, 1, 1, 1, 1, 1, 1, 1),
  fc.constantFrom(0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
);

/**
 * Longer poses (14–40 curves): the planned path reads counts and masks sixteen curves at a time,
 * then one at a time; a fractional mask weight or an inactive curve may sit in either part.
 */
const longCase = blendCaseOf(
  fc.array(fc.constantFrom<CurveType>('translation', 'rotation', 'rotation', 'scale'), { minLength: 14, maxLength: 40 }),
  fc.oneof({ weight: 6, arbitrary: fc.constantFrom(0, 1) }, { weight: 1, arbitrary: fc.constant(0.5) }),
  fc.constantFrom(0, 1, 1, 1, 1, 1, 1, 1),
);

/** The twin's result in float32, as the kernel stores it (`exact`: in float64, as the twin computes it). */
function expected(c: Case, exact = false): SampleArrays {
  const n = c.types.length;
  const samples = exact ? (new Float64Array(4 * n) as unknown as Float32Array) : new Float32Array(4 * n);
  const out: SampleArrays = { samples, counts: new Uint8Array(n) };
  const arrays = (s: number[], k: number[]): SampleArrays => ({ samples: Float32Array.from(s), counts: Uint8Array.from(k) });
  referenceBlend(
    c.types,
    Float32Array.from(c.rest),
    c.layers.map((l) => ({
      samples: arrays(l.samples, l.counts),
      weight: Math.fround(l.weight),
      mask: l.mask ? Float32Array.from(l.mask) : null,
      mode: l.mode,
      reference: arrays(l.reference, l.referenceCounts),
    })),
    out,
    c.options,
  );
  return out;
}

function runKernel(core: AnimCore, c: Case): { samples: Float32Array; counts: Uint8Array } {
  const n = c.types.length;
  const job = new BlendJob(core, c.types, c.rest, Math.max(1, c.layers.length));
  const owned: { dispose(): void }[] = [job];
  const buffer = (s: number[], k: number[]): AnimSampleBuffer => {
    const b = new AnimSampleBuffer(core, c.types);
    b.samples.set(s);
    b.counts.set(k);
    owned.push(b);
    return b;
  };
  try {
    const layers = c.layers.map((l) => {
      const mask = l.mask ? new BlendMask(core, Float32Array.from(l.mask)) : null;
      if (mask) owned.push(mask);
      return { samples: buffer(l.samples, l.counts), weight: l.weight, mask, mode: l.mode, reference: buffer(l.reference, l.referenceCounts) };
    });
    const out = new AnimSampleBuffer(core, c.types);
    owned.push(out);
    out.samples.fill(Number.NaN); // nothing may be left from before
    job.run(layers, out, c.options);
    return { samples: out.samples.slice(), counts: out.counts.slice() };
  } finally {
    for (const o of owned) o.dispose();
  }
  void n;
}

function compare(c: Case, got: { samples: Float32Array; counts: Uint8Array }, want: SampleArrays): void {
  expect(Array.from(got.counts)).toEqual(Array.from(want.counts));
  c.types.forEach((t, i) => {
    const a = got.samples.subarray(4 * i, 4 * i + 4);
    const b = want.samples.subarray(4 * i, 4 * i + 4);
    let s = 1;
    if (t === 'rotation' && a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]! < 0) s = -1;
    for (let k = 0; k < 4; k++) {
      const tol = 2e-4 * Math.max(1, Math.abs(b[k]!));
      if (!(Math.abs(a[k]! - s * b[k]!) <= tol)) {
        throw new Error(`curve ${i} (${t}) lane ${k}: kernel ${Array.from(a).join(', ')} vs reference ${Array.from(b).join(', ')}`);
      }
    }
  });
}

describe.each(BUILDS)('blend kernel (%s build)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });
  afterAll(() => undefined);

  it.each([
    ['random layer sets', blendCase, 400],
    ['rotation-heavy layer sets with masks of 0 and 1', rotationCase, 200],
    ['long poses', longCase, 60],
  ] as const)('matches referenceBlend over %s', (_, cases, numRuns) => {
    fc.assert(
      fc.property(cases, (c) => {
        compare(c, runKernel(core, c), expected(c));
      }),
      { numRuns },
    );
  });

  // Masks of 0 and 1 take the planned path (curves grouped by which layers are active); a
  // fractional mask anywhere sends the whole call through the general one. A normal layer with a
  // fractional mask and no active curve adds nothing under either rule, so the same case with it
  // appended must give the same result: bit for bit, except where the SIMD build slerps a group of
  // four rotations in f32 that the other path groups otherwise (within the slerp budget).
  it.each([
    ['random layer sets', blendCase, 300],
    ['rotation-heavy layer sets', rotationCase, 200],
    ['long poses', longCase, 60],
  ] as const)('gives the general path\'s result on the planned one: %s', (_, cases, numRuns) => {
    const planned = cases
      .filter((c) => c.layers.length < 8)
      .map((c) => ({
        ...c,
        layers: c.layers.map((l) => (l.mask ? { ...l, mask: l.mask.map((m) => (m < 0.5 ? 0 : 1)) } : l)),
      }));
    fc.assert(
      fc.property(planned, (c) => {
        const inert: LayerSpec = { samples: c.rest.map(() => 7), counts: c.types.map(() => 0), weight: 0.5, mask: c.types.map(() => 0.5), mode: 'normal', reference: c.rest, referenceCounts: c.types.map(() => 1) };
        const got = runKernel(core, c);
        const general = runKernel(core, { ...c, layers: [...c.layers, inert] });
        expect(Array.from(got.counts)).toEqual(Array.from(general.counts));
        const exact = build === 'scalar' || c.options.rotation !== 'slerp';
        for (let k = 0; k < got.samples.length; k++) {
          if (exact) expect(got.samples[k]).toBe(general.samples[k]);
          else expect(Math.abs(got.samples[k]! - general.samples[k]!)).toBeLessThanOrEqual(2e-6);
        }
        compare(c, got, expected(c));
      }),
      { numRuns },
    );
  });

  it('covers the corners: all curves inactive, W = 0, τ = 0, additive only', () => {
    const types: CurveType[] = ['translation', 'rotation'];
    const rest = [1, 2, 3, 0, 0, 0, 0.6, 0.8];
    const idle: LayerSpec = {
      samples: [9, 9, 9, 0, 0, 1, 0, 0],
      counts: [0, 0],
      weight: 1,
      mask: null,
      mode: 'normal',
      reference: [0, 0, 0, 0, 0, 0, 0, 1],
      referenceCounts: [1, 1],
    };
    const zero: LayerSpec = { ...idle, counts: [1, 1], weight: 0 };
    const add: LayerSpec = { ...idle, counts: [1, 1], mode: 'additive', weight: 0.5 };
    for (const options of [{ rule: 'priority' }, { rule: 'weighted' }, { rule: 'weighted', threshold: 0 }, { rule: 'weighted', rotation: 'slerp' }] as BlendOptions[]) {
      for (const layers of [[], [idle], [zero], [add], [zero, add], [idle, add]]) {
        const c: Case = { types, rest, layers, options };
        const got = runKernel(core, c);
        compare(c, got, expected(c));
        // Undefined or rest-filled curves print the rest value; priority leaves W = 0 layers' samples.
        if (layers.every((l) => l === idle) || options.threshold === 0) expect(Array.from(got.samples.subarray(0, 3))).toEqual([1, 2, 3]);
      }
    }
  });

  it('refuses misuse', () => {
    const job = new BlendJob(core, ['translation'], [0, 0, 0, 0], 1);
    const a = new AnimSampleBuffer(core, ['translation']);
    const b = new AnimSampleBuffer(core, ['translation', 'rotation']);
    expect(() => job.run([{ samples: a, weight: 1 }, { samples: a, weight: 1 }], a)).toThrow(/at most 1/);
    expect(() => job.run([{ samples: b, weight: 1 }], a)).toThrow(/2 curves/);
    expect(() => job.run([{ samples: a, weight: -1 }], a)).toThrow(UsageError);
    expect(() => job.run([{ samples: a, weight: 1, mode: 'additive' }], a)).toThrow(/reference/);
    expect(() => job.run([{ samples: a, weight: 1 }], a)).toThrow(/buffer of its own/);
    const c = new AnimSampleBuffer(core, ['translation']);
    expect(() => job.run([{ samples: c, weight: 1, mode: 'additive', reference: a }], a)).toThrow(/buffer of its own/);
    c.dispose();
    expect(() => new BlendMask(core, Float32Array.of(2))).toThrow(/outside \[0, 1\]/);
    job.dispose();
    expect(() => job.run([], a)).toThrow(/disposed/);
    a.dispose();
    b.dispose();
  });
});

// Weights up to the largest float32 (spec §1 does not clamp them) and additive rotation keys far
// from unit length (a glTF file may hold |q| = 1.4e20, sampled as stored at its key time): the
// kernel's result is the float32 rounding of the float64 twin's — finite wherever the twin's is
// within float32, ±Infinity only where it is beyond (fuzz rounds 4 and 5, test/FUZZING.md).
const F32_MAX = 3.4028234663852886e38;
const hugeWeight = fc.oneof(
  fc.constantFrom(0, 0.5, 1, 1e-30, 1e20, 1e30, 3e38, F32_MAX),
  fc.double({ min: 0, max: F32_MAX, noNaN: true }),
);
/** A unit quaternion, or one scaled far from unit length (1e20, 1e-3). */
const farQuat = fc.tuple(quat, fc.constantFrom(1, 1e20, 1e-3)).map(([q, s]) => q.map((v) => Math.fround(v * s)));
const hugeCase: fc.Arbitrary<Case> = fc
  .array(fc.constantFrom<CurveType>('translation', 'rotation', 'rotation', 'scale'), { minLength: 1, maxLength: 9 })
  .chain((types) => {
    const n = types.length;
    const pose = (rotation: fc.Arbitrary<number[]>) => fc.tuple(...types.map((t) => (t === 'rotation' ? rotation : vec))).map((vs) => vs.flat());
    const counts = fc.array(fc.constantFrom(0, 1, 1, 1), { minLength: n, maxLength: n });
    const mask = fc.option(fc.array(fc.constantFrom(0, 1, 0.5), { minLength: n, maxLength: n }), { nil: null });
    const normal = fc.record({ samples: pose(quat), counts, weight: hugeWeight, mask, mode: fc.constant<BlendMode>('normal'), reference: pose(quat), referenceCounts: counts });
    const additive = fc.record({ samples: pose(farQuat), counts, weight: hugeWeight, mask, mode: fc.constant<BlendMode>('additive'), reference: pose(farQuat), referenceCounts: counts });
    return fc.record({
      types: fc.constant(types),
      rest: pose(quat),
      layers: fc.array(fc.oneof(normal, additive), { maxLength: 6 }),
      options: fc.record({
        rule: fc.constantFrom('priority' as const, 'weighted' as const),
        rotation: fc.constantFrom('nlerp' as const, 'slerp' as const),
        threshold: fc.constantFrom(0, 1, 3e38),
      }),
    });
  });

/**
 * `compare` against the twin's float64 values: a lane beyond float32 there may be ±Infinity (of
 * its sign) or the largest floats; every other lane is finite and within the tolerance. With
 * `finiteOnly`, rotation lanes are only checked to be finite (see `chaotic`).
 */
function compareFar(c: Case, got: { samples: Float32Array; counts: Uint8Array }, want: SampleArrays, finiteOnly: boolean): void {
  expect(Array.from(got.counts)).toEqual(Array.from(want.counts));
  c.types.forEach((t, i) => {
    const a = got.samples.subarray(4 * i, 4 * i + 4);
    const b = want.samples.subarray(4 * i, 4 * i + 4);
    const rotation = t === 'rotation';
    const s = rotation && a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]! < 0 ? -1 : 1;
    const scale = rotation ? Math.hypot(b[0]!, b[1]!, b[2]!, b[3]!) : 0;
    for (let k = 0; k < 4; k++) {
      const at = `curve ${i} (${t}) lane ${k}: kernel ${Array.from(a).join(', ')} vs reference ${Array.from(b).join(', ')}`;
      if (Math.abs(b[k]!) > F32_MAX * (1 - 1e-6)) {
        if (!Number.isFinite(a[k]!)) expect(Math.sign(a[k]!), at).toBe(s * Math.sign(b[k]!));
        continue;
      }
      expect(Number.isFinite(a[k]!), at).toBe(true);
      if (finiteOnly && rotation) continue;
      const tol = 2e-4 * Math.max(1, Math.abs(b[k]!), scale);
      if (!(Math.abs(a[k]! - s * b[k]!) <= tol)) throw new Error(at);
    }
  });
}

/**
 * Slerp by a weight far beyond 1 (priority extrapolating, or an additive layer) is sin(wθ) of a
 * huge wθ: the float32 rounding of its inputs changes it entirely, so only its finiteness is
 * comparable.
 */
const chaotic = (c: Case): boolean =>
  c.options.rotation === 'slerp' && c.layers.some((l) => l.weight > 1e3 && (l.mode === 'additive' || c.options.rule !== 'weighted'));

describe.each(BUILDS)('blend kernel with huge weights and far-from-unit rotations (%s build)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('matches the float64 referenceBlend over random layer sets', () => {
    fc.assert(
      fc.property(hugeCase, (c) => {
        compareFar(c, runKernel(core, c), expected(c, true), chaotic(c));
      }),
      { numRuns: 400 },
    );
  });

  const types: CurveType[] = ['translation', 'rotation'];
  const rest = [0, 0, 0, 0, 0, 0, 0, 1];
  const z90 = [0, 0, Math.SQRT1_2, Math.SQRT1_2];
  const layer = (samples: number[], weight: number, mode: BlendMode = 'normal', reference = rest): LayerSpec => ({
    samples,
    counts: [1, 1],
    weight,
    mask: null,
    mode,
    reference,
    referenceCounts: [1, 1],
  });
  const run = (layers: LayerSpec[], options: BlendOptions) => {
    const c: Case = { types, rest, layers, options };
    const got = runKernel(core, c);
    compareFar(c, got, expected(c, true), false);
    return got.samples;
  };

  it.each(['nlerp', 'slerp'] as const)('weighted: W beyond float32 (two weights of 3e38 or 3.4e38) is the plain mean (%s)', (rotation) => {
    for (const w of [3e38, F32_MAX]) {
      // x = (2 + 4) / 2 = 3; rotations identity and 90° about z, equal shares: 45° about z.
      const got = run([layer([2, 0, 0, 0, 0, 0, 0, 1], w), layer([4, 0, 0, 0, ...z90], w)], { rule: 'weighted', rotation });
      expect(got[0]).toBeCloseTo(3, 6);
      expect(got[6]).toBeCloseTo(Math.sin(Math.PI / 8), 6);
      expect(got[7]).toBeCloseTo(Math.cos(Math.PI / 8), 6);
    }
  });

  it.each(['nlerp', 'slerp'] as const)('weighted: tiny weights beside huge ones count, and add nothing (%s)', (rotation) => {
    const got = run([layer([2, 0, 0, 0, 0, 0, 0, 1], 1e-30), layer([4, 0, 0, 0, ...z90], F32_MAX), layer([8, 0, 0, 0, 0, 0, 0, 1], 1e-30)], { rule: 'weighted', rotation });
    expect(got[0]).toBe(4);
    got.subarray(4).forEach((v, k) => expect(v).toBeCloseTo(z90[k]!, 6));
  });

  it.each([1e20, 1e30, F32_MAX])('priority nlerp extrapolates by %s without overflowing: normalize(b − a) in the limit', (w) => {
    // a = (0.6, 0, 0, 0.8), b = (−0.6, 0, 0, 0.8): b − a = (−1.2, 0, 0, 0), beyond float32 once multiplied by 3.4e38.
    const got = run([layer([0, 0, 0, 0, 0.6, 0, 0, 0.8], 1), layer([0, 0, 0, 0, -0.6, 0, 0, 0.8], w)], { rule: 'priority', rotation: 'nlerp' });
    expect(got[4]).toBeCloseTo(-1, 6);
    expect(Math.abs(got[7]!)).toBeLessThan(1e-6);
  });

  it.each([
    ['priority', 'nlerp'],
    ['priority', 'slerp'],
    ['weighted', 'nlerp'],
    ['weighted', 'slerp'],
  ] as const)('%s, %s: additive layers on keys of |q| = 1.4e20 rotate by their direction', (rule, rotation) => {
    // Two deltas (1e20, 1e20, 0, 0) against identity: each 180° about (1, 1, 0)/√2; together 360°, i.e. −identity.
    const far = [0, 0, 0, 0, 1e20, 1e20, 0, 0];
    const got = run([layer([0, 0, 0, 0, 0, 0, 0, 1], 1), layer(far, 1, 'additive'), layer(far, 1, 'additive')], { rule, rotation });
    expect(Math.abs(got[7]!)).toBeCloseTo(1, 5);
  });

  it('additive: a weight of 3.4e38 on a zero translation delta adds nothing', () => {
    const got = run([layer([5, 6, 7, 0, 0, 0, 0, 1], 1), layer([10, 10, 10, 0, 0, 0, 0, 1], F32_MAX, 'additive', [10, 10, 10, 0, 0, 0, 0, 1])], { rule: 'weighted' });
    expect(Array.from(got.subarray(0, 3))).toEqual([5, 6, 7]);
  });

  it('refuses a weight beyond float32 (it would be stored as Infinity)', () => {
    const job = new BlendJob(core, ['translation'], [0, 0, 0, 0], 1);
    const a = new AnimSampleBuffer(core, ['translation']);
    const out = new AnimSampleBuffer(core, ['translation']);
    expect(() => job.run([{ samples: a, weight: 1e39 }], out)).toThrow(/float32/);
    job.run([{ samples: a, weight: F32_MAX }], out);
    // The threshold τ is stored as float32 too (fuzz: τ = 3.4028236e38 became Infinity, every pose NaN).
    expect(() => job.run([{ samples: a, weight: 1 }], out, { rule: 'weighted', threshold: 3.4028236e38 })).toThrow(/threshold must be in \[0, 3\.4028234663852886e\+38\] \(float32\)/);
    expect(() => referenceBlend(['translation'], [0, 0, 0, 0], [{ samples: a, weight: 1 }], { samples: new Float32Array(4), counts: new Uint8Array(1) }, { rule: 'weighted', threshold: 3.4028236e38 })).toThrow(/threshold must be in/);
    job.run([{ samples: a, weight: 1 }], out, { rule: 'weighted', threshold: F32_MAX });
    expect(Array.from(out.samples.subarray(0, 3)).every(Number.isFinite)).toBe(true);
    for (const o of [job, a, out]) o.dispose();
  });
});
