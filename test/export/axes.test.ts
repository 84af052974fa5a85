import { type Document, NodeIO } from '@gltf-transform/core';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, bindJoints, Skeleton, type SourceAxes } from '../../src/anim/index.js';
import { openFile } from '../../src/cli/open-file.js';
import { type AnimCore, localToModel } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { axisConversion, convertResource } from '../../src/export/axis-conversion.js';
import { toGltfDocument, writeGlb } from '../../src/export/gltf.js';
import { createCore } from '../helpers/core.js';
import { EXAMPLES_DIR } from '../helpers/export-inputs.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { sampleGltfChannel } from '../helpers/gltf-sampler.js';

type V3 = [number, number, number];

/** The glb of `resource` exported with `options`, read back. */
async function exported(core: AnimCore, resource: AnimResource, options: Parameters<typeof toGltfDocument>[2]): Promise<Document> {
  return new NodeIO().readBinary(await writeGlb(toGltfDocument(core, resource, options).document));
}

/** World positions of every node of `doc` named in `names` with animation `a` applied at `time` (the spec sampler). */
function gltfWorld(doc: Document, a: number, time: number, names: readonly string[]): V3[] {
  for (const ch of doc.getRoot().listAnimations()[a]!.listChannels()) {
    const v = sampleGltfChannel(ch, time);
    const node = ch.getTargetNode()!;
    if (ch.getTargetPath() === 'translation') node.setTranslation(v as V3);
    else if (ch.getTargetPath() === 'rotation') node.setRotation(v as [number, number, number, number]);
    else node.setScale(v as V3);
  }
  const nodes = doc.getRoot().listNodes();
  return names.map((n) => nodes.find((x) => x.getName() === n)!.getWorldTranslation() as V3);
}

/** animcore's model-space joint positions of `clip` at `time` (slerp, as glTF). */
function animcoreWorld(core: AnimCore, resource: AnimResource, clip: AnimClip, time: number): V3[] {
  const skeleton = resource.skeleton!;
  const buffer = core.createSampleBuffer(clip);
  const out = new Float32Array(16 * skeleton.size);
  try {
    core.sampler.sample(clip, time, buffer, { rotation: 'slerp' });
    localToModel(core, buffer, bindJoints(clip.curves, skeleton), out);
  } finally {
    buffer.dispose();
  }
  return skeleton.joints.map((_, j) => [out[16 * j + 12]!, out[16 * j + 13]!, out[16 * j + 14]!]);
}

function extent(points: readonly V3[]): V3 {
  return [0, 1, 2].map((c) => Math.max(...points.map((p) => p[c]!)) - Math.min(...points.map((p) => p[c]!))) as V3;
}

describe('export axes (issue 14 item 6)', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('maps each source space to glTF (Y-up, right-handed) with a proper rotation or a mirror', () => {
    const cases: [SourceAxes, V3, 1 | -1][] = [
      // x y z of the source → where they land: a Z-up vector (0, 0, 1) goes up (+Y); a Meteor character facing −Y faces +Z.
      [{ up: 'z', handedness: 'right', basis: '' }, [0, 0, 1], 1],
      // Unity (Y-up, left-handed): x mirrored, so forward +Z stays +Z (UnityGLTF, glTFast).
      [{ up: 'y', handedness: 'left', basis: '' }, [0, 1, 0], -1],
      [{ up: 'y', handedness: 'right', basis: '' }, [0, 1, 0], 1],
    ];
    for (const [axes, up, det] of cases) {
      const c = axisConversion(axes);
      const map = (v: V3) => [0, 1, 2].map((i) => c.sign[i]! * v[c.from[i]!]!);
      expect(map(up).map((v) => v + 0)).toEqual([0, 1, 0]);
      expect(c.det).toBe(det);
    }
    const meteor = axisConversion({ up: 'z', handedness: 'right', basis: '' });
    expect([0, 1, 2].map((i) => meteor.sign[i]! * [0, -1, 0][meteor.from[i]!]! + 0)).toEqual([0, 0, 1]);
    expect(() => axisConversion(meteor.axes, { scale: 0 })).toThrow(UsageError);
    expect(() => axisConversion(meteor.axes, { up: 'x' as never })).toThrow(/up must be one of y, z, source/);
  });

  it.skipIf(!haveFixtures('meteor'))('Meteor (Z-up): the export stands along +Y; every joint is where animcore puts it, turned (x, z, −y); --up z keeps file space; --scale scales', async () => {
    const { resource } = await openFile(fixturePath('meteor', 'p0.amb'));
    core.load(resource);
    const names = resource.skeleton!.joints.map((j) => j.name);
    const doc = await exported(core, resource, { tolerance: 0 });
    expect(doc.getRoot().getAsset().extras).toEqual({ animcore: { up: 'y', sourceAxes: 'Z-up, right-handed', scale: 1 } });
    for (const a of [0, 3]) {
      const clip = resource.clips[a]!;
      for (const t of [0, 0.37 * clip.duration, 0.81 * clip.duration]) {
        const want = animcoreWorld(core, resource, clip, t).map(([x, y, z]) => [x, z, -y]);
        gltfWorld(doc, a, t, names).forEach((p, j) => p.forEach((v, c) => expect(v, `${clip.name} ${names[j]} at ${t}`).toBeCloseTo(want[j]![c]!, 3)));
      }
    }
    // Upright: at rest the character is taller along +Y than it is wide or deep, head above feet.
    const rest = (await exported(core, resource, { tolerance: 0 })).getRoot().listNodes();
    const world = (d: typeof rest, n: string) => d.find((x) => x.getName() === n)!.getWorldTranslation() as V3;
    const size = extent(names.map((n) => world(rest, n)));
    expect(size[1]).toBeGreaterThan(size[0]);
    expect(size[1]).toBeGreaterThan(4 * size[2]);
    expect(world(rest, 'd_top')[1]).toBeGreaterThan(30);
    // The skinned mesh too: feet on the ground (y ≈ 0), the head at the top, thin front to back (a T-pose is as wide as tall).
    const skin = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!;
    const lo = skin.getMin([0, 0, 0]);
    const hi = skin.getMax([0, 0, 0]);
    expect(lo[1]!).toBeGreaterThan(-1);
    expect(hi[1]!).toBeGreaterThan(35);
    expect(hi[1]! - lo[1]!).toBeGreaterThan(4 * (hi[2]! - lo[2]!));
    // --up z: file space as it is; --scale 0.01: lengths a hundredth.
    const zUp = await exported(core, resource, { tolerance: 0, up: 'z' });
    const scaled = await exported(core, resource, { tolerance: 0, scale: 0.01 });
    resource.skeleton!.joints.forEach((j) => {
      const node = zUp.getRoot().listNodes().find((n) => n.getName() === j.name)!;
      node.getTranslation().forEach((v, c) => expect(v).toBeCloseTo(j.rest.translation[c]!, 5));
      const small = scaled.getRoot().listNodes().find((n) => n.getName() === j.name)!;
      const [x, y, z] = j.rest.translation;
      small.getTranslation().forEach((v, c) => expect(v).toBeCloseTo([x, z, -y][c]! * 0.01, 6));
    });
    expect(scaled.getRoot().getAsset().extras).toMatchObject({ animcore: { scale: 0.01 } });
    resource.dispose();
  });

  it('MRTK (Unity, left-handed): x mirrored in positions, rotations (x, −y, −z, w), at every baked key', async () => {
    const { resource } = await openFile(join(EXAMPLES_DIR, 'mrtk', 'hand-wave.bin'));
    core.load(resource);
    const gltf = toGltfDocument(core, resource, { tolerance: 0 });
    const doc = await new NodeIO().readBinary(await writeGlb(gltf.document));
    // The source, resampled as the export is (60 keys/s), sampled by animcore at the key times.
    const source = resource.clips[0]!;
    const buffer = core.createSampleBuffer(source);
    const rotations = source.curves.map((c) => c.curveType === 'rotation');
    let compared = 0;
    for (const ch of doc.getRoot().listAnimations()[0]!.listChannels()) {
      const joint = ch.getTargetNode()!.getName();
      const path = ch.getTargetPath()!;
      const i = source.curves.findIndex((c) => c.target.joint === joint && c.target.property === path);
      for (const t of [0, 0.25, 0.5, 1, 1.5]) {
        core.sampler.sample(source, t, buffer);
        const [x, y, z, w] = buffer.sampleOf(i);
        const want = rotations[i] ? [x!, -y!, -z!, w!] : [-x!, y!, z!];
        const got = sampleGltfChannel(ch, t);
        const s = rotations[i] && got.reduce((d, v, c) => d + v * want[c]!, 0) < 0 ? -1 : 1;
        got.forEach((v, c) => expect(s * v, `${joint}.${path} at ${t}`).toBeCloseTo(want[c]!, 5));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
    buffer.dispose();
    resource.dispose();
  });

  it('Unity lanes are converted as keys: the converted MRTK clip samples as the source mirrored', async () => {
    const { resource } = await openFile(join(EXAMPLES_DIR, 'mrtk', 'hand-wave.bin'));
    const converted = convertResource(resource);
    expect(converted.axes).toMatchObject({ up: 'y', handedness: 'right' });
    core.load(resource);
    core.load(converted);
    const [a, b] = [resource.clips[0]!, converted.clips[0]!];
    const [ba, bb] = [core.createSampleBuffer(a), core.createSampleBuffer(b)];
    for (const t of [0.1, 0.77, 1.31]) {
      core.sampler.sample(a, t, ba, { rotation: 'raw' });
      core.sampler.sample(b, t, bb, { rotation: 'raw' });
      a.curves.forEach((c, i) => {
        const [x, y, z, w] = ba.sampleOf(i);
        const want = c.curveType === 'rotation' ? [x!, -y!, -z!, w!] : c.curveType === 'translation' ? [-x!, y!, z!, w!] : [x!, y!, z!, w!];
        bb.sampleOf(i).forEach((v, k) => expect(v).toBeCloseTo(want[k]!, 6));
      });
    }
    ba.dispose();
    bb.dispose();
    resource.dispose();
    converted.dispose();
  });

  it('a mirror rewinds triangles, so front faces stay front faces; normals turn with the mesh', () => {
    // A Z-up, left-handed space (Unreal's): one triangle in the ground plane, facing up (+Z).
    const resource = new AnimResource({
      format: 'generated',
      axes: { up: 'z', handedness: 'left', basis: 'test' },
      skeleton: new Skeleton([{ name: 'root', parent: -1, rest: { translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [1, 2, 3] } }]),
      meshes: [{ name: 'tri', joint: 0, positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), normals: Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1), uvs: new Float32Array(6), uvSize: 2, indices: Uint32Array.of(0, 1, 2) }],
      clips: [new AnimClip({ name: 'still', curves: [] })],
    });
    const faceNormal = (p: Float32Array, [a, b, c]: number[]) => {
      const e1 = [0, 1, 2].map((i) => p[3 * b! + i]! - p[3 * a! + i]!);
      const e2 = [0, 1, 2].map((i) => p[3 * c! + i]! - p[3 * a! + i]!);
      return [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    };
    // The triangle winds counter-clockwise around its normal (e1 × e2 along it) …
    expect(faceNormal(resource.meshes[0]!.positions, [0, 1, 2])[2]).toBeGreaterThan(0);
    const out = convertResource(resource);
    const mesh = out.meshes[0]!;
    expect(Array.from(mesh.normals.subarray(0, 3), (v) => v + 0)).toEqual([0, 1, 0]); // up is +Y
    const n = faceNormal(mesh.positions, Array.from(mesh.indices));
    expect(n[1]).toBeGreaterThan(0); // … and still does after the mirror (without rewinding e1 × e2 would point down)
    expect(out.skeleton!.joints[0]!.rest.scale).toEqual([1, 3, 2]); // per-axis scales permute, never negate
    expect(resource.meshes[0]!.indices).toEqual(Uint32Array.of(0, 1, 2)); // the input is untouched
  });
});
