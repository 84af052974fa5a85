import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, type CurveType, restValue, type SampleOptions } from '../../src/anim/index.js';
import type { AnimCore, CompressionOptions } from '../../src/core/index.js';
import { quantizeClip } from '../../src/core/encodings/index.js';
import { decodeRotation, ROTATION_HALF_STEP } from '../../src/core/encodings/quantize.js';
import { withClosingKey } from '../../src/anim/closing-key.js';
import { UsageError } from '../../src/errors.js';
import { referenceSample, referenceSampleQuantized } from '../../src/reference/index.js';
import { expectCloseRelative, sampleArrays } from '../helpers/compare.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryRigClip } from '../helpers/random-clip.js';
import { makeRig } from '../helpers/rig.js';

const time = fc.double({ min: -3, max: 8, noNaN: true });
const bound = fc.constantFrom(1e-5, 1e-4, 1e-3, 0.05);
const compression = fc.record({ translation: bound, rotation: bound, scale: bound });
const sampleOptions = fc.record({
  rotation: fc.constantFrom('nlerp', 'slerp') as fc.Arbitrary<'nlerp' | 'slerp'>,
  sampleType: fc.constantFrom('linear', 'step') as fc.Arbitrary<'linear' | 'step'>,
});

/** Per curve, the largest magnitude among its keys (at least 1): the scale of its f32 rounding. */
function keyMagnitudes(clip: AnimClip): number[] {
  return clip.curves.map((c) => Math.max(1, ...Array.from(restValue(c.keys)).map(Math.abs), ...(c.keys.encoding === 'uniform' ? Array.from(c.keys.values).map(Math.abs) : [])));
}

/** Throws unless each curve's sample is within 1e-5 × its key magnitude of the twin's. */
function expectCloseToTwin(clip: AnimClip, actual: Float32Array, expected: Float32Array): void {
  keyMagnitudes(clip).forEach((m, i) => {
    for (let k = 4 * i; k < 4 * i + 4; k++) {
      if (!(Math.abs(actual[k]! - expected[k]!) <= 1e-5 * m)) throw new Error(`curve ${i}: wasm ${actual.subarray(4 * i, 4 * i + 4)} vs twin ${expected.subarray(4 * i, 4 * i + 4)}`);
    }
  });
}

/** The bound of curve type `type` (T, R, S only are compressed). */
function boundOf(c: Required<CompressionOptions>, type: CurveType): number {
  return type === 'rotation' ? c.rotation : type === 'scale' ? c.scale : c.translation;
}

describe.each(BUILDS)('quantized encoding, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('samples random compressed rigs like its twin (nlerp, slerp, step)', () => {
    let compressed = 0;
    fc.assert(
      fc.property(arbitraryRigClip, compression, fc.array(time, { minLength: 1, maxLength: 6 }), sampleOptions, (clip, bounds, times, options) => {
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource, { compression: bounds });
        compressed += quantizeClip(clip, bounds).filter((q) => q !== null).length;
        const buf = core.createSampleBuffer(clip);
        const twin = sampleArrays(clip.curves.length);
        try {
          for (const t of times) {
            core.sampler.sample(clip, t, buf, options);
            referenceSampleQuantized(clip, bounds, t, twin, options);
            expect(Array.from(buf.counts)).toEqual(Array.from(twin.counts));
            expectCloseToTwin(clip, buf.samples, twin.samples);
          }
        } finally {
          buf.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 1000 },
    );
    // The property exercised the quantized kernel, not only the float fallback.
    expect(compressed).toBeGreaterThan(1000);
  });

  it('stays within the compression bounds of the float keys at every time (the error bound)', () => {
    fc.assert(
      fc.property(arbitraryRigClip, compression, fc.array(time, { minLength: 1, maxLength: 8 }), sampleOptions, (clip, bounds, times, options: SampleOptions) => {
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource, { compression: bounds });
        const buf = core.createSampleBuffer(clip);
        const float = sampleArrays(clip.curves.length);
        // f32 rounding of the float path itself (the reference is float64), relative to the keys' size.
        const slack = keyMagnitudes(clip).map((m) => 4e-6 * m);
        try {
          for (const t of times) {
            core.sampler.sample(clip, t, buf, options);
            referenceSample(clip, t, float, options);
            clip.curves.forEach((c, i) => {
              const v = Array.from(buf.samples.subarray(4 * i, 4 * i + 4));
              const f = Array.from(float.samples.subarray(4 * i, 4 * i + 4));
              const limit = (c.curveType === 'rotation' || c.curveType === 'translation' || c.curveType === 'scale' ? boundOf(bounds, c.curveType) : 0) + slack[i]!;
              // Rotations are compared as rotations (q and −q); step returns stored, unnormalised keys.
              const err = (s: number) => Math.max(...v.map((x, k) => Math.abs(x - s * f[k]!)));
              const error = c.curveType === 'rotation' ? Math.min(err(1), err(-1)) : err(1);
              if (error > limit) throw new Error(`t ${t} curve ${i} (${c.curveType}): error ${error} > ${limit}: ${v} vs ${f}`);
            });
          }
        } finally {
          buf.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('decodes unit rotation keys within the 15-bit bound, keeps every such curve quantized at that bound over cos(θ/2), and samples within it', () => {
    // Smallest three in 48 bits: the three stored components are within one word unit
    // (ROTATION_HALF_STEP = √½ / 32766 ≈ 2.16e-5, 15 bits of value) of the key, the omitted one
    // (|q_i| ≥ ½) within three, so a decoded key is within √12 units (≈ 7.5e-5, Euclidean); f32
    // rounding adds at most ~1e-7. Between keys θ apart, nlerp and slerp stay within √12 units / cos(θ/2).
    const h = ROTATION_HALF_STEP;
    const f32 = 2e-7;
    const unit = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
      .filter((q) => Math.hypot(...q) > 0.1)
      .map((q) => q.map((c) => c / Math.hypot(...q)));
    const curve = fc.record({ start: unit, steps: fc.array(unit, { minLength: 2, maxLength: 10 }), spread: fc.constantFrom(0.01, 0.2, 0.6) }).map(({ start, steps, spread }) => {
      let q = start;
      return steps.map((d) => {
        const next = q.map((c, i) => c + spread * d[i]!);
        const l = Math.hypot(...next);
        q = next.map((c) => c / l);
        return q;
      });
    });
    fc.assert(
      fc.property(curve, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }), sampleOptions, (keys, times, options) => {
        const n = keys.length;
        const clip = new AnimClip({
          name: 'r',
          curves: [{ curveType: 'rotation', active: true, target: { joint: 'j', property: 'rotation' }, keys: { encoding: 'uniform', values: Float32Array.from(keys.flat()) } }],
          keyCount: n,
          keyDuration: 0.1,
        });
        const stored = withClosingKey((clip.curves[0]!.keys as { values: Float32Array }).values, n, true);
        // The widest gap between neighbouring (sign-aligned) keys, as cos(θ/2) = |lerp at ½|.
        let minCos = 1;
        for (let k = 0; k + 1 < n; k++) minCos = Math.min(minCos, Math.hypot(...[0, 1, 2, 3].map((i) => (stored[4 * k + i]! + stored[4 * k + 4 + i]!) / 2)));
        const bound = (Math.sqrt(12) * h) / minCos + 1e-6;
        const [q] = quantizeClip(clip, { rotation: bound });
        // Every unit curve with gaps under 180° is held at that bound: the format, not luck.
        if (minCos < 0.72) return;
        expect(q).not.toBeNull();
        for (let k = 0; k < n; k++) {
          const d = decodeRotation(q!.codes, k);
          const e = d.map((c, i) => Math.abs(c - stored[4 * k + i]!));
          const omitted = e.indexOf(Math.max(...e));
          expect(Math.hypot(...e)).toBeLessThanOrEqual(Math.sqrt(12) * h + f32);
          e.forEach((x, i) => expect(x).toBeLessThanOrEqual((i === omitted ? 3 * h : h) + f32));
        }
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource, { compression: { rotation: bound } });
        const buf = core.createSampleBuffer(clip);
        const float = sampleArrays(1);
        try {
          for (const t of times) {
            core.sampler.sample(clip, t * n * 0.1, buf, options);
            referenceSample(clip, t * n * 0.1, float, options);
            const v = Array.from(buf.samples.subarray(0, 4));
            const f = Array.from(float.samples.subarray(0, 4));
            const err = Math.min(...[1, -1].map((s) => Math.max(...v.map((x, i) => Math.abs(x - s * f[i]!)))));
            expect(err).toBeLessThanOrEqual(bound + 4e-6);
          }
        } finally {
          buf.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('stores a 64-joint rig of 300 keys in at most 6 bytes per T/R/S key: 6 per rotation key, no codes for constant components', () => {
    const clip = makeRig(64, 300, 1);
    const copy = makeRig(64, 300, 1);
    const resource = new AnimResource({ format: 'test', clips: [clip, copy] });
    core.load(new AnimResource({ format: 'test', clips: [clip] }), { compression: { translation: 1e-4, rotation: 1e-4, scale: 1e-4 } });
    core.load(new AnimResource({ format: 'test', clips: [copy] }));
    const quantized = core.loadedSize(clip);
    const float = core.loadedSize(copy);
    expect(quantized.encoding).toBe('quantized');
    expect(float.encoding).toBe('uniform');
    // The rig's translations keep z and its scales y constant: 2 codes each. Per slice 64 rotations
    // × 6 B (smallest three) + 128 linear slots × 4 B; 301 slices (the closing one); the group
    // counts and the count of rotations that omit w (48 B); per
    // group of four linear slots (16 of translations, 16 of scales) a range of min x, y, z and two
    // steps, four lanes each (80 B); the clip header, slot table and counts as the float block's —
    // up to the blocks' alignment of their arrays to 16 bytes.
    const headerAndTables = float.bytes - 301 * 192 * 16;
    expect(Math.abs(quantized.bytes - (48 + 32 * 80 + 301 * (64 * 6 + 128 * 4) + headerAndTables))).toBeLessThan(16);
    const keys = 192 * 300;
    expect(quantized.bytes / keys).toBeLessThanOrEqual(6);
    expect(quantized.bytes / float.bytes).toBeLessThan(0.3);
    resource.dispose();
  });

  it('samples compressed rigs with constant components like its twin and within the bounds', () => {
    // Components that never change store no code: a random mask of them made constant per curve.
    const withConstants = fc.tuple(arbitraryRigClip, fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 18, maxLength: 18 })).map(([clip, masks]) => {
      const curves = clip.curves.map((c, i) => {
        if (c.curveType === 'rotation' || c.keys.encoding !== 'uniform') return c;
        const values = c.keys.values.slice();
        for (let k = 4; k < values.length; k += 4) for (let j = 0; j < 3; j++) if (masks[i % 18]! & (1 << j)) values[k + j] = values[j]!;
        return { ...c, keys: { encoding: 'uniform' as const, values } };
      });
      return new AnimClip({ name: clip.name, curves, keyCount: clip.keyCount, keyDuration: clip.keyDuration, preInfinity: clip.preInfinity, postInfinity: clip.postInfinity });
    });
    let constant = 0;
    fc.assert(
      fc.property(withConstants, compression, fc.array(time, { minLength: 1, maxLength: 6 }), sampleOptions, (clip, bounds, times, options) => {
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource, { compression: bounds });
        for (const q of quantizeClip(clip, bounds)) if (q?.range) constant += [1, 2, 4].filter((bit) => !(q.changing & bit)).length;
        const buf = core.createSampleBuffer(clip);
        const twin = sampleArrays(clip.curves.length);
        const float = sampleArrays(clip.curves.length);
        const slack = keyMagnitudes(clip).map((m) => 4e-6 * m);
        try {
          for (const t of times) {
            core.sampler.sample(clip, t, buf, options);
            referenceSampleQuantized(clip, bounds, t, twin, options);
            referenceSample(clip, t, float, options);
            expectCloseToTwin(clip, buf.samples, twin.samples);
            clip.curves.forEach((c, i) => {
              if (c.curveType === 'rotation') return;
              const limit = (c.curveType === 'translation' || c.curveType === 'scale' ? boundOf(bounds, c.curveType) : 0) + slack[i]!;
              for (let k = 4 * i; k < 4 * i + 4; k++) {
                if (!(Math.abs(buf.samples[k]! - float.samples[k]!) <= limit)) throw new Error(`t ${t} curve ${i}: ${buf.samples.subarray(4 * i, 4 * i + 4)} vs ${float.samples.subarray(4 * i, 4 * i + 4)}`);
              }
            });
          }
        } finally {
          buf.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 500 },
    );
    expect(constant).toBeGreaterThan(500);
  });

  it('keeps curves float that 16-bit codes cannot hold within their bound, beside the quantized ones', () => {
    const rig = makeRig(2, 10, 3);
    // A translation over 10 km at 1e-4: 16 bits give steps of 0.15 m.
    const far = rig.curves.map((c, i) => (i === 0 ? { ...c, keys: { encoding: 'uniform' as const, values: (c.keys as { values: Float32Array }).values.map((v, k) => (k % 4 === 3 ? 0 : v * 1e4)) } } : c));
    const clip = new AnimClip({ name: 'far', curves: far, keyCount: 10, keyDuration: 0.1 });
    const bounds = { translation: 1e-4 };
    expect(quantizeClip(clip, bounds).map((q) => q !== null)).toEqual([false, true, true, true, true, true]);
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource, { compression: bounds });
    expect(core.loadedSize(clip).encoding).toBe('mixed');
    const buf = core.createSampleBuffer(clip);
    const twin = sampleArrays(clip.curves.length);
    core.sampler.sample(clip, 0.37, buf);
    referenceSampleQuantized(clip, bounds, 0.37, twin);
    expectCloseToTwin(clip, buf.samples, twin.samples);
    resource.dispose();
  });

  it('keeps a rotation curve float where the codes would turn neighbouring keys to opposite arcs (keys 180° apart, slerp)', () => {
    // Unit keys with a dot of +1.7e-6 (a half-turn between them) whose i16 codes have a dot of
    // −5.9e-6: slerp of the codes would take the other arc, a whole rotation away from the float
    // sample. Found by searching random pairs; every per-key and nlerp check passes at 1e-4.
    const a = [0.48704516887664795, 0.43927285075187683, 0.7423951029777527, 0.13665980100631714];
    const b = [0.8337938785552979, -0.09231079369783401, -0.43125253915786743, -0.3320959508419037];
    const clip = new AnimClip({
      name: 'half-turn',
      curves: [{ curveType: 'rotation', active: true, target: { joint: 'j', property: 'rotation' }, keys: { encoding: 'uniform', values: Float32Array.from([...a, ...b]) } }],
      keyCount: 2,
      keyDuration: 1,
    });
    const bounds = { rotation: 1e-4 };
    expect(quantizeClip(clip, bounds)).toEqual([null]);
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource, { compression: bounds });
    const buf = core.createSampleBuffer(clip);
    const float = sampleArrays(1);
    try {
      for (const t of [0.25, 0.5, 0.75]) {
        core.sampler.sample(clip, t, buf, { rotation: 'slerp' });
        referenceSample(clip, t, float, { rotation: 'slerp' });
        expectCloseRelative(buf.samples, float.samples);
      }
    } finally {
      buf.dispose();
      resource.dispose();
    }
  });

  it('refuses compression bounds that are not finite numbers > 0, loading nothing', () => {
    const clip = makeRig(1, 4, 1);
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    for (const bad of [0, -1, Number.NaN, Infinity]) {
      expect(() => core.load(resource, { compression: { rotation: bad } })).toThrow(UsageError);
      expect(() => core.load(resource, { compression: { rotation: bad } })).toThrow(/compression.rotation must be a finite number > 0/);
    }
    expect(core.isLoaded(clip)).toBe(false);
  });
});

describe('retainKeys: false', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('drops the JS key arrays: sampling goes on, reading the keys throws a UsageError naming the clip', async () => {
    const clip = makeRig(3, 20, 5);
    const twin = makeRig(3, 20, 5);
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    const rests = clip.curves.map((c) => restValue(c.keys));
    const keyCount = clip.storedKeyCount;
    core.load(resource, { retainKeys: false });
    expect(() => (clip.curves[0]!.keys as { values: Float32Array }).values).toThrow(UsageError);
    expect(() => (clip.curves[1]!.keys as { values: Float32Array }).values).toThrow(/clip "rig" curve 1: its keys were dropped when its resource was loaded with retainKeys: false/);
    expect(clip.curves.map((c) => restValue(c.keys))).toEqual(rests);
    expect(clip.storedKeyCount).toBe(keyCount);

    const buf = core.createSampleBuffer(clip);
    const ref = sampleArrays(clip.curves.length);
    core.sampler.sample(clip, 0.3, buf);
    referenceSample(twin, 0.3, ref);
    expectCloseRelative(buf.samples, ref.samples);

    const other = await createCore('scalar');
    expect(() => other.load(resource)).toThrow(UsageError);
    const { toGltfDocument } = await import('../../src/index.js');
    expect(() => toGltfDocument(core, resource)).toThrow(UsageError);
    resource.dispose();
    expect(() => core.load(resource)).toThrow(/retainKeys: false/);
  });
});
