// Issue 14 item 1: Nebula2 blend-shape animations. A nax2 written for an nblendshapeanimator holds
// one curve per morph weight (x), not T/R/S triples; Nebula2 knows this from the animator in the
// scene script that loads it (nblendshapeanimator_main.cc Animate: keyArray[i].x → SetWeightAt(i)).
// Files written for the test: buildNax2 (layout B) and the generator's .n2 scene script.
import { Document, WebIO } from '@gltf-transform/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CurveType, type AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { toGltfDocument } from '../../src/export/gltf.js';
import { animJson } from '../../src/export/json.js';
import { nax3FromResource, nax3ToResource, openNebula, readN2Skeleton, readNax3, writeNax3 } from '../../src/formats/nebula/index.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { exportGlb } from '../helpers/export-glb.js';
import { openFormatFile } from '../../src/formats/open-files.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { blendShapeN2Text, n2Binary } from '../fuzz/gen-nebula.js';
import { buildNax2, clipContent } from './helpers.js';

// Three weights over 3 keys of 0.1 s: w0 falls 1 → 0.5 → 0, w1 rises 0 → 0.5 → 1 (its key 0 is
// all zeros: in a rotation slot, a zero quaternion), w2 is collapsed at 0.25. Every curve says
// Linear (3), as weight curves do; there is no Quat curve, so there is no 2/3 swap to report.
const W0 = [1, 0.5, 0];
const W1 = [0, 0.5, 1];
const FACE = buildNax2(
  'B',
  [{ numKeys: 3, keyStride: 2, keyTime: 0.1, loopType: 0, curves: [{ ipol: 3, first: 0 }, { ipol: 3, first: 1 }, { ipol: 3, first: -1, key: [0.25, 0, 0, 0] }] }],
  [0, 1, 2].flatMap((k) => [[W0[k]!, 0, 0, 0], [W1[k]!, 0, 0, 0]]),
);
const SCRIPT = blendShapeN2Text('anims:characters/face.nax2', 3);

describe('blend-shape animations (nblendshapeanimator)', () => {
  const cores = new Map<string, AnimCore>();
  beforeAll(async () => {
    for (const build of BUILDS) cores.set(build, await createCore(build));
  });

  it('the .n2 scene script names the animator, its animation, group and the node it drives', () => {
    expect(readN2Skeleton(SCRIPT)).toMatchObject({
      joints: [],
      animatorName: null,
      blendShapeAnimators: [{ name: 'facial', animation: 'anims:characters/face.nax2', group: 0, targets: [{ node: 'face', shapes: 3, weights: [0, 0, 0] }] }],
    });
  });

  it('with the .n2 that plays it: one float curve per weight on the blend-shape node, no skeleton, no ipol warning', () => {
    const res = openNebula({ animation: FACE, skeleton: SCRIPT }, { name: 'face.nax2' });
    expect(res.skeleton).toBeNull();
    expect(res.warnings).toEqual([]);
    expect(res.info).toMatchObject({ curves: 'blend-shape', blendShapeAnimators: [{ name: 'facial' }] });
    const clip = res.clips[0]!;
    expect(clip.name).toBe('facial');
    expect(clip.curves.map((c) => [c.curveType, c.target.joint, c.target.property, c.keys.encoding])).toEqual([
      [CurveType.Float, 'face', 'weights/0', 'uniform'],
      [CurveType.Float, 'face', 'weights/1', 'uniform'],
      [CurveType.Float, 'face', 'weights/2', 'static'],
    ]);
  });

  it.each(BUILDS)('%s: weights sample linearly, finite at t = 0 where the rotation reading had a zero quaternion', (build) => {
    const core = cores.get(build)!;
    const res = openNebula({ animation: FACE, skeleton: SCRIPT }, { name: 'face.nax2' });
    core.load(res);
    const clip = res.clips[0]!;
    const buf = core.createSampleBuffer(clip);
    for (const t of [0, 0.05, 0.1, 0.13, 0.2, 0.3]) {
      core.sampler.sample(clip, t, buf);
      const k = Math.min(t / 0.1, 2);
      const lerp = (w: number[]) => w[Math.floor(k)]! + (w[Math.ceil(k)]! - w[Math.floor(k)]!) * (k - Math.floor(k));
      expect(buf.sampleOf(0)[0]).toBeCloseTo(lerp(W0), 6);
      expect(buf.sampleOf(1)).toEqual([expect.closeTo(lerp(W1), 6), 0, 0, 0]);
      expect(buf.sampleOf(2)).toEqual([0.25, 0, 0, 0]);
    }
    buf.dispose();
    res.dispose();
  });

  it('without the .n2, the curves are read as transforms (the file does not say) and ONE warning points to blend shapes, not to an ipol swap', () => {
    const res = openNebula({ animation: FACE });
    expect(res.clips[0]!.curves.map((c) => c.curveType)).toEqual([CurveType.Translation, CurveType.Rotation, CurveType.Scale]);
    expect(res.warnings).toHaveLength(1);
    expect(res.warnings[0]).not.toMatch(/swap/);
    expect(res.warnings[0]).toMatch(/rotation slots .* Linear\(3\) and none is tagged Quat\(2\).*nblendshapeanimator.*curves: 'blend-shape'/);
  });

  it("the caller's option reads the same weights without the script", () => {
    const given = openNebula({ animation: FACE }, { curves: 'blend-shape' });
    const scripted = openNebula({ animation: FACE, skeleton: SCRIPT }, { name: 'face.nax2' });
    expect(given.warnings).toEqual([]);
    const strip = (r: AnimResource) => clipContent(r).map((c) => ({ ...(c as object), name: null, curves: (c as { curves: { target: unknown }[] }).curves.map((x) => ({ ...x, target: null })) }));
    expect(strip(given)).toEqual(strip(scripted));
    expect(given.clips[0]!.curves[1]!.target).toEqual({ joint: 'blendshape', property: 'weights/1' });
    expect(openNebula({ animation: FACE, skeleton: SCRIPT }, { name: 'face.nax2', curves: 'transform' }).clips[0]!.curves[1]!.curveType).toBe(CurveType.Rotation);
    expect(() => openNebula({ animation: FACE }, { curves: 'weights' as never })).toThrow(/transform' or 'blend-shape/);
  });

  it('an animator on another group names only its group; a script whose animator plays another file leaves a skin animation alone', () => {
    const two = buildNax2(
      'B',
      [0, 1].map(() => ({ numKeys: 1, keyStride: 1, curves: [{ ipol: 3, first: -1, key: [0.5, 0, 0, 0] as [number, number, number, number] }] })),
      [],
    );
    const res = openNebula({ animation: two, skeleton: blendShapeN2Text('anims:face.nax2', 1, 1) }, { name: 'face.nax2' });
    expect(res.clips.map((c) => c.name)).toEqual(['clip0', 'facial']);
    const skin = `new nskinanimator skin\nsel skin\n.beginjoints 1\n.setjoint 0 -1 0 0 0 0 0 0 1 1 1 1 "root"\n.endjoints\nsel ..\n${SCRIPT}`;
    expect(openNebula({ animation: FACE, skeleton: skin }, { name: 'body.nax2' }).info['curves']).toBeUndefined();
    expect(openNebula({ animation: FACE, skeleton: skin }, { name: 'face.nanim2' }).info['curves']).toBe('blend-shape');
  });

  it('a folder: the scene script whose animator names the animation is its companion, text or binary', async () => {
    for (const script of [new TextEncoder().encode(SCRIPT), n2Binary(SCRIPT).bytes]) {
      const files: Record<string, Uint8Array> = { 'face.nax2': FACE, 'scene.n2': script, 'rig.n2': new TextEncoder().encode('new nskinanimator s\nsel s\n.beginjoints 0\n.endjoints\n') };
      const opened = await openFormatFile({ name: 'face.nax2', bytes: FACE }, { folder: { names: () => Object.keys(files), read: (n) => files[n]! } });
      expect(opened.companions).toMatchObject([{ role: 'skeleton', file: 'scene.n2', how: 'content' }]);
      expect(opened.resource.clips[0]!.curves[0]!.target).toEqual({ joint: 'face', property: 'weights/0' });
      opened.resource.dispose();
    }
  });

  it('JSON and nax3 export plain float curves (the weight in x)', () => {
    const core = cores.get('simd')!;
    const res = openNebula({ animation: FACE, skeleton: SCRIPT }, { name: 'face.nax2' });
    const { json } = animJson(core, res, { tolerance: 0 });
    expect(json.clips[0]!.curves.map((c) => [c.type, c.target.property])).toEqual([
      ['float', 'weights/0'],
      ['float', 'weights/1'],
      ['float', 'weights/2'],
    ]);
    expect(json.clips[0]!.curves[0]!.times).toEqual([0, 0.1, 0.2].map(Math.fround));
    expect(json.clips[0]!.curves[0]!.values.filter((_, i) => i % 4 === 0)).toEqual(W0);

    const back = nax3ToResource(readNax3(writeNax3(nax3FromResource(res))));
    const curves = back.clips[0]!.curves;
    expect(curves.map((c) => c.curveType)).toEqual([CurveType.Float4, CurveType.Float4, CurveType.Float4]);
    expect(curves[1]!.keys.encoding === 'uniform' && Array.from(curves[1]!.keys.values).filter((_, i) => i % 4 === 0)).toEqual(W1);
    expect(curves[2]!.keys.encoding === 'static' && Array.from(curves[2]!.keys.value)).toEqual([0.25, 0, 0, 0]);
    res.dispose();
  });

  it("glTF: morph target weights on the node's mesh where one exists; otherwise a warning that they drive nothing", async () => {
    const core = cores.get('simd')!;
    const res = openNebula({ animation: FACE, skeleton: SCRIPT }, { name: 'face.nax2' });
    // The face as a glTF mesh with three morph targets (a node named after the nblendshapenode).
    const source = new Document();
    const buffer = source.createBuffer();
    const positions = () => source.createAccessor().setType('VEC3').setArray(new Float32Array(9)).setBuffer(buffer);
    const primitive = source.createPrimitive().setAttribute('POSITION', positions());
    for (let i = 0; i < 3; i++) primitive.addTarget(source.createPrimitiveTarget().setAttribute('POSITION', positions()));
    source.createScene().addChild(source.createNode('face').setMesh(source.createMesh().addPrimitive(primitive)));
    const face = await openGltf({ gltf: await new WebIO().writeBinary(source) });
    const { glb, exported } = await exportGlb(core, res, { tolerance: 0 }, face);
    expect(exported.warnings).toEqual([]);
    const channel = (await new WebIO().readBinary(glb)).getRoot().listAnimations()[0]!.listChannels()[0]!;
    expect([channel.getTargetNode()!.getName(), channel.getTargetPath()]).toEqual(['face', 'weights']);
    expect(Array.from(channel.getSampler()!.getOutput()!.getArray()!)).toEqual([1, 0, 0.25, 0.5, 0.5, 0.25, 0, 1, 0.25]);
    face.dispose();

    const bare = toGltfDocument(core, res, { tolerance: 0 });
    expect(bare.document.getRoot().listAnimations()).toEqual([]);
    expect(bare.warnings.join('\n')).toMatch(/weights\/0.*drive no glTF node property/);
    res.dispose();
  });
});
