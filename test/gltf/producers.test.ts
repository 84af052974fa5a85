// glTF files other tools write (issue 15, "glTF in"): the fixtures through gltfpack and glTF-Transform
// (test/helpers/producer-corpus.ts, made at test time), read by animcore and checked against two
// oracles: three.js's GLTFLoader + AnimationMixer on the same file (meshoptimizer's decoder given to
// it as three.js apps do), and the fixture itself (within what the producer's quantisation allows).
// rewriteGltf of each is validator-clean and keeps meshes, skins and materials.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import validator from 'gltf-validator';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { AnimationMixer, LoopOnce, type Mesh, type Object3D } from 'three';
import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimClip, AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { rewriteGltf } from '../../src/export/gltf-rewrite.js';
import { gltfSource, openGltf } from '../../src/formats/gltf/index.js';
import { animcore, tmp, tree } from '../helpers/cli.js';
import { createCore } from '../helpers/core.js';
import { haveFixtures } from '../helpers/fixtures.js';
import { packGlb, unpackGlb } from '../helpers/glb.js';
import { openGltfFixture } from '../helpers/gltf-fixtures.js';
import { GLTFPACK_OPTIONS, gltfpackFile, gltfTransformFile, type ProducedFile, PRODUCER_FIXTURES, TRANSFORMS } from '../helpers/producer-corpus.js';

const have = haveFixtures('gltf');

/** Opens a produced file as a file-based caller does (its `.bin`s read beside it). */
function openProduced(p: ProducedFile): Promise<AnimResource> {
  return openGltf({ gltf: p.files.get(p.main)!, resources: (uri) => p.files.get(uri) });
}

/** Key times of a clip's curves (every key of every curve), sorted and unique. */
function keyTimes(clip: AnimClip): number[] {
  const out = new Set<number>();
  for (const c of clip.curves) if (c.keys.encoding === 'keyed' || c.keys.encoding === 'cubic') for (const t of c.keys.times) out.add(t);
  return [...out].sort((a, b) => a - b);
}

/** Times to sample: every key, the middle of every key interval, before the first and after the last. */
function sampleTimes(clip: AnimClip): number[] {
  const keys = keyTimes(clip);
  const out = [-0.25, 0, clip.duration + 0.3];
  keys.forEach((t, i) => {
    out.push(t);
    if (i + 1 < keys.length) out.push(Math.fround((t + keys[i + 1]!) / 2));
  });
  return out;
}

/** Every curve's value (`joint/property` → the curve's components) of `clip` at time `t` through the core. */
function sampleCurves(core: AnimCore, clip: AnimClip, t: number): Map<string, number[]> {
  const buf = core.createSampleBuffer(clip);
  core.sampler.sample(clip, t, buf);
  const out = new Map<string, number[]>();
  clip.curves.forEach((c, i) => {
    const width = c.curveType === 'rotation' ? 4 : c.curveType === 'float' ? 1 : 3;
    out.set(`${c.target.joint}/${c.target.property}`, Array.from(buf.samples.subarray(4 * i, 4 * i + width)));
  });
  return out;
}

/** A `.glb` three.js's GLTFLoader reads in Node: images, textures and texture references left out (Node has no image decoder). */
function withoutTextures(glb: Uint8Array): Uint8Array {
  const { json, bin } = unpackGlb(glb);
  delete json.images;
  delete json.textures;
  delete json.samplers;
  if (json.materials) json.materials = json.materials.map((m: any) => ({ name: m.name, pbrMetallicRoughness: { baseColorFactor: m.pbrMetallicRoughness?.baseColorFactor ?? [1, 1, 1, 1] } }));
  return packGlb(json, bin);
}

function parseWithThree(glb: Uint8Array): Promise<GLTF> {
  const bytes = withoutTextures(glb);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).parse(buffer, '', resolve, reject));
}

/** three.js's value of a curve target on node object `o`: position, quaternion, scale or a morph influence. */
function threeValue(o: Object3D, property: string): number[] {
  if (property === 'translation') return o.position.toArray();
  if (property === 'rotation') return o.quaternion.toArray();
  if (property === 'scale') return o.scale.toArray();
  const k = Number(property.slice('weights/'.length));
  let mesh: Mesh | undefined;
  o.traverse((child) => {
    if (mesh === undefined && (child as Mesh).morphTargetInfluences !== undefined) mesh = child as Mesh;
  });
  return [mesh!.morphTargetInfluences![k]!];
}

/** Largest |a − b| over the components, relative to max(1, largest |b|): gltfpack's filters share one exponent per vector. */
function error(a: readonly number[], b: readonly number[]): number {
  let e = 0;
  let scale = 1;
  for (let i = 0; i < b.length; i++) {
    e = Math.max(e, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return e / scale;
}

/**
 * Every clip of `resource` against three.js's AnimationMixer playing the same clip (LoopOnce,
 * clamped: glTF holds the last key) on GLTFLoader's scene of the same file, node by node at
 * every key, between keys and after the end; below t = 0 three.js's action stays at 0 and so does
 * the clamped glTF value of a clip starting at 0 or later. Returns the largest error.
 */
async function againstThree(core: AnimCore, resource: AnimResource, glb: Uint8Array): Promise<number> {
  const gltf = await parseWithThree(glb);
  const nodes = new Map<number, Object3D>();
  for (const [object, a] of gltf.parser.associations) if (a?.nodes !== undefined && 'isObject3D' in object) nodes.set(a.nodes, object as Object3D);
  const joints = resource.skeleton!.joints;
  let worst = 0;
  expect(gltf.animations.length).toBe(resource.clips.length);
  resource.clips.forEach((clip, c) => {
    const mixer = new AnimationMixer(gltf.scene);
    const action = mixer.clipAction(gltf.animations[c]!);
    action.setLoop(LoopOnce, 1).clampWhenFinished = true;
    action.play();
    for (const t of sampleTimes(clip)) {
      action.reset(); // a clamped action is paused once finished
      mixer.setTime(Math.max(0, t));
      const ours = sampleCurves(core, clip, Math.max(0, t));
      for (const [key, value] of ours) {
        const [joint, property] = splitKey(key);
        const node = joints.findIndex((j) => j.name === joint);
        const theirs = threeValue(nodes.get(node)!, property);
        const e = error(value, theirs);
        if (e > 1e-4) throw new Error(`${clip.name} t=${t} ${key}: animcore ${value} vs three.js ${theirs}`);
        worst = Math.max(worst, e);
      }
    }
    mixer.stopAllAction();
  });
  return worst;
}

/** `joint/property` split where the property starts (`weights/<k>` holds a slash of its own). */
function splitKey(key: string): [string, string] {
  const m = /^(.*)\/(translation|rotation|scale|weights\/\d+)$/.exec(key)!;
  return [m[1]!, m[2]!];
}

/**
 * Which fixture curve each produced curve is (`joint/property` keys): the same key, else (a node
 * without a name, numbered anew, or gltfpack's new unnamed mesh node under the named one) the
 * first curve of the same property in channel order that no other curve took.
 */
function curvePairs(produced: AnimClip, original: AnimClip): Map<string, string> {
  const keyOf = (c: AnimClip['curves'][number]) => `${c.target.joint}/${c.target.property}`;
  const theirs = original.curves.map(keyOf);
  const ours = produced.curves.map(keyOf);
  const free = theirs.filter((k) => !ours.includes(k));
  const out = new Map<string, string>();
  produced.curves.forEach((c, i) => {
    const key = ours[i]!;
    const match = theirs.includes(key) ? key : free.splice(free.findIndex((k) => k.endsWith(`/${c.target.property}`)), 1)[0];
    if (match === undefined || !match.endsWith(`/${c.target.property}`)) throw new Error(`${produced.name}: curve ${key} is not the fixture's`);
    out.set(key, match);
  });
  return out;
}

/**
 * The produced clips against the fixture's (matched by clip name, curves by `curvePairs`): at the
 * produced curve's own key times, where a resampling producer wrote the fixture's value as it
 * quantised it, or at every sample time of the fixture's clip (`everyTime`, lossless producers).
 * Returns the largest difference per property kind.
 */
function againstFixture(core: AnimCore, produced: AnimResource, fixture: AnimResource, everyTime: boolean, skip: (curve: AnimClip['curves'][number]) => boolean = () => false): Record<string, number> {
  const worst: Record<string, number> = {};
  produced.clips.forEach((clip, c) => {
    const original = fixture.clips.find((o) => o.name === clip.name) ?? fixture.clips[c]!;
    const pairs = curvePairs(clip, original);
    const times = everyTime ? sampleTimes(original) : keyTimes(clip);
    for (const t of times) {
      const ours = sampleCurves(core, clip, t);
      const theirs = sampleCurves(core, original, t);
      for (const [key, value] of ours) {
        if (skip(clip.curves.find((c) => `${c.target.joint}/${c.target.property}` === key)!)) continue;
        const want = theirs.get(pairs.get(key)!)!;
        let v = value;
        // gltfpack may store a rotation key negated (same rotation): compare in the fixture's hemisphere.
        if (key.endsWith('/rotation') && v.reduce((s, x, i) => s + x * want[i]!, 0) < 0) v = v.map((x) => -x);
        const kind = splitKey(key)[1].replace(/\/\d+$/, '');
        worst[kind] = Math.max(worst[kind] ?? 0, error(v, want));
      }
    }
  });
  return worst;
}

/** rewriteGltf of the produced file (a 30 fps bake): validator-clean, and the input's meshes, skins, materials, nodes kept. */
async function rewriteChecks(core: AnimCore, resource: AnimResource): Promise<void> {
  const out = rewriteGltf(core, resource, gltfSource(resource)!, { fps: 30, tolerance: 0 });
  const glb = out.glb();
  const report = await validator.validateBytes(glb);
  const errors = report.issues.messages.filter((m: { severity: number }) => m.severity === 0);
  expect(errors, JSON.stringify(errors.slice(0, 3))).toEqual([]);
  const json = unpackGlb(glb).json;
  const input = gltfSource(resource)!.json as any;
  for (const k of ['nodes', 'meshes', 'skins', 'materials', 'textures', 'images']) expect(json[k]?.length ?? 0, k).toBe(input[k]?.length ?? 0);
  // Meshes as the input has them (accessors renumbered: the animations' are dropped).
  const shape = (meshes: any[] | undefined) => (meshes ?? []).map((m) => [m.name, m.primitives.map((p: any) => [Object.keys(p.attributes), p.material, p.mode, p.targets?.length])]);
  expect(shape(json.meshes)).toEqual(shape(input.meshes));
  // The mesh data comes out decoded: the same accessors' bytes as the input read.
  const back = await openGltf({ gltf: glb });
  expect(back.meshes.length).toBe(resource.meshes.length);
  expect(back.skins.map((s) => s.name)).toEqual(resource.skins.map((s) => s.name));
  for (const [i, mesh] of resource.meshes.entries()) expect(Array.from(back.meshes[i]!.positions)).toEqual(Array.from(mesh.positions));
  expect(json.extensionsRequired ?? []).toEqual((input.extensionsRequired ?? []).filter((e: string) => !e.endsWith('_meshopt_compression')));
}

describe.skipIf(!have)('glTF from gltfpack and glTF-Transform', () => {
  let core: AnimCore;
  const fixtures = new Map<string, AnimResource>();
  beforeAll(async () => {
    core = await createCore('simd');
    for (const f of PRODUCER_FIXTURES) {
      const r = await openGltfFixture(f);
      core.load(r);
      fixtures.set(f, r);
    }
  });

  const packCases = PRODUCER_FIXTURES.flatMap((fixture) => GLTFPACK_OPTIONS.map((options) => [fixture, options] as const));
  it.each(packCases)('%s through gltfpack %j: equals three.js, within quantisation of the fixture, rewritten validator-clean', async (fixture, options) => {
    const produced = await gltfpackFile(fixture, options);
    const resource = await openProduced(produced);
    core.load(resource);
    await againstThree(core, resource, produced.files.get(produced.main)!);
    const bits = (flag: string, fallback: number) => (options.includes(flag) ? Number(options[options.indexOf(flag) + 1]) : fallback);
    const worst = againstFixture(core, resource, fixtures.get(fixture)!, false);
    // gltfpack's quantisation: rotations to -ar bits per component (12 by default), translations
    // and scales to -at / -as bits of mantissa (16) under -cc's filters (-cc filters them even with
    // -noq); at least 5e-4 for rotations (gltfpack writes unit quaternions, SimpleSkin's keys are
    // 2.3e-4 off unit length, and its 30 Hz resampling slerps with an approximation: 3.4e-4 on
    // BoxAnimated's 90° between two keys), float rounding for the rest.
    const quantised = !options.includes('-noq') || options.includes('-cc');
    expect(worst.rotation ?? 0).toBeLessThanOrEqual(Math.max(5e-4, quantised ? 2 ** (1 - bits('-ar', 12)) : 0));
    expect(worst.translation ?? 0).toBeLessThanOrEqual(Math.max(1e-6, quantised ? 2 ** (1 - bits('-at', 16)) : 0));
    expect(worst.scale ?? 0).toBeLessThanOrEqual(Math.max(1e-6, quantised ? 2 ** (1 - bits('-as', 16)) : 0));
    expect(worst.weights ?? 0).toBeLessThanOrEqual(2 ** -8); // to 1/255 steps, -noq too (1/510 seen)
    await rewriteChecks(core, resource);
    resource.dispose();
  });

  // Every function set as .glb; two of them also as .gltf with an external .bin and with data: URIs.
  const transformCases = PRODUCER_FIXTURES.flatMap((fixture) =>
    TRANSFORMS.flatMap((set) => (['dedup prune', 'meshopt high'].includes(set.name) ? (['glb', 'external', 'embedded'] as const) : (['glb'] as const)).map((container) => [fixture, set.name, container] as const)),
  );
  it.each(transformCases)('%s through glTF-Transform %s (%s): equals the fixture, and three.js, rewritten validator-clean', async (fixture, name, container) => {
    const set = TRANSFORMS.find((t) => t.name === name)!;
    const produced = await gltfTransformFile(fixture, set, container);
    const resource = await openProduced(produced);
    core.load(resource);
    if (container === 'glb') await againstThree(core, resource, produced.files.get(produced.main)!);
    // Within the set's bound of the fixture, but for what it loses (TRANSFORMS; three.js agrees there).
    const original = fixtures.get(fixture)!;
    const json = gltfSource(original)!.json as any;
    const normalizedOutputs = (json.animations ?? []).some((a: any) => a.samplers.some((s: any) => json.accessors[s.output].normalized === true));
    const skip = (c: AnimClip['curves'][number]) => (set.loses.includes('cubic rotations') && c.keys.encoding === 'cubic' && c.curveType === 'rotation') || (set.loses.includes('normalized outputs') && normalizedOutputs);
    const worst = againstFixture(core, resource, original, true, skip);
    for (const [kind, e] of Object.entries(worst)) expect(e, kind).toBeLessThanOrEqual(set.bound);
    await rewriteChecks(core, resource);
    resource.dispose();
  });
});

describe.skipIf(!have)('the animcore command on gltfpack -cc output', () => {
  it('info, sample (as the library samples it) and resample to glb, gltf, json and nax3', async () => {
    const dir = tmp('gltfpack');
    const glb = await gltfpackFile('CesiumMan.glb', ['-cc']);
    const gltf = await gltfpackFile('RiggedSimple.glb', ['-c', '-ce', 'khr'], 'gltf');
    writeFileSync(join(dir, 'man.glb'), glb.files.get('out.glb')!);
    for (const [name, bytes] of gltf.files) writeFileSync(join(dir, name), bytes);
    const info = JSON.parse(animcore(['info', join(dir, 'man.glb'), '--json']).stdout);
    expect(info.format).toBe('gltf');
    expect(info.info.extensionsRequired).toContain('EXT_meshopt_compression');
    expect(info.clips).toHaveLength(1);
    const core = await createCore('simd');
    for (const [file, produced] of [['man.glb', glb], ['out.gltf', gltf]] as const) {
      const resource = await openProduced(produced);
      core.load(resource);
      const clip = resource.clips[0]!;
      const times = [0, 0.5, clip.duration / 3, clip.duration + 1];
      const r = animcore(['sample', join(dir, file), '--time', times.join(','), '--json']);
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      times.forEach((t, i) => {
        const want = sampleCurves(core, clip, t);
        for (const c of out[i].curves) expect(error(c.value.slice(0, want.get(`${c.target.joint}/${c.target.property}`)!.length), want.get(`${c.target.joint}/${c.target.property}`)!)).toBeLessThanOrEqual(1e-6);
      });
      resource.dispose();
    }
    for (const to of ['glb', 'gltf', 'json', 'nax3']) {
      const out = join(dir, `out-${to}`);
      const r = animcore(['resample', join(dir, 'man.glb'), join(dir, 'out.gltf'), '--fps', '30', '--to', to, '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      expect([...tree(out).keys()].length, to).toBeGreaterThanOrEqual(2);
    }
  });
});
