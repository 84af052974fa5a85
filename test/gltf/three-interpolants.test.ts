import fc from 'fast-check';
import type { AnimationClip, Interpolant } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { openGltf } from '../../src/formats/gltf/index.js';
import { referenceSample } from '../../src/reference/index.js';
import { arbitraryChannels, RANDOM_TARGETS, randomGlb } from '../helpers/random-gltf.js';

/** three.js's GLTFLoader reading of `glb`: its one animation clip. */
function threeClip(glb: Uint8Array): Promise<AnimationClip> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', (gltf) => resolve(gltf.animations[0]!), reject));
}

const PROPERTY = { translation: 'position', rotation: 'quaternion', scale: 'scale', weights: 'morphTargetInfluences' } as const;

describe('the reference sampler against three.js on random glTF animations', () => {
  it('equals QuaternionLinearInterpolant, LinearInterpolant, DiscreteInterpolant and GLTFLoader’s cubic-spline interpolants (1e-4)', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryChannels, fc.array(fc.double({ min: -0.5, max: 6, noNaN: true }), { minLength: 1, maxLength: 8 }), async (channels, extra) => {
        const glb = randomGlb(channels);
        const resource = await openGltf({ gltf: glb });
        const clip = resource.clips[0]!;
        const three = await threeClip(glb);
        const out = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
        let curve = 0;
        channels.forEach((c, i) => {
          const track = three.tracks.find((t) => t.name === `n${i}.${PROPERTY[c.path]}`);
          if (track === undefined) throw new Error(`three.js made no track n${i}.${PROPERTY[c.path]}`);
          // set by setInterpolation (GLTFLoader's cubic-spline ones included); not in three's types
          const interpolant = (track as unknown as { createInterpolant(): Interpolant }).createInterpolant();
          // Exact key times, midpoints, and random times before, inside and after the keys.
          const times = [...c.times, ...c.times.slice(1).map((t, k) => (t + c.times[k]!) / 2), ...extra];
          const width = c.path === 'weights' ? RANDOM_TARGETS : 1;
          for (const t of times) {
            referenceSample(clip, t, out);
            const want = Array.from(interpolant.evaluate(t) as Float32Array);
            const got =
              c.path === 'weights'
                ? Array.from({ length: RANDOM_TARGETS }, (_, k) => out.samples[4 * (curve + k)]!)
                : Array.from(out.samples.subarray(4 * curve, 4 * curve + want.length));
            const close = (a: number[]) => want.every((w, k) => Math.abs(a[k]! - w) <= 1e-4 * Math.max(1, Math.abs(w)));
            // On an inner key's exact time three.js normalises a cubic-spline rotation; the spec
            // (and expected.json) keep the key as stored there: same direction.
            const direction = got.map((x) => x / Math.hypot(...got));
            if (!close(got) && !(c.path === 'rotation' && c.interpolation === 'CUBICSPLINE' && close(direction))) {
              throw new Error(`channel ${i} (${c.path} ${c.interpolation}) t=${t}: animcore ${got.join(', ')}, three.js ${want.join(', ')}`);
            }
          }
          curve += width;
        });
        expect(curve).toBe(clip.curves.length);
      }),
      { numRuns: 300 },
    );
  });
});
