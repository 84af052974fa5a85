import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, AnimResource, type UniformKeys } from '../../src/anim/index.js';
import { packedKeyedKeys, packedXyz } from '../../src/anim/packed-keys.js';
import type { AnimCore } from '../../src/core/index.js';
import { resample } from '../../src/core/index.js';
import { resampleClip } from '../../src/core/resample.js';
import { curveTrack, writeTrackValues } from '../../src/export/curve-track.js';
import { referenceSample } from '../../src/reference/sample-clip.js';
import { expectCloseRelative, sampleArrays } from '../helpers/compare.js';
import { createCore } from '../helpers/core.js';
import { haveFixtures } from '../helpers/fixtures.js';
import { type GltfExpected, gltfExpected, openGltfFixture } from '../helpers/gltf-fixtures.js';

const have = haveFixtures('gltf');
const files = have ? Object.keys((gltfExpected() as GltfExpected).files) : [];
const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength)));

/** A clip of packed VEC3 translation and scale keys (as the glTF reader holds them), LINEAR or STEP, a rotation beside them. */
function packedClip(step: boolean): AnimClip {
  const times = Float32Array.of(0, 0.3, 0.5, 1.1);
  const xyz = (seed: number) => Float32Array.from({ length: 12 }, (_, i) => Math.sin(seed + 1.7 * i) * (i % 5 === 0 ? -3 : 2));
  const interpolation = step ? 'step' : 'linear';
  const curves: AnimCurve[] = [
    { curveType: 'translation', target: { joint: 'a', property: 'translation' }, active: true, keys: packedKeyedKeys(times, { data: xyz(1), width: 3 }, interpolation) },
    { curveType: 'rotation', target: { joint: 'a', property: 'rotation' }, active: true, keys: { encoding: 'keyed', times, values: Float32Array.of(0, 0, 0, 1, 0, 0.6, 0, 0.8, 0.6, 0, 0, -0.8, 0, 0, 1, 0), interpolation } },
    { curveType: 'scale', target: { joint: 'b', property: 'scale' }, active: true, keys: packedKeyedKeys(times, { data: xyz(2), width: 3 }, interpolation) },
    { curveType: 'scale', target: { joint: 'c', property: 'scale' }, active: true, keys: packedKeyedKeys(times, { data: Float32Array.of(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3), width: 3 }, interpolation) },
  ];
  return new AnimClip({ name: 'packed', curves });
}

describe.each(['simd', 'scalar'] as const)('a bake that keeps glTF VEC3 keys as x y z (resampleClip with packXyz, %s)', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  /** Every curve of `packed`'s bake has the float4 values of `resample`'s, bit for bit (w 0 included), and its tracks write the same VEC3 and VEC4 outputs. */
  const expectSameBake = (clip: AnimClip, fps: number) => {
    const plain = resample(core, clip, { fps, measureDeviation: false }).clip;
    const packed = resampleClip(core, clip, { fps, measureDeviation: false }, true).clip;
    expect(packed.keyCount).toBe(plain.keyCount);
    packed.curves.forEach((curve, i) => {
      const a = curveTrack(plain, plain.curves[i]!);
      const b = curveTrack(packed, curve);
      const width = curve.curveType === 'rotation' ? 4 : 3;
      const outA = new Float32Array(width * a.times.length + 1);
      const outB = new Float32Array(width * b.times.length + 1);
      writeTrackValues(a, outA, 1, width);
      writeTrackValues(b, outB, 1, width);
      expect(bits(outB), `curve ${i} written`).toEqual(bits(outA));
      expect(bits(b.values), `curve ${i} track values`).toEqual(bits(a.values));
      if (plain.curves[i]!.keys.encoding === 'uniform') expect(bits(curve.keys.encoding === 'uniform' ? curve.keys.values : new Float32Array()), `curve ${i} keys`).toEqual(bits((plain.curves[i]!.keys as { values: Float32Array }).values));
    });
    return packed;
  };

  it.each([false, true])('packed translation and scale keys bake to the float4 bake (step %s); a constant one collapses to one key', (step) => {
    const clip = packedClip(step);
    const packed = expectSameBake(clip, 7);
    // x y z kept for the packed translation and scales, float4 for the rotation.
    expect(packed.curves.map((c) => packedXyz(c.keys as UniformKeys)?.length)).toEqual([3 * packed.keyCount, undefined, 3 * packed.keyCount, 3 * packed.keyCount]);
    expect(curveTrack(packed, packed.curves[3]!).times.length).toBe(1);
    expect(curveTrack(packed, packed.curves[0]!).times.length).toBe(packed.keyCount);
  });

  // resampleKeys samples RESAMPLE_BATCH (4) key times, then copies each curve's run of keys, whole
  // float4s but for the last key of all: 2 … 9 keys take every remainder, with and without keys after a batch.
  it.each([0.9, 1, 2, 3, 4, 5, 6, 7])('at %s fps every baked key is the sampler\'s sample bit for bit (x y z and float4 curves side by side) and the reference twin\'s', (fps) => {
    for (const step of [false, true]) {
      const clip = packedClip(step);
      const packed = resampleClip(core, clip, { fps, measureDeviation: false }, true).clip;
      const resource = new AnimResource({ format: 'test', clips: [clip] });
      core.load(resource);
      const buffer = core.createSampleBuffer(clip);
      const ref = sampleArrays(clip.curves.length);
      try {
        expect(packed.keyCount).toBe(Math.ceil(1.1 * fps) + 1);
        for (let k = 0; k < packed.keyCount; k++) {
          core.sampler.sample(clip, k * packed.keyDuration, buffer);
          referenceSample(clip, k * packed.keyDuration, ref);
          packed.curves.forEach((curve, i) => {
            const keys = curve.keys as UniformKeys;
            const xyz = packedXyz(keys);
            const baked = xyz ? Float32Array.of(xyz[3 * k]!, xyz[3 * k + 1]!, xyz[3 * k + 2]!, 0) : keys.values.slice(4 * k, 4 * k + 4);
            expect(bits(baked), `curve ${i} key ${k}`).toEqual(bits(buffer.samples.slice(4 * i, 4 * i + 4)));
            expectCloseRelative(baked, ref.samples.subarray(4 * i, 4 * i + 4));
          });
        }
      } finally {
        buffer.dispose();
        resource.dispose();
      }
    }
  });

  it.each(files)('%s: every clip bakes at 30 fps to the float4 bake', async (file) => {
    const resource = await openGltfFixture(file);
    core.load(resource);
    for (const clip of resource.clips) expectSameBake(clip, 30);
    resource.dispose();
  });
});
