import validator from 'gltf-validator';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AnimResource, bindJoints, Skeleton } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { referenceLocalToModel, referenceSample } from '../../src/reference/index.js';
import { rewriteGltf } from '../../src/export/gltf-rewrite.js';
import { gltfSource, openGltf, readGltfContainer } from '../../src/formats/gltf/index.js';
import { decodeDataUri } from '../../src/formats/gltf/buffers.js';
import { createCore } from '../helpers/core.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { packGlb } from '../helpers/glb.js';
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

  it.each(files)('%s: the same bytes when the output memory held other bytes before (every padding byte written)', async (file) => {
    const resource = await openGltfFixture(file);
    const source = gltfSource(resource)!;
    core.load(resource);
    const rewritten = rewriteGltf(core, resource, source, { fps: 30, tolerance: 0 });
    const clean = rewritten.glb();
    const files = rewritten.gltf('out');
    // Memory as malloc may hand it back: anything but zeros.
    const dirty = vi.spyOn(Buffer, 'allocUnsafe').mockImplementation((size: number) => Buffer.alloc(size, 0xa5));
    try {
      expect(Buffer.from(rewritten.glb()).equals(Buffer.from(clean))).toBe(true);
      const again = rewritten.gltf('out');
      again.forEach((f, i) => expect(Buffer.from(f.bytes).equals(Buffer.from(files[i]!.bytes)), f.name).toBe(true));
      expect(dirty).toHaveBeenCalled();
    } finally {
      dirty.mockRestore();
    }
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

  it('keeps the file\'s animation names as written: none stays none, a repeated name stays repeated (as glTF-Transform)', async () => {
    const { json, bin } = readGltfContainer(readFixture('gltf', 'InterpolationTest.glb'));
    const animations = (json as Json).animations as Json[];
    expect(animations.length).toBeGreaterThanOrEqual(3);
    const renamed = { ...(json as Json), animations: animations.map((a, i) => (i === 2 ? withoutKeys(a, ['name']) : i < 2 ? { ...a, name: 'Walk' } : a)) };
    const resource = await openGltf({ gltf: packGlb(renamed, bin) });
    expect(resource.clips.slice(0, 3).map((c) => c.name)).toEqual(['Walk', 'Walk#1', 'animation2']);
    core.load(resource);
    const out = readGltfContainer(rewriteGltf(core, resource, gltfSource(resource)!, { fps: 30 }).glb()).json as Json;
    expect(out.animations.map((a: Json) => a.name)).toEqual(animations.map((a, i) => (i === 2 ? undefined : i < 2 ? 'Walk' : a.name)));
    expect('name' in out.animations[2]).toBe(false);
    // A resource made from the file (a baked sequence, say) is written with its own clip names.
    const other = new AnimResource({ format: 'gltf', clips: [...resource.clips], skeleton: resource.skeleton! });
    const named = readGltfContainer(rewriteGltf(core, other, gltfSource(resource)!, { fps: 30 }).glb()).json as Json;
    expect(named.animations.slice(0, 3).map((a: Json) => a.name)).toEqual(['Walk', 'Walk#1', 'animation2']);
    resource.dispose();
  });

  /** Every node's model-space matrix (16 f32 each) at time `t` of clip `c` (or at rest, without one), by the plain-TypeScript reference. */
  const modelSpace = (resource: AnimResource, c: number | null, t: number): Float32Array => {
    const clip = c === null ? null : resource.clips[c]!;
    const curves = clip?.curves ?? [];
    const out = { samples: new Float32Array(4 * curves.length), counts: new Uint8Array(curves.length) };
    if (clip) referenceSample(clip, t, out);
    const matrices = new Float32Array(16 * resource.skeleton!.size);
    referenceLocalToModel(out, bindJoints(curves, resource.skeleton!), matrices);
    return matrices;
  };

  it.each(files)('%s: up z and scale 0.01 applied at the root nodes: the rest of the file kept, every model-space matrix the conversion times the unconverted one', async (file) => {
    const resource = await openGltfFixture(file);
    const source = gltfSource(resource)!;
    core.load(resource);
    const options = { fps: 30, tolerance: 0 };
    const plain = await openGltf({ gltf: rewriteGltf(core, resource, source, options).glb() });
    const glb = rewriteGltf(core, resource, source, { ...options, up: 'z', scale: 0.01 }).glb();
    const report = await validator.validateBytes(glb);
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    const out = readGltfContainer(glb).json as Json;
    const input = source.json as Json;
    for (const key of ['materials', 'textures', 'samplers', 'scenes', 'cameras', 'meshes']) expect(JSON.stringify(out[key]), key).toEqual(JSON.stringify(input[key]));
    expect(out.asset.extras.animcore).toMatchObject({ up: 'z', scale: 0.01 });
    const children = new Set((input.nodes as Json[]).flatMap((n) => n.children ?? []));
    (input.nodes as Json[]).forEach((n, i) => children.has(i) && expect(out.nodes[i], `node ${i}`).toEqual(JSON.parse(JSON.stringify(n))));
    const converted = await openGltf({ gltf: glb });
    // Y-up to Z-up (x, y, z) → (x, −z, y), times 0.01; column-major 4×4.
    const c = [0.01, 0, 0, 0, 0, 0, 0.01, 0, 0, -0.01, 0, 0, 0, 0, 0, 1];
    const check = (clip: number | null, t: number) => {
      const a = modelSpace(plain, clip, t);
      const b = modelSpace(converted, clip, t);
      for (let m = 0; m < a.length; m += 16) {
        const size = Math.max(1e-3, ...Array.from(a.subarray(m, m + 16), Math.abs));
        for (let col = 0; col < 4; col++) {
          for (let row = 0; row < 4; row++) {
            let want = 0;
            for (let k = 0; k < 4; k++) want += c[4 * k + row]! * a[m + 4 * col + k]!;
            expect(Math.abs(b[m + 4 * col + row]! - want), `${file} clip ${clip} t=${t} node ${m / 16} [${row}][${col}]`).toBeLessThanOrEqual(2e-6 * size);
          }
        }
      }
    };
    check(null, 0);
    plain.clips.forEach((clip, k) => {
      for (let i = 0; i <= 8; i++) check(k, (clip.duration * i) / 8 + (i % 2) * 0.013);
    });
    for (const r of [plain, converted, resource]) r.dispose();
  });

  it('with a scale above 1, reduces the other nodes\' translations so that their error in output units stays within the tolerance', async () => {
    const resource = await openGltfFixture('CesiumMan.glb');
    const source = gltfSource(resource)!;
    core.load(resource);
    const rewritten = (tolerance: number) => openGltf({ gltf: rewriteGltf(core, resource, source, { fps: 30, scale: 100, up: 'source', tolerance }).glb() });
    const exact = await rewritten(0);
    const reduced = await rewritten(1e-3);
    const roots = new Set(resource.skeleton!.joints.filter((j) => j.parent < 0).map((j) => j.name));
    const clip = (r: AnimResource) => r.clips[0]!;
    // Every other joint's translation: its curve's sample, or its rest value where the file leaves the channel out.
    const translations = (r: AnimResource) => {
      const at = new Map(clip(r).curves.map((c, i) => [`${c.target.joint}/${c.target.property}`, i]));
      const out = { samples: new Float32Array(4 * clip(r).curves.length), counts: new Uint8Array(clip(r).curves.length) };
      const joints = r.skeleton!.joints.filter((j) => !roots.has(j.name));
      return (t: number) => {
        referenceSample(clip(r), t, out);
        return joints.map((j) => {
          const i = at.get(`${j.name}/translation`);
          return i === undefined ? j.rest.translation : Array.from(out.samples.subarray(4 * i, 4 * i + 3));
        });
      };
    };
    const [a, b] = [translations(exact), translations(reduced)];
    let largest = 0;
    for (let t = 0; t <= clip(exact).duration; t += 1 / 240) {
      const [u, v] = [a(t), b(t)];
      u.forEach((p, k) => (largest = Math.max(largest, 100 * Math.hypot(p[0]! - v[k]![0]!, p[1]! - v[k]![1]!, p[2]! - v[k]![2]!))));
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(1e-3 * (1 + 1e-3));
    for (const r of [exact, reduced, resource]) r.dispose();
  });

  it('refuses a conversion the root nodes cannot hold (a mirror) as a UsageError', async () => {
    const resource = await openGltfFixture(files[0]!);
    const leftHanded = new AnimResource({ format: resource.format, clips: [...resource.clips], skeleton: resource.skeleton, axes: { up: 'y', handedness: 'left', basis: 'test' } });
    core.load(leftHanded);
    expect(() => rewriteGltf(core, leftHanded, gltfSource(resource)!, { up: 'y' })).toThrow(UsageError);
    resource.dispose();
  });

  it('refuses up and scale for a resource whose skeleton is not the file\'s node for node, as a UsageError', async () => {
    const resource = await openGltfFixture('CesiumMan.glb');
    const fewer = new AnimResource({ format: resource.format, clips: [...resource.clips], skeleton: new Skeleton(resource.skeleton!.joints.slice(0, 3)) });
    core.load(fewer);
    expect(() => rewriteGltf(core, fewer, gltfSource(resource)!, { scale: 2 })).toThrow(/own skeleton \(22 nodes\).*3 joints/);
    resource.dispose();
  });
});

describe('rewriteGltf: an animated node with a matrix (glTF 2.0 §3.11 forbids it)', () => {
  it('writes the decomposed matrix as the node\'s TRS, so the output is validator-clean and poses as the input did', async () => {
    const core = await createCore('simd');
    const s = Math.SQRT1_2;
    // Node 0: translation (1, 2, 3), 90° about Z, scale 2, as a matrix; node 1 keeps its (unanimated) matrix.
    const matrix = [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1];
    const childMatrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1];
    const bin = new Uint8Array(Float32Array.of(0, 1, 0, 0, 0, 4, 0, 0).buffer);
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: 32 }],
      bufferViews: [{ buffer: 0, byteLength: 8 }, { buffer: 0, byteOffset: 8, byteLength: 24 }],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
        { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' },
      ],
      scenes: [{ nodes: [0] }],
      nodes: [{ name: 'root', matrix, children: [1] }, { name: 'child', matrix: childMatrix }],
      animations: [{ samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
    };
    const input = packGlb(json, bin);
    expect((await validator.validateBytes(input)).issues.messages.map((m) => m.code)).toContain('ANIMATION_CHANNEL_TARGET_NODE_MATRIX');
    const resource = await openGltf({ gltf: input });
    core.load(resource);
    const glb = rewriteGltf(core, resource, gltfSource(resource)!, { fps: 30, tolerance: 0 }).glb();
    expect((await validator.validateBytes(glb)).issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    const out = readGltfContainer(glb).json as Json;
    expect(out.nodes[0].matrix).toBeUndefined();
    expect(out.nodes[0].translation).toEqual([1, 2, 3]);
    expect(out.nodes[0].rotation.map((v: number) => Number(v.toFixed(6)))).toEqual([0, 0, Number(s.toFixed(6)), Number(s.toFixed(6))]);
    expect(out.nodes[0].scale.map((v: number) => Number(v.toFixed(6)))).toEqual([2, 2, 2]);
    expect(out.nodes[0].children).toEqual([1]);
    expect(out.nodes[1]).toEqual({ name: 'child', matrix: childMatrix });
    const again = await openGltf({ gltf: glb });
    for (const t of [0, 0.25, 0.5, 1]) {
      const pose = (r: AnimResource) => {
        const curves = r.clips[0]!.curves;
        const samples = { samples: new Float32Array(4 * curves.length), counts: new Uint8Array(curves.length) };
        referenceSample(r.clips[0]!, t, samples);
        const m = new Float32Array(16 * r.skeleton!.size);
        referenceLocalToModel(samples, bindJoints(curves, r.skeleton!), m);
        return Array.from(m, (v) => Number(v.toFixed(5)));
      };
      expect(pose(again), `t=${t}`).toEqual(pose(resource));
    }
    resource.dispose();
  });
});
