import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, type KeyedKeys, packedKeyedKeys, packedValues } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryChannels, arbitrarySharedChannels, randomGlb } from '../helpers/random-gltf.js';

describe('packedKeyedKeys', () => {
  const times = Float32Array.of(0, 0.5, 1);
  const data = Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9);

  it('gives float4 values made from the packed floats (zeros after the width), once, without changing them', () => {
    const keys = packedKeyedKeys(times, { data, width: 3 }, 'linear');
    expect(Array.from(keys.values)).toEqual([1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0]);
    expect(keys.values).toBe(keys.values);
    expect(Array.from(data)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(packedValues(keys)).toEqual({ data, width: 3 });
  });

  it('is dropped by keys spread into new ones, which keep their own values', () => {
    const keys = packedKeyedKeys(times, { data, width: 3 }, 'step');
    const converted: KeyedKeys = { ...keys, values: new Float32Array(12).fill(7) };
    expect(packedValues(converted)).toBeUndefined();
    const copy: KeyedKeys = { ...keys };
    expect(packedValues(copy)).toBeUndefined();
    expect(copy).toEqual({ encoding: 'keyed', times, values: keys.values, interpolation: 'step' });
  });
});

describe.each(BUILDS)('glTF keys loaded from the accessors (packed) sample as their float4 values do, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  /** Every sample of `clip` at `times`, after loading it alone. */
  const samples = (clip: AnimClip, at: readonly number[]): Float32Array[] => {
    const resource = new AnimResource({ format: 'test', clips: [clip] });
    core.load(resource);
    try {
      const buf = core.createSampleBuffer(clip);
      return at.map((t) => {
        core.sampler.sample(clip, t, buf);
        return buf.samples.slice();
      });
    } finally {
      resource.dispose();
    }
  };

  it('bit for bit, for random channels with own and shared key times', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(arbitraryChannels, arbitrarySharedChannels), async (channels) => {
        const resource = await openGltf({ gltf: randomGlb(channels) });
        const clip = resource.clips[0]!;
        const packed = clip.curves.filter((c) => c.keys.encoding === 'keyed' && packedValues(c.keys) !== undefined).length;
        const linearOrStep = channels.filter((c) => c.interpolation !== 'CUBICSPLINE' && c.path !== 'weights').length;
        expect(packed).toBe(linearOrStep);
        // The same keys as plain float4 values (not packed).
        const plain = clip.withCurves(clip.curves.map((c) => (c.keys.encoding === 'keyed' ? { ...c, keys: { ...c.keys } } : c)));
        const at = [-0.1, 0, ...channels.flatMap((c) => c.times.flatMap((t) => [t, t + 0.013])), clip.duration + 1];
        expect(samples(clip, at)).toEqual(samples(plain, at));
      }),
      { numRuns: 60 },
    );
  });
  it('bit for bit, for a time group longer than one widening run, its runs broken by width and by unpacked members', () => {
    // 9 translations (VEC3), a packed SCALAR weight, 3 scales, 9 rotations (VEC4), one times array:
    // the loader widens runs of at most eight neighbouring members of one width in the kernel.
    const times = Float32Array.of(0, 0.25, 0.5, 1);
    let seed = 7;
    const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const curve = (curveType: 'translation' | 'rotation' | 'scale' | 'float', joint: string, property: string, width: 1 | 3 | 4) => {
      const data = Float32Array.from({ length: width * times.length }, next);
      return { curveType, target: { joint, property }, active: true, keys: packedKeyedKeys(times, { data, width }, 'linear') };
    };
    const curves = [
      ...Array.from({ length: 9 }, (_, j) => curve('translation', `j${j}`, 'translation', 3)),
      curve('float', 'j0', 'weights/0', 1),
      ...Array.from({ length: 3 }, (_, j) => curve('scale', `j${j}`, 'scale', 3)),
      ...Array.from({ length: 9 }, (_, j) => curve('rotation', `j${j}`, 'rotation', 4)),
    ];
    const clip = new AnimClip({ name: 'runs', curves });
    const plain = clip.withCurves(clip.curves.map((c) => ({ ...c, keys: { ...c.keys } })));
    const at = [0, 0.1, 0.25, 0.6, 1, 2];
    const packedSamples = samples(clip, at);
    expect(packedSamples).toEqual(samples(plain, at));
    // Not vacuous: the translations' w lanes are zeros and the samples differ per curve.
    expect(packedSamples[1]![3]).toBe(0);
    expect(packedSamples[1]![0]).not.toBe(packedSamples[1]![4]);
  });
});

describe.each(BUILDS)('packed keys a reader left unchecked are tested as they are loaded, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });
  const bits = (b: number) => new Float32Array(Int32Array.of(b).buffer)[0]!;
  // Around the file-value limit (value-range.ts): the largest accepted float32 and the smallest refused, NaN, ±Inf, the extremes.
  const EDGES = [bits(0x7e967699), -bits(0x7e967699), bits(0x7e96769a), -bits(0x7e96769a), NaN, Infinity, -Infinity, -0, bits(1), bits(0x7f7fffff), bits(0x7fc00001)];

  /** The reader's side of `PackedValues.unchecked`: counts its calls and refuses when its floats hold a value `isFileValue` refuses. */
  class Check {
    calls = 0;
    constructor(private readonly data: Float32Array) {}
    check(): void {
      this.calls++;
      if (this.data.some((v) => !(Math.abs(v) <= 1e38))) throw new Error('refused');
    }
  }

  it('refuses exactly the values isFileValue refuses, at any member, key and component, VEC3 and VEC4, and frees the clip', () => {
    const times = Float32Array.of(0, 0.5, 1);
    for (const width of [3, 4] as const) {
      // Ten members: two widening runs.
      for (const edge of EDGES) {
        for (let at = 0; at < 10 * width * times.length; at += 5) {
          const checks: Check[] = [];
          const curves = Array.from({ length: 10 }, (_, j) => {
            const data = Float32Array.from({ length: width * times.length }, (_, i) => 0.5 + j + i);
            if (Math.floor(at / data.length) === j) data[at % data.length] = edge;
            const check = new Check(data);
            checks.push(check);
            return { curveType: width === 4 ? ('rotation' as const) : ('translation' as const), target: { joint: `j${j}`, property: width === 4 ? 'rotation' : 'translation' }, active: true, keys: packedKeyedKeys(times, { data, width, unchecked: check }, 'linear') };
          });
          const clip = new AnimClip({ name: 'edges', curves });
          const resource = new AnimResource({ format: 'test', clips: [clip] });
          const refused = !(Math.abs(edge) <= 1e38);
          if (refused) expect(() => core.load(resource), `width ${width}, ${edge} at ${at}`).toThrow('refused');
          else core.load(resource);
          expect(core.runtime.isLoaded(clip)).toBe(!refused);
          // Called only when the kernel found a refused value: accepted keys cost no pass of their own.
          expect(checks.some((c) => c.calls > 0)).toBe(refused);
          resource.dispose();
        }
      }
    }
  });

  it('are tested before their float4 values are made', () => {
    const data = Float32Array.of(1, 2, NaN);
    const check = new Check(data);
    const keys = packedKeyedKeys(Float32Array.of(0), { data, width: 3, unchecked: check }, 'linear');
    expect(() => keys.values).toThrow('refused');
    expect(check.calls).toBe(1);
  });
});
