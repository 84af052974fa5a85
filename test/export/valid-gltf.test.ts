// Issue 13 item 6: whatever a reader accepts exports as glTF that the Khronos validator passes with
// zero errors — clips whose curves are all inactive, non-unit and zero rest rotations, keyed
// clips with keys before 0 s, skins whose vertices name a joint twice or whose skeleton has
// several roots, meshes without triangles, and resources with no node at all.
import validator from 'gltf-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AnimClip,
  type AnimCore,
  type AnimCurve,
  AnimResource,
  type GltfExportOptions,
  type Joint,
  Skeleton,
  staticKeys,
  toGltfDocument,
  writeGlb,
} from '../../src/index.js';
import { createCore } from '../helpers/core.js';

const joint = (name: string, parent: number, rotation: [number, number, number, number] = [0, 0, 0, 1]): Joint => ({
  name,
  parent,
  rest: { translation: [0, 1, 0], rotation, scale: [1, 1, 1] },
});

const keyed = (name: string, property: 'translation' | 'rotation', times: number[], values: number[], active = true): AnimCurve => ({
  curveType: property,
  target: { joint: name, property },
  active,
  keys: { encoding: 'keyed', times: Float32Array.from(times), values: Float32Array.from(values) },
});

async function exportErrors(core: AnimCore, resource: AnimResource, options: GltfExportOptions = {}) {
  const exported = toGltfDocument(core, resource, options);
  const glb = await writeGlb(exported.document);
  const report = await validator.validateBytes(glb);
  return { errors: report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer}`), exported };
}

describe('glTF export of odd but accepted resources', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('a clip whose curves are all inactive: no empty animation, no buffer without byteLength', async () => {
    const clip = new AnimClip({ name: 'idle', curves: [keyed('a', 'translation', [0, 1], [0, 0, 0, 0, 1, 1, 1, 0], false)] });
    const resource = new AnimResource({ format: 'test', clips: [clip], skeleton: new Skeleton([joint('a', -1)]) });
    const { errors, exported } = await exportErrors(core, resource);
    expect(errors).toEqual([]);
    expect(exported.document.getRoot().listAnimations()).toHaveLength(0);
    expect(exported.warnings.join('\n')).toMatch(/clip "idle" has no active translation, rotation or scale curve/);
  });

  it('non-unit and zero rest rotations (AAF scenes, .bnc files) become unit node rotations', async () => {
    const skeleton = new Skeleton([joint('a', -1, [0, 0, 0, 2]), joint('b', 0, [0.5, 0.5, 0.5, 0.4]), joint('c', 1, [0, 0, 0, 0])]);
    const clip = new AnimClip({ name: 'c', curves: [keyed('a', 'translation', [0, 1], [0, 0, 0, 0, 1, 1, 1, 0])] });
    const { errors, exported } = await exportErrors(core, new AnimResource({ format: 'test', clips: [clip], skeleton }));
    expect(errors).toEqual([]);
    const nodes = exported.document.getRoot().listNodes();
    expect(nodes[0]!.getRotation()).toEqual([0, 0, 0, 1]);
    expect(nodes[2]!.getRotation()).toEqual([0, 0, 0, 1]);
    expect(Math.hypot(...nodes[1]!.getRotation())).toBeCloseTo(1, 12);
  });

  it('keys before 0 s (AAF, MRTK) start the glTF track at 0 with the value there', async () => {
    const clip = new AnimClip({
      name: 'early',
      curves: [
        keyed('a', 'translation', [-2, -1, 1, 3], [0, 0, 0, 0, 10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0]),
        keyed('a', 'rotation', [-1, 1], [0, 0, 0, 1, 0, Math.SQRT1_2, 0, Math.SQRT1_2]),
        keyed('b', 'translation', [-3, -2], [1, 0, 0, 0, 2, 0, 0, 0]),
      ],
    });
    const resource = new AnimResource({ format: 'test', clips: [clip], skeleton: new Skeleton([joint('a', -1), joint('b', 0)]) });
    const { errors, exported } = await exportErrors(core, resource, { tolerance: 0 }); // every key (reduction would drop the key at 1 s, in line with its neighbours)
    expect(errors).toEqual([]);
    const [translation, rotation, held] = exported.document.getRoot().listAnimations()[0]!.listSamplers();
    expect(Array.from(translation!.getInput()!.getArray()!)).toEqual([0, 1, 3]);
    expect(Array.from(translation!.getOutput()!.getArray()!).slice(0, 3)).toEqual([15, 0, 0]);
    // Half way along a 90° turn about y: 45°.
    const q = Array.from(rotation!.getOutput()!.getArray()!).slice(0, 4);
    [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 6));
    expect(Array.from(held!.getInput()!.getArray()!)).toEqual([0]);
    expect(Array.from(held!.getOutput()!.getArray()!)).toEqual([2, 0, 0]);
  });

  it('a skin whose vertices name a joint twice, on a skeleton with two roots, and an empty mesh', async () => {
    const skeleton = new Skeleton([joint('root', -1), joint('child', 0), joint('dummy', -1)]);
    const positions = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0);
    const skins = [
      {
        name: 'skin',
        positions,
        uvs: new Float32Array(6),
        influences: 2,
        // Vertex 0 names joint 1 twice (0.5 + 0.5); vertex 2 has a zero second weight.
        joints: Uint16Array.of(1, 1, 0, 2, 2, 0),
        weights: Float32Array.of(0.5, 0.5, 0.25, 0.75, 1, 0),
        indices: Uint32Array.of(0, 1, 2),
      },
      { name: 'empty', positions: new Float32Array(0), uvs: new Float32Array(0), influences: 1, joints: new Uint16Array(0), weights: new Float32Array(0), indices: new Uint32Array(0) },
    ];
    const clip = new AnimClip({ name: 'c', curves: [keyed('child', 'translation', [0, 1], [0, 0, 0, 0, 1, 1, 1, 0])] });
    const resource = new AnimResource({ format: 'test', clips: [clip], skeleton, skins });
    const { errors, exported } = await exportErrors(core, resource);
    expect(errors).toEqual([]);
    const primitive = exported.document.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    expect(Array.from(primitive.getAttribute('JOINTS_0')!.getArray()!).slice(0, 4)).toEqual([1, 0, 0, 0]);
    expect(Array.from(primitive.getAttribute('WEIGHTS_0')!.getArray()!).slice(0, 4)).toEqual([1, 0, 0, 0]);
    expect(exported.document.getRoot().listMeshes()).toHaveLength(1);
  });

  it('a resource without any node (curves that drive no joint) exports without an empty scene', async () => {
    const clip = new AnimClip({
      name: 'c',
      curves: [{ curveType: 'float4', target: { joint: null, property: 'float4' }, active: true, keys: staticKeys(1, 2, 3, 4) }],
    });
    const { errors } = await exportErrors(core, new AnimResource({ format: 'test', clips: [clip] }));
    expect(errors).toEqual([]);
  });
});
