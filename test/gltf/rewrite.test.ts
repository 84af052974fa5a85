import validator from 'gltf-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimCore } from '../../src/core/index.js';
import { rewriteGltf } from '../../src/export/gltf-rewrite.js';
import { gltfSource, openGltf, readGltfContainer } from '../../src/formats/gltf/index.js';
import { decodeDataUri } from '../../src/formats/gltf/buffers.js';
import { createCore } from '../helpers/core.js';
import { haveFixtures } from '../helpers/fixtures.js';
import { type GltfExpected, gltfExpected, openGltfFixture } from '../helpers/gltf-fixtures.js';

const have = haveFixtures('gltf');
const files = have ? Object.keys((gltfExpected() as GltfExpected).files) : [];

type Json = Record<string, any>;

/** The bytes of an accessor's view (or an image's) in a file given as JSON and buffers. */
function viewBytes(json: Json, buffers: readonly Uint8Array[], view: number): { def: Json; bytes: Uint8Array } {
  const def = json.bufferViews[view];
  const from = def.byteOffset ?? 0;
  return { def, bytes: buffers[def.buffer]!.subarray(from, from + def.byteLength) };
}

/** Every accessor reference outside the animations, as [JSON path, accessor index]. */
function meshAndSkinAccessors(json: Json): [string, number][] {
  const out: [string, number][] = [];
  (json.meshes ?? []).forEach((mesh: Json, m: number) =>
    mesh.primitives.forEach((p: Json, k: number) => {
      for (const [name, a] of Object.entries(p.attributes)) out.push([`/meshes/${m}/primitives/${k}/attributes/${name}`, a as number]);
      if (p.indices !== undefined) out.push([`/meshes/${m}/primitives/${k}/indices`, p.indices]);
      (p.targets ?? []).forEach((t: Json, i: number) => {
        for (const [name, a] of Object.entries(t)) out.push([`/meshes/${m}/primitives/${k}/targets/${i}/${name}`, a as number]);
      });
    }),
  );
  (json.skins ?? []).forEach((s: Json, i: number) => s.inverseBindMatrices !== undefined && out.push([`/skins/${i}/inverseBindMatrices`, s.inverseBindMatrices]));
  return out;
}

/** An image's bytes: its view's, its data: URI's, or the external file's (from the reader). */
function imageBytes(json: Json, buffers: readonly Uint8Array[], i: number, external: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const image = json.images[i];
  if (image.bufferView !== undefined) return viewBytes(json, buffers, image.bufferView).bytes;
  return image.uri.startsWith('data:') ? decodeDataUri(image.uri, '') : external.get(image.uri)!;
}

const withoutKeys = (o: Json, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe.skipIf(!have)('glTF → glTF without a document model (rewriteGltf)', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it.each(files)('%s: meshes, skins, materials, textures and nodes kept byte for byte; validator-clean', async (file) => {
    const resource = await openGltfFixture(file);
    const source = gltfSource(resource)!;
    core.load(resource);
    const rewritten = rewriteGltf(core, resource, source, { fps: 30 });
    const glb = rewritten.glb();
    const container = readGltfContainer(glb);
    const out = container.json as Json;
    const outBuffers = [container.bin!];
    const input = source.json as Json;
    // Everything but animations, accessors, views, buffers, images (embedded) and the asset's extras is the input's JSON.
    for (const key of ['nodes', 'materials', 'textures', 'samplers', 'scenes', 'scene', 'cameras', 'extensionsUsed', 'extensionsRequired']) expect(out[key], key).toEqual(input[key] === undefined ? undefined : JSON.parse(JSON.stringify(input[key]))); // as JSON text: -0 is written 0
    expect((out.skins ?? []).map((s: Json) => withoutKeys(s, ['inverseBindMatrices']))).toEqual((input.skins ?? []).map((s: Json) => withoutKeys(s, ['inverseBindMatrices'])));
    expect(out.meshes?.length).toEqual(input.meshes?.length);
    // Each accessor a mesh or skin uses: the same definition and the same view bytes (stride included).
    const inRefs = meshAndSkinAccessors(input);
    const outRefs = meshAndSkinAccessors(out);
    expect(outRefs.map(([p]) => p)).toEqual(inRefs.map(([p]) => p));
    inRefs.forEach(([path, a], k) => {
      const b = outRefs[k]![1];
      const before = input.accessors[a];
      const after = out.accessors[b];
      expect(withoutKeys(after, ['bufferView', 'sparse']), path).toEqual(withoutKeys(before, ['bufferView', 'sparse']));
      if (before.bufferView === undefined) return;
      const v0 = viewBytes(input, source.buffers, before.bufferView);
      const v1 = viewBytes(out, outBuffers, after.bufferView);
      expect(withoutKeys(v1.def, ['buffer', 'byteOffset']), path).toEqual(withoutKeys(v0.def, ['buffer', 'byteOffset']));
      expect(Buffer.from(v1.bytes).equals(Buffer.from(v0.bytes)), `${path}: view bytes`).toBe(true);
      // Component-size alignment holds in the new buffer (glTF 2.0 §3.6.2.4).
      expect((v1.def.byteOffset + (after.byteOffset ?? 0)) % (after.componentType === 5126 || after.componentType === 5125 ? 4 : after.componentType >= 5122 ? 2 : 1)).toBe(0);
    });
    (input.images ?? []).forEach((_: Json, i: number) => {
      expect(Buffer.from(imageBytes(out, outBuffers, i, new Map())).equals(Buffer.from(imageBytes(input, source.buffers, i, source.images))), `image ${i}`).toBe(true);
    });
    // Only the animations' data changed: no view of the input survives twice, and the animations are new.
    expect(out.animations.length).toBe(resource.clips.length);
    const report = await validator.validateBytes(glb);
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    const back = await openGltf({ gltf: glb });
    expect(back.clips.map((c) => c.name)).toEqual(resource.clips.map((c) => c.name));
    expect(back.clips.map((c) => c.duration)).toEqual(rewritten.clips.map((c) => Math.fround(c.duration))); // key times are float32 in the file
    back.dispose();
    resource.dispose();
  });

  it('keeps interleaved (byteStride) mesh views as they are: a document model re-lays them out', async () => {
    const file = files.find((f) => f.endsWith('.gltf'))!;
    const resource = await openGltfFixture(file);
    const source = gltfSource(resource)!;
    const strided = (source.json.bufferViews as Json[]).filter((v) => v.byteStride !== undefined);
    expect(strided.length).toBeGreaterThan(0);
    core.load(resource);
    const out = readGltfContainer(rewriteGltf(core, resource, source, { fps: 30 }).glb()).json as Json;
    for (const v of strided) expect(out.bufferViews.some((w: Json) => w.byteStride === v.byteStride && w.byteLength === v.byteLength)).toBe(true);
    resource.dispose();
  });

  it('refuses up and scale (the file is written in its own axes) as a UsageError', async () => {
    const resource = await openGltfFixture(files[0]!);
    core.load(resource);
    expect(() => rewriteGltf(core, resource, gltfSource(resource)!, { up: 'z' })).toThrow(/own axes/);
    resource.dispose();
  });
});
