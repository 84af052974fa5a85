import validator from 'gltf-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimCore } from '../../src/core/index.js';
import { rewriteGltf } from '../../src/export/gltf-rewrite.js';
import { gltfSource, openGltf } from '../../src/formats/gltf/index.js';
import { referenceSample } from '../../src/reference/index.js';
import { createCore } from '../helpers/core.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { type GltfExpected, gltfExpected, openGltfFixture } from '../helpers/gltf-fixtures.js';

const have = haveFixtures('gltf');
const files = have ? Object.keys((gltfExpected() as GltfExpected).files) : [];
const FPS = 30;

/** What a glTF holds besides animations, counted from its JSON. */
function contents(json: any): Record<string, number> {
  return Object.fromEntries(['nodes', 'meshes', 'skins', 'materials', 'textures', 'images', 'cameras'].map((k) => [k, json[k]?.length ?? 0]));
}

function jsonOf(glb: Uint8Array): any {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

describe.skipIf(!have)('glTF → glTF: only the animations change', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it.each(files)('%s resampled to 30 fps: validator-clean, same nodes, meshes, skins, materials and textures, clips as sampled', async (file) => {
    const source = await openGltfFixture(file);
    core.load(source);
    const exported = rewriteGltf(core, source, gltfSource(source)!, { fps: FPS, tolerance: 0 }); // every key at 1/30 s: no reduction
    const glb = exported.glb();
    const report = await validator.validateBytes(glb);
    const errors = report.issues.messages.filter((m) => m.severity === 0);
    expect(errors, JSON.stringify(errors.slice(0, 5))).toEqual([]);
    const json = jsonOf(glb);
    expect(json.animations.length).toBe(source.clips.length);
    const input = readFixture('gltf', file);
    const inputJson = file.endsWith('.glb') ? jsonOf(input) : JSON.parse(new TextDecoder().decode(input));
    expect(contents(json)).toEqual(contents(inputJson));
    expect(json.extensionsRequired ?? []).toEqual(inputJson.extensionsRequired ?? []);
    // Read back: every curve at every key time k / 30 within the clip equals the source sampled
    // there (rotations compared as unit quaternions: the exporter writes unit keys, as glTF requires).
    const back = await openGltf({ gltf: glb });
    source.clips.forEach((clip, c) => {
      const out = back.clips[c]!;
      expect(out.name).toBe(clip.name);
      const a = { samples: new Float32Array(4 * clip.curves.length), counts: new Uint8Array(clip.curves.length) };
      const b = { samples: new Float32Array(4 * out.curves.length), counts: new Uint8Array(out.curves.length) };
      for (let k = 0; k / FPS <= clip.duration; k++) {
        const t = k / FPS;
        referenceSample(clip, t, a);
        referenceSample(out, Math.fround(t), b);
        clip.curves.forEach((curve, i) => {
          const j = out.curves.findIndex((o) => o.target.joint === curve.target.joint && o.target.property === curve.target.property);
          const rotation = curve.curveType === 'rotation';
          // Rotations may come back negated (the exporter keeps neighbouring keys in one hemisphere).
          const sign = rotation && dot(a.samples, 4 * i, b.samples, 4 * j) < 0 ? -1 : 1;
          const la = rotation ? Math.hypot(...a.samples.subarray(4 * i, 4 * i + 4)) : 1;
          const lb = rotation ? Math.hypot(...b.samples.subarray(4 * j, 4 * j + 4)) : 1;
          for (let l = 0; l < (rotation ? 4 : curve.curveType === 'float' ? 1 : 3); l++) {
            const want = a.samples[4 * i + l]! / la;
            const got = (sign * b.samples[4 * j + l]!) / lb;
            if (!(Math.abs(got - want) <= 1e-4 * Math.max(1, Math.abs(want)))) throw new Error(`clip ${c} t=${t} ${curve.target.joint}.${curve.target.property}[${l}]: ${got} vs ${want}`);
          }
        });
      }
    });
    // .gltf: exactly <name>.gltf and <name>.bin (images in the .bin), validator-clean.
    const gltf = exported.gltf('out');
    expect(gltf.map((f) => f.name)).toEqual(['out.gltf', 'out.bin']);
    const files = new Map(gltf.map((f) => [f.name, f.bytes]));
    const gltfReport = await validator.validateBytes(files.get('out.gltf')!, { externalResourceFunction: async (uri: string) => files.get(decodeURIComponent(uri))! });
    const gltfErrors = gltfReport.issues.messages.filter((m) => m.severity === 0);
    expect(gltfErrors, JSON.stringify(gltfErrors.slice(0, 5))).toEqual([]);
    expect(contents(JSON.parse(new TextDecoder().decode(files.get('out.gltf'))))).toEqual(contents(inputJson));
    source.dispose();
  });
});

function dot(a: Float32Array, i: number, b: Float32Array, j: number): number {
  return a[i]! * b[j]! + a[i + 1]! * b[j + 1]! + a[i + 2]! * b[j + 2]! + a[i + 3]! * b[j + 3]!;
}
