import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, bindJoints, type BlendOptions, type SampleOptions } from '../../src/anim/index.js';
import { type AnimCore, type AnimSampleBuffer, BlendJob, type BlendJobLayer, BlendMask, LocalToModelJob } from '../../src/core/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryKeyedClip, arbitraryMixedClip, arbitraryUniformClip } from '../helpers/random-clip.js';
import { arbitraryUnityClip } from '../helpers/random-unity.js';
import { character } from '../sequencer/helpers.js';

// Layers that name a clip are sampled inside the blend call: the result must be bit for bit the
// result of sampling each layer with the sampler first and blending the buffers afterwards.

interface LayerDraw {
  time: number;
  weight: number;
  additive: boolean;
  masked: boolean;
  sampling: SampleOptions;
}

const layerDraw: fc.Arbitrary<LayerDraw> = fc.record({
  time: fc.double({ min: -3, max: 6, noNaN: true }),
  weight: fc.constantFrom(0, 0.3, 0.5, 1, 1.4),
  additive: fc.boolean(),
  masked: fc.boolean(),
  sampling: fc.record({
    rotation: fc.constantFrom('nlerp' as const, 'slerp' as const),
    sampleType: fc.constantFrom('linear' as const, 'step' as const),
    timeFactor: fc.constantFrom(1, -0.5, 2),
  }),
});

const blendOptions: fc.Arbitrary<BlendOptions> = fc.record({
  rule: fc.constantFrom('priority' as const, 'weighted' as const),
  rotation: fc.constantFrom('nlerp' as const, 'slerp' as const),
  threshold: fc.constantFrom(0, 1, 0.5),
});

describe.each(BUILDS)('blend call that samples its layers (%s build)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  const clips = fc.oneof(arbitraryUniformClip, arbitraryKeyedClip, arbitraryMixedClip, arbitraryUnityClip);

  it('equals sampling first and blending the buffers, bit for bit', () => {
    fc.assert(
      fc.property(clips, fc.array(layerDraw, { minLength: 1, maxLength: 6 }), blendOptions, (clip: AnimClip, draws, options) => {
        const resource = new AnimResource({ format: 'test', clips: [clip] });
        core.load(resource);
        const types = clip.curves.map((c) => c.curveType);
        const n = types.length;
        const owned: { dispose(): void }[] = [];
        const buffer = (): AnimSampleBuffer => {
          const b = core.createSampleBuffer(clip);
          owned.push(b);
          return b;
        };
        try {
          const rest = Float32Array.from({ length: 4 * n }, (_, k) => (k % 4 === 3 ? 1 : 0.25 * k));
          const mask = new BlendMask(core, Float32Array.from({ length: n }, (_, i) => [1, 0, 0.5][i % 3]!));
          owned.push(mask);
          const layers = (inCall: boolean): BlendJobLayer[] =>
            draws.map((d) => {
              const samples = buffer();
              const reference = buffer();
              core.sampler.sample(clip, 0.1, reference, d.sampling);
              if (!inCall) core.sampler.sample(clip, d.time, samples, d.sampling);
              return {
                samples,
                ...(inCall ? { clip, time: d.time, sampling: d.sampling } : {}),
                weight: d.weight,
                mask: d.masked ? mask : null,
                mode: d.additive ? 'additive' : 'normal',
                reference,
              };
            });
          const run = (inCall: boolean): { samples: number[]; counts: number[] } => {
            const job = new BlendJob(core, types, rest, draws.length);
            owned.push(job);
            const out = buffer();
            job.run(layers(inCall), out, options);
            return { samples: Array.from(out.samples), counts: Array.from(out.counts) };
          };
          const want = run(false);
          const got = run(true);
          expect(got.counts).toEqual(want.counts);
          // Object.is: NaN lanes (none expected) and signed zeros must match too.
          got.samples.forEach((v, k) => expect(Object.is(v, want.samples[k])).toBe(true));
        } finally {
          for (const o of owned) o.dispose();
          resource.dispose();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('composes the result into a local-to-model job in the same call, as its own run does', () => {
    const resource = character();
    core.load(resource);
    const [walk, wave] = [resource.clip('walk'), resource.clip('wave')];
    const binding = bindJoints(walk.curves, resource.skeleton!);
    const model = new LocalToModelJob(core, binding);
    const alone = new LocalToModelJob(core, binding);
    const job = new BlendJob(core, walk.curves.map((c) => c.curveType), new Float32Array(4 * walk.curves.length), 2);
    const [a, b, out] = [core.createSampleBuffer(walk), core.createSampleBuffer(walk), core.createSampleBuffer(walk)];
    job.run([{ samples: a, clip: walk, time: 0.3, weight: 1 }, { samples: b, clip: wave, time: 0.3, weight: 0.5 }], out, { rotation: 'slerp', model });
    alone.run(out);
    expect(Array.from(model.matrices)).toEqual(Array.from(alone.matrices));
    expect(model.matrices[12]).toBe(1); // Hip's x: walk's translation (1, 0, 0); wave leaves the Hip
    model.dispose();
    expect(() => job.run([], out, { model })).toThrow(/disposed/);
    for (const o of [job, alone, a, b, out, resource]) o.dispose();
  });

  it('samples no layer that cannot contribute (weight 0 under weighted, additive of weight 0), and every layer under priority', () => {
    const resource = character();
    core.load(resource);
    const [walk, wave] = [resource.clip('walk'), resource.clip('wave')];
    const types = walk.curves.map((c) => c.curveType);
    const job = new BlendJob(core, types, new Float32Array(4 * types.length), 3);
    const [a, b, c, reference, out] = [0, 1, 2, 3, 4].map(() => core.createSampleBuffer(walk)) as AnimSampleBuffer[];
    core.sampler.sample(wave, 0, reference!);
    const layers = (wb: number, wc: number): BlendJobLayer[] => [
      { samples: a!, clip: walk, time: 0.3, weight: 1 },
      { samples: b!, clip: wave, time: 0.4, weight: wb },
      { samples: c!, clip: wave, time: 0.5, weight: wc, mode: 'additive', reference: reference! },
    ];
    const sampled = (buffer: AnimSampleBuffer): boolean => !Number.isNaN(buffer.samples[0]);
    for (const rule of ['weighted', 'priority'] as const) {
      for (const [wb, wc] of [[0, 0], [0.5, 0.5]]) {
        b!.samples.fill(Number.NaN);
        c!.samples.fill(Number.NaN);
        job.run(layers(wb!, wc!), out!, { rule, rotation: 'slerp' });
        expect(sampled(b!)).toBe(wb !== 0 || rule === 'priority');
        expect(sampled(c!)).toBe(wc !== 0);
        expect(out!.samples.some(Number.isNaN)).toBe(false);
      }
    }
    for (const o of [job, a!, b!, c!, reference!, out!, resource]) o.dispose();
  });

  it('refuses a clip of another layout, an unloaded clip and a time that is not finite', () => {
    const resource = new AnimResource({
      format: 'test',
      clips: [
        new AnimClip({ name: 'a', curves: [{ curveType: 'translation', target: { joint: 'j', property: 'translation' }, active: true, keys: { encoding: 'static', value: Float32Array.of(1, 2, 3, 0) } }] }),
        new AnimClip({ name: 'b', curves: [{ curveType: 'rotation', target: { joint: 'j', property: 'rotation' }, active: true, keys: { encoding: 'static', value: Float32Array.of(0, 0, 0, 1) } }] }),
      ],
    });
    core.load(resource);
    const [a, b] = resource.clips as [AnimClip, AnimClip];
    const job = new BlendJob(core, ['translation'], [0, 0, 0, 0], 2);
    const out = core.createSampleBuffer(a);
    const samples = core.createSampleBuffer(a);
    expect(() => job.run([{ samples, clip: b, time: 0, weight: 1 }], out)).toThrow(/curve count or types/);
    expect(() => job.run([{ samples, clip: a, time: Number.NaN, weight: 1 }], out)).toThrow(/finite/);
    expect(() => job.run([{ samples, clip: a, weight: 1 }], out)).toThrow(/finite/);
    const unloaded = new AnimClip({ name: 'c', curves: [...a.curves] });
    expect(() => job.run([{ samples, clip: unloaded, time: 0, weight: 1 }], out)).toThrow(/not loaded/);
    job.run([{ samples, clip: a, time: 0, weight: 1 }], out);
    expect(Array.from(out.samples)).toEqual([1, 2, 3, 0]);
    for (const o of [job, out, samples, resource]) o.dispose();
  });
});
