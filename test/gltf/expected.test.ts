import { beforeAll, describe, expect, it } from 'vitest';
import { type AnimResource, bindJoints } from '../../src/anim/index.js';
import { referenceLocalToModel, referenceSample } from '../../src/reference/index.js';
import { haveFixtures } from '../helpers/fixtures.js';
import { channelCurves, type GltfExpected, gltfExpected, openGltfFixture } from '../helpers/gltf-fixtures.js';

const have = haveFixtures('gltf');
const expected: GltfExpected = have ? gltfExpected() : { files: {} };

/** |a − b| ≤ tol · max(1, |b|) for every value. */
function expectClose(actual: ArrayLike<number>, want: readonly number[], tol: number, what: string): void {
  expect(actual.length, what).toBeGreaterThanOrEqual(want.length);
  want.forEach((w, i) => {
    if (!(Math.abs(actual[i]! - w) <= tol * Math.max(1, Math.abs(w)))) throw new Error(`${what}[${i}]: ${actual[i]} vs expected ${w}`);
  });
}

/** a · b for column-major 4×4 matrices. */
function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  return Array.from({ length: 16 }, (_, i) => {
    const col = i >> 2;
    const row = i & 3;
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[4 * k + row]! * b[4 * col + k]!;
    return s;
  });
}

describe.skipIf(!have).each(Object.keys(expected.files))('%s through the reference sampler', (file) => {
  const want = expected.files[file]!;
  let resource: AnimResource;
  beforeAll(async () => {
    resource = await openGltfFixture(file);
  });

  it('has every node in the skeleton with its parent, and the skins with their joints', () => {
    const skeleton = resource.skeleton!;
    expect(skeleton.size).toBe(want.nodes);
    for (const node of want.restPose.nodes) expect(skeleton.joints[node.node]!.parent).toBe(node.parent ?? -1);
    expect(skeleton.skins.map((s) => Array.from(s.joints))).toEqual(want.skins.map((s) => s.joints));
    expect(skeleton.skins.map((s) => s.skeleton)).toEqual(want.skins.map((s) => s.skeleton ?? -1));
  });

  it('has one clip per animation with one curve per channel (weights: one per target) and their keys', () => {
    expect(resource.clips.length).toBe(want.animations.length);
    want.animations.forEach((a, i) => {
      const clip = resource.clips[i]!;
      expect(clip.name).toBe(a.name ?? `animation${i}`);
      expect(clip.duration).toBe(Math.fround(a.duration));
      expect(clip.metadata.start).toBe(Math.fround(a.start));
      expect(clip.rotation).toBe('slerp');
      const first = channelCurves(a);
      a.channels.forEach((ch, c) => {
        const curve = clip.curves[first[c]!]!;
        expect(curve.target).toEqual({ joint: resource.skeleton!.joints[ch.node]!.name, property: ch.path === 'weights' ? 'weights/0' : ch.path });
        const keys = curve.keys;
        if (keys.encoding !== 'keyed' && keys.encoding !== 'cubic') throw new Error(`channel ${c}: ${keys.encoding} keys`);
        expect(keys.encoding).toBe(ch.interpolation === 'CUBICSPLINE' ? 'cubic' : 'keyed');
        if (keys.encoding === 'keyed') expect(keys.interpolation).toBe(ch.interpolation === 'STEP' ? 'step' : 'linear');
        expect(keys.times.length).toBe(ch.keys);
        expect(keys.times[0]).toBe(Math.fround(ch.firstKey));
        expect(keys.times[ch.keys - 1]).toBe(Math.fround(ch.lastKey));
      });
      expect(clip.curves.length).toBe(a.channels.reduce((n, ch) => n + (ch.path === 'weights' ? ch.valueSize : 1), 0));
    });
  });

  it('samples every channel at every listed time as expected.json (1e-5)', () => {
    want.animations.forEach((a, i) => {
      const clip = resource.clips[i]!;
      const out = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
      const first = channelCurves(a);
      for (const sample of a.samples) {
        referenceSample(clip, sample.t, out);
        sample.values.forEach((value, c) => {
          const ch = a.channels[c]!;
          const got = ch.path === 'weights' ? value.map((_, k) => out.samples[4 * (first[c]! + k)]!) : out.samples.subarray(4 * first[c]!, 4 * first[c]! + value.length);
          expectClose(got, value, 1e-5, `animation ${i} t=${sample.t} channel ${c} (${ch.path}, ${ch.interpolation})`);
        });
      }
      for (const note of a.shortPathNotes) {
        referenceSample(clip, note.t, out);
        const q = out.samples.subarray(4 * first[note.channel]!, 4 * first[note.channel]! + 4);
        expectClose(q, note.spec, 1e-5, `short path at t=${note.t}`);
      }
    });
  });

  it('gives the model-space and joint matrices of expected.json (1e-3), at rest and animated', () => {
    const skeleton = resource.skeleton!;
    const skin = skeleton.skins[0];
    const check = (nodes: typeof want.restPose.nodes, matrices: Float32Array, what: string) => {
      for (const node of nodes) {
        const world = matrices.subarray(16 * node.node, 16 * node.node + 16);
        expectClose(world, node.world, 1e-3, `${what} node ${node.node} world`);
        if (node.jointMatrix === undefined) continue;
        const k = Array.from(skin!.joints).indexOf(node.node);
        expectClose(multiply(world, skin!.inverseBindMatrices.subarray(16 * k, 16 * k + 16)), node.jointMatrix, 1e-3, `${what} node ${node.node} jointMatrix`);
      }
    };
    const rest = new Float32Array(16 * skeleton.size);
    referenceLocalToModel({ samples: new Float32Array(0), counts: new Uint8Array(0) }, bindJoints([], skeleton), rest);
    check(want.restPose.nodes, rest, 'rest pose');
    want.animations.forEach((a, i) => {
      const clip = resource.clips[i]!;
      const binding = bindJoints(clip.curves, skeleton);
      const out = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
      const matrices = new Float32Array(16 * skeleton.size);
      for (const frame of a.modelSpace) {
        referenceSample(clip, frame.t, out);
        referenceLocalToModel(out, binding, matrices);
        check(frame.nodes, matrices, `animation ${i} t=${frame.t}`);
      }
    });
  });
});
