// Extensions that reach the animation data or the meshes without being decoded by animcore:
// KHR_animation_pointer channels (a node's TRS and weights read as core channels, other pointers
// left out) and KHR_draco_mesh_compression (animations, skeleton and skins read; the compressed
// primitives left out of `meshes` and kept byte for byte by rewriteGltf).
import validator from 'gltf-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimCore } from '../../src/core/index.js';
import { FormatError } from '../../src/errors.js';
import { rewriteGltf } from '../../src/export/gltf-rewrite.js';
import { gltfSource, openGltf } from '../../src/formats/gltf/index.js';
import { createCore } from '../helpers/core.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { concatAligned, f32Bytes, packGlb, unpackGlb } from '../helpers/glb.js';

const POINTER = 'KHR_animation_pointer';

/** One node animated by a core translation channel and by pointers to its scale and to a material factor. */
function pointerFile(scalePointer = '/nodes/0/scale'): Uint8Array {
  const { bin, offsets } = concatAligned([f32Bytes([0, 1]), f32Bytes([0, 0, 0, 1, 2, 3]), f32Bytes([1, 1, 1, 2, 0.5, 4]), f32Bytes([0.5, 0.25])]);
  const json = {
    asset: { version: '2.0' },
    extensionsUsed: [POINTER],
    buffers: [{ byteLength: bin.length }],
    bufferViews: offsets.map((byteOffset, i) => ({ buffer: 0, byteOffset, byteLength: [8, 24, 24, 8][i] })),
    accessors: [
      { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' },
      { bufferView: 2, componentType: 5126, count: 2, type: 'VEC3' },
      { bufferView: 3, componentType: 5126, count: 2, type: 'SCALAR' },
    ],
    materials: [{ pbrMetallicRoughness: { metallicFactor: 1 } }],
    nodes: [{ name: 'a' }],
    scenes: [{ nodes: [0] }],
    animations: [
      {
        name: 'move',
        samplers: [
          { input: 0, output: 1 },
          { input: 0, output: 3 },
          { input: 0, output: 2 },
        ],
        channels: [
          { sampler: 0, target: { node: 0, path: 'translation' } },
          { sampler: 1, target: { path: 'pointer', extensions: { [POINTER]: { pointer: '/materials/0/pbrMetallicRoughness/metallicFactor' } } } },
          { sampler: 2, target: { path: 'pointer', extensions: { [POINTER]: { pointer: scalePointer } } } },
        ],
      },
    ],
  };
  return packGlb(json, bin);
}

describe('KHR_animation_pointer channels', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it("reads a pointer to a node's scale as a core scale channel and leaves a material pointer out, naming it", async () => {
    const r = await openGltf({ gltf: pointerFile() });
    const clip = r.clips[0]!;
    expect(clip.curves.map((c) => [c.target.joint, c.target.property])).toEqual([
      ['a', 'translation'],
      ['a', 'scale'],
    ]);
    core.load(r);
    const buf = core.createSampleBuffer(clip);
    core.sampler.sample(clip, 0.5, buf);
    expect(Array.from(buf.samples.subarray(4, 7))).toEqual([1.5, 0.75, 2.5]);
    expect(r.warnings).toEqual(['/animations/0/channels/1: KHR_animation_pointer "/materials/0/pbrMetallicRoughness/metallicFactor" is not a node\'s translation, rotation, scale or weights; left out']);
  });

  it('rewriteGltf writes the node channels as core channels, validator-clean, and says the rest was left out', async () => {
    const r = await openGltf({ gltf: pointerFile() });
    core.load(r);
    const out = rewriteGltf(core, r, gltfSource(r)!, { fps: 10, tolerance: 0 });
    const glb = out.glb();
    const report = await validator.validateBytes(glb);
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    const { json } = unpackGlb(glb);
    expect(json.extensionsUsed).toBeUndefined();
    expect(json.animations[0].channels.map((c: any) => c.target)).toEqual([
      { node: 0, path: 'translation' },
      { node: 0, path: 'scale' },
    ]);
    expect(out.warnings).toContain('KHR_animation_pointer: node channels written as core channels, other pointer channels left out; left out of the output');
  });

  it('names the pointer of a node index out of range', async () => {
    const e = await openGltf({ gltf: pointerFile('/nodes/7/scale') }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect([(e as FormatError).pointer, (e as FormatError).code]).toEqual(['/animations/0/channels/2/target/extensions/KHR_animation_pointer/pointer', 'bad-index']);
  });
});

/**
 * RiggedSimple as a Draco producer writes it: the skinned primitive's attributes and indices in a
 * `KHR_draco_mesh_compression` view (here stand-in bytes: animcore never decodes them), its
 * accessors without a bufferView, the extension required.
 */
function dracoRiggedSimple(): { glb: Uint8Array; stream: Uint8Array } {
  const { json, bin } = unpackGlb(readFixture('gltf', 'RiggedSimple.glb'));
  const stream = Uint8Array.from({ length: 37 }, (_, i) => (i * 29 + 7) & 255);
  const { bin: joined, offsets } = concatAligned([bin, stream]);
  const primitive = json.meshes[0].primitives[0];
  const attributes: Record<string, number> = {};
  Object.keys(primitive.attributes).forEach((name, i) => (attributes[name] = i));
  for (const a of [...Object.values(primitive.attributes), primitive.indices] as number[]) {
    delete json.accessors[a].bufferView;
    delete json.accessors[a].byteOffset;
  }
  json.bufferViews.push({ buffer: 0, byteOffset: offsets[1], byteLength: stream.length });
  primitive.extensions = { KHR_draco_mesh_compression: { bufferView: json.bufferViews.length - 1, attributes } };
  json.buffers[0].byteLength = joined.length;
  json.extensionsUsed = [...(json.extensionsUsed ?? []), 'KHR_draco_mesh_compression'];
  json.extensionsRequired = [...(json.extensionsRequired ?? []), 'KHR_draco_mesh_compression'];
  return { glb: packGlb(json, joined), stream };
}

describe.skipIf(!haveFixtures('gltf'))('KHR_draco_mesh_compression', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('reads the animations, skeleton and skins; the Draco primitive is left out of meshes with a warning', async () => {
    const { glb } = dracoRiggedSimple();
    const r = await openGltf({ gltf: glb });
    const plain = await openGltf({ gltf: readFixture('gltf', 'RiggedSimple.glb') });
    expect(r.clips.map((c) => c.curves.map((k) => k.keys))).toEqual(plain.clips.map((c) => c.curves.map((k) => k.keys)));
    expect(r.skeleton!.skins).toEqual(plain.skeleton!.skins);
    expect(r.meshes.length + r.skins.length).toBe(0);
    expect(r.warnings.some((w) => /compressed with Draco \(KHR_draco_mesh_compression\), which animcore does not decode; left out/.test(w))).toBe(true);
  });

  it('rewriteGltf keeps the compressed primitive and its bytes as they are, validator-clean', async () => {
    const { glb, stream } = dracoRiggedSimple();
    const r = await openGltf({ gltf: glb });
    core.load(r);
    const out = rewriteGltf(core, r, gltfSource(r)!, { fps: 30, tolerance: 0 }).glb();
    const report = await validator.validateBytes(out);
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    const { json, bin } = unpackGlb(out);
    expect(json.extensionsRequired).toContain('KHR_draco_mesh_compression');
    const draco = json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression;
    const view = json.bufferViews[draco.bufferView];
    expect(Array.from(bin.subarray(view.byteOffset, view.byteOffset + view.byteLength))).toEqual(Array.from(stream));
    expect(json.skins).toEqual(unpackGlb(readFixture('gltf', 'RiggedSimple.glb')).json.skins.map((s: any) => ({ ...s, inverseBindMatrices: json.skins[0].inverseBindMatrices })));
  });
});
