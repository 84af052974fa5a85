import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimCore } from '../../src/core/index.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { loadSequence, PoseLayout } from '../../src/sequencer/index.js';
import { createCore } from '../helpers/core.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { f32Bytes, packGlb, unpackGlb } from '../helpers/glb.js';
import { type GltfExpected, gltfExpected, openGltfFixture } from '../helpers/gltf-fixtures.js';

// glTF characters through the sequencer (spec sequencer.md §0, §3): a cross-fade evaluated where
// both jobs weigh 0.5, the rotation mode left to the format (glTF: slerp). Expected values come
// from the fixtures' expected.json (channel values derived from the glTF specification by an
// independent script) and the rest pose read straight from the file's JSON, blended by the
// weighted rule written out here (three.js's running slerp, the rest filling up to τ = 1).

type V4 = [number, number, number, number];
const TIME = 0.7; // A (intercepted at 0.5, fade-out 0.4) and B (at 0.5, fade-in 0.4) weigh 0.5 each

let core: AnimCore;
beforeAll(async () => {
  core = await createCore('simd');
});

/** The spec's slerp (Appendix C): shortest arc, not renormalised. */
function slerp(a: V4, b: V4, t: number): V4 {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = d < 0 ? -1 : 1;
  d = Math.min(1, Math.abs(d));
  const th = Math.acos(d);
  if (th < 1e-6) return a.map((v, k) => v + (s * b[k]! - v) * t) as V4;
  return a.map((v, k) => (Math.sin((1 - t) * th) * v + s * Math.sin(t * th) * b[k]!) / Math.sin(th)) as V4;
}

/** A node's rest value of `path` from the file's JSON (glTF defaults for absent TRS). */
function restOf(node: { translation?: number[]; rotation?: number[]; scale?: number[] }, path: string): V4 {
  if (path === 'translation') return [...(node.translation ?? [0, 0, 0]), 0] as V4;
  if (path === 'rotation') return [...(node.rotation ?? [0, 0, 0, 1])] as V4;
  return [...(node.scale ?? [1, 1, 1]), 0] as V4;
}

/** Weighted rule, τ = 1, for one curve: `a`/`b` the two jobs' values (or null when inactive), 0.5 each. */
function blendHalf(path: string, a: V4 | null, b: V4 | null, rest: V4): V4 {
  const rotation = path === 'rotation';
  if (a && b) return rotation ? slerp(a, b, 0.5) : (a.map((v, k) => (v + b[k]!) / 2) as V4);
  const v = (a ?? b)!;
  return rotation ? slerp(v, rest, 0.5) : (v.map((x, k) => (x + rest[k]!) / 2) as V4);
}

function expectClose(got: ArrayLike<number>, want: V4, what: string, rotation: boolean): void {
  const s = rotation && [0, 1, 2, 3].reduce((d, k) => d + got[k]! * want[k]!, 0) < 0 ? -1 : 1;
  for (let k = 0; k < 4; k++) {
    if (!(Math.abs(got[k]! - s * want[k]!) <= 3e-5 * Math.max(1, Math.abs(want[k]!)))) {
      throw new Error(`${what}: got [${Array.from(got).join(', ')}], want [${want.join(', ')}]`);
    }
  }
}

interface Pair {
  file: string;
  /** Animation indices of jobs A and B. */
  animations: [number, number];
  /** The expected.json sample times the two clip times land on. */
  times: [number, number];
}

const pairs: Pair[] = [
  // One character clip against itself (a shared layout: the clip's own 57 channels).
  { file: 'CesiumMan.glb', animations: [0, 0], times: [1.2754168510437012, 0.2654166519641876] },
  // Clips on different nodes (every node × TRS, clips re-laid): STEP rotation → CUBICSPLINE rotation.
  { file: 'InterpolationTest.glb', animations: [3, 4], times: [1.1037499904632568, 0.6458333134651184] },
  // LINEAR translation → CUBICSPLINE scale.
  { file: 'InterpolationTest.glb', animations: [8, 2], times: [1.087499976158142, 1.1037499904632568] },
];

describe.runIf(haveFixtures('gltf'))('glTF characters through a cross-fade sequence (format rotation: slerp)', () => {
  for (const pair of pairs) {
    it(`${pair.file}: animations ${pair.animations.join(' → ')}`, async () => {
      const expected = (gltfExpected() as GltfExpected).files[pair.file]!;
      const json = unpackGlb(new Uint8Array(readFileSync(fixturePath('gltf', pair.file)))).json;
      const resource = await openGltfFixture(pair.file);
      const [clipA, clipB] = pair.animations.map((a) => resource.clips[a]!);
      const seq = loadSequence(core, resource, {
        rule: 'weighted',
        jobs: [
          { clip: pair.animations[0], fadeOut: 0.4, timeOffset: pair.times[0] - TIME },
          { clip: pair.animations[1], at: 0.5, fadeIn: 0.4, timeOffset: pair.times[1] - (TIME - 0.5) },
        ],
      });
      try {
        expect(seq.rotation).toBe('slerp');
        expect([clipA!.rotation, clipB!.rotation]).toEqual(['slerp', 'slerp']);
        const result = seq.update(TIME);
        expect(seq.jobs().map((j) => j.weight)).toEqual([expect.closeTo(0.5, 12), expect.closeTo(0.5, 12)]);
        // Each job's channel values at its clip time, by node and path.
        const valuesOf = (animation: number, t: number): Map<string, V4> => {
          const anim = expected.animations[animation]!;
          const sample = anim.samples.find((s) => s.t === t)!;
          return new Map(anim.channels.map((c, k) => [`${c.node}/${c.path}`, [...sample.values[k]!, 0, 0, 0, 0].slice(0, 4) as V4]));
        };
        const a = valuesOf(pair.animations[0], pair.times[0]);
        const b = valuesOf(pair.animations[1], pair.times[1]);
        let checked = 0;
        (json.nodes as object[]).forEach((node, n) => {
          for (const path of ['translation', 'rotation', 'scale']) {
            const i = seq.layout.indexOf(resource.skeleton!.joints[n]!.name, path);
            const key = `${n}/${path}`;
            if (i < 0) {
              // Only a shared layout leaves out what no clip animates.
              expect(seq.layout.shared && !a.has(key) && !b.has(key)).toBe(true);
              continue;
            }
            const rest = restOf(node, path);
            const got = result.samples.subarray(4 * i, 4 * i + 4);
            const va = a.get(key) ?? null;
            const vb = b.get(key) ?? null;
            const want = va || vb ? blendHalf(path, va, vb, rest) : rest;
            expectClose(got, want, `node ${n} ${path}`, path === 'rotation');
            expect(result.counts[i], `count of node ${n} ${path}`).toBe((va ? 1 : 0) + (vb ? 1 : 0));
            checked++;
          }
        });
        expect(checked).toBeGreaterThanOrEqual(pair.file === 'CesiumMan.glb' ? 57 : 36);
      } finally {
        seq.dispose();
      }
    });
  }
});

describe('glTF morph weights in the pose layout (spec §0)', () => {
  // Three nodes on meshes with two morph targets each: node weights, mesh weights, neither. One
  // animation drives node 0's weights, another node 2's translation (so that the clips do not
  // share one layout and the pose layout is every node's).
  function morphGlb(): Uint8Array {
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const bin = new Uint8Array([...f32Bytes(positions), ...f32Bytes([0, 1]), ...f32Bytes([0.2, 0.6, 0.4, 0.8]), ...f32Bytes([0, 0, 0, 1, 1, 1])]);
    const target = { POSITION: 0 };
    const primitive = { attributes: { POSITION: 0 }, targets: [target, target] };
    return packGlb(
      {
        asset: { version: '2.0' },
        buffers: [{ byteLength: bin.length }],
        bufferViews: [
          { buffer: 0, byteOffset: 0, byteLength: 36 },
          { buffer: 0, byteOffset: 36, byteLength: 8 },
          { buffer: 0, byteOffset: 44, byteLength: 16 },
          { buffer: 0, byteOffset: 60, byteLength: 24 },
        ],
        accessors: [
          { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
          { bufferView: 1, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
          { bufferView: 2, componentType: 5126, count: 4, type: 'SCALAR' },
          { bufferView: 3, componentType: 5126, count: 2, type: 'VEC3' },
        ],
        meshes: [
          { primitives: [primitive], weights: [0.25, 0.5] },
          { primitives: [primitive] },
        ],
        nodes: [
          { name: 'withNodeWeights', mesh: 0, weights: [0.75, 1] },
          { name: 'withMeshWeights', mesh: 0 },
          { name: 'withNone', mesh: 1 },
        ],
        scenes: [{ nodes: [0, 1, 2] }],
        animations: [
          { samplers: [{ input: 1, output: 2 }], channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }] },
          { samplers: [{ input: 1, output: 3 }], channels: [{ sampler: 0, target: { node: 2, path: 'translation' } }] },
        ],
      },
      bin,
    );
  }

  it('lists every target of every morphed node and rests at node weights, else mesh weights, else 0', async () => {
    const resource = await openGltf({ gltf: morphGlb() });
    const layout = new PoseLayout(resource);
    const weights = layout.curves.flatMap((c, i) => (c.property.startsWith('weights/') ? [[`${c.joint}.${c.property}`, layout.rest[4 * i]]] : []));
    expect(weights).toEqual([
      ['withNodeWeights.weights/0', 0.75],
      ['withNodeWeights.weights/1', 1],
      ['withMeshWeights.weights/0', 0.25],
      ['withMeshWeights.weights/1', 0.5],
      ['withNone.weights/0', 0],
      ['withNone.weights/1', 0],
    ]);
    // Re-laid clips keep every field of the clip but its curves (glTF's slerp, infinity, metadata …).
    for (const clip of resource.clips) {
      const laid = layout.clip(clip);
      expect(laid).not.toBe(clip);
      const { curves: _laidCurves, ...laidFields } = laid;
      const { curves: _curves, ...fields } = clip;
      expect(laidFields).toEqual(fields);
      expect(laid.rotation).toBe('slerp');
    }
    // A single job at weight 0.5 under the weighted rule: half the key value, half the rest.
    const seq = loadSequence(core, resource, { rule: 'weighted', jobs: [{ clip: 0, weight: 0.5 }] });
    const r = seq.update(0.5); // keys (0.2, 0.6) at 0 and (0.4, 0.8) at 1 → (0.3, 0.7)
    const at = (joint: string, k: number) => r.samples[4 * layout.indexOf(joint, `weights/${k}`)]!;
    expect(at('withNodeWeights', 0)).toBeCloseTo((0.3 + 0.75) / 2, 6);
    expect(at('withNodeWeights', 1)).toBeCloseTo((0.7 + 1) / 2, 6);
    expect(at('withMeshWeights', 1)).toBeCloseTo(0.5, 6); // no job defines it: the rest fills
    expect(at('withNone', 0)).toBe(0);
    seq.dispose();
  });
});
