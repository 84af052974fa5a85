// Exports that viewers show right (issue 14 item 7): every example's and fixture's glTF export
// (default options: Y-up, metres, keys reduced) loaded by three.js's GLTFLoader in headless
// Chromium and played by its AnimationMixer. For every export, at three times of every clip, the
// world position of every joint node equals the source's model-space position sampled by animcore
// in the source's own axes and turned into glTF's Y-up, right-handed space by the rule written
// here (Z-up right-handed: (x, z, −y); Y-up left-handed: (−x, y, z)) — so the up axis is checked
// for every export, humanoid or not. Humanoids (skeletons that name a head or neck and two legs:
// the Nebula3 footman, Kila, Meteor's p0, the AAF teapot man, CesiumMan) must also stand: in the
// rest pose and at the start of every clip (later times may lie down: the footman's death) the box of the head, legs and the joints above them (arms
// left out: a T-pose is as wide as tall) is taller along +Y than wide or deep, and the head lies
// above the legs (within 45° of +Y). Screenshots of each
// export (front view, Y up, grid at the feet) go to test-results/upright-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, serveStatic } from '../../scripts/browser.mjs';
import { type AnimClip, type AnimResource, type SourceAxes, restValue } from '../../src/anim/index.js';
import { openFile } from '../../src/cli/open-file.js';
import { gltfSource } from '../../src/formats/gltf/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { exportGlb } from '../helpers/export-glb.js';
import { createCore } from '../helpers/core.js';
import { exportInputs } from '../helpers/export-inputs.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { gltfExpected } from '../helpers/gltf-fixtures.js';

const root = join(import.meta.dirname, '..', '..');
const results = join(root, 'test-results');
/** Fractions of each clip's duration at which poses are compared (before the end: three.js wraps a repeating clip there). */
const FRACTIONS = [0, 0.37, 0.81];

type Vec3 = [number, number, number];

/** The page: GLTFLoader + AnimationMixer; joint nodes drawn as points and bones so that every export shows. */
const PAGE = `<!doctype html><html><body style="margin:0">
<script type="importmap">{ "imports": { "three": "/three/build/three.module.js", "three/addons/": "/three/examples/jsm/" } }</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setSize(800, 600);
document.body.appendChild(renderer.domElement);
const view = new THREE.Scene();
view.background = new THREE.Color(0xf4f4f4);
view.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
let loaded = null;
const bones = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xd02020, depthTest: false }));
const joints = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({ color: 0x2040d0, size: 6, sizeAttenuation: false, depthTest: false }));
bones.renderOrder = joints.renderOrder = 1;
view.add(bones, joints);
let helpers = [];
function positions() {
  loaded.root.updateMatrixWorld(true);
  return loaded.nodes.map(([index, object]) => [index, ...object.getWorldPosition(new THREE.Vector3()).toArray()]);
}
window.__upright = {
  async load(url) {
    if (loaded) view.remove(loaded.root);
    const gltf = await new GLTFLoader().loadAsync(url);
    const root = gltf.scene ?? new THREE.Group();
    const nodes = [];
    for (const [object, association] of gltf.parser.associations) {
      if (object.isObject3D && association.nodes !== undefined) nodes.push([association.nodes, object]);
    }
    nodes.sort((a, b) => a[0] - b[0]);
    view.add(root);
    loaded = { root, nodes, animations: gltf.animations, mixer: new THREE.AnimationMixer(root), rest: null };
    loaded.rest = positions();
    return { animations: gltf.animations.map((a) => a.name), rest: loaded.rest };
  },
  /** Plays animation a (by index) on the mixer and reads every joint node's world position at each time. */
  pose(a, times) {
    loaded.mixer.stopAllAction();
    const action = loaded.mixer.clipAction(loaded.animations[a]);
    action.reset().play();
    return times.map((t) => {
      loaded.mixer.setTime(t);
      return positions();
    });
  },
  /** Draws the current pose: meshes, joints, bones to parents, a grid at the lowest point; front view along −Z. */
  render() {
    for (const h of helpers) view.remove(h);
    const points = positions();
    const box = new THREE.Box3();
    for (const [, x, y, z] of points) box.expandByPoint(new THREE.Vector3(x, y, z));
    box.union(new THREE.Box3().setFromObject(loaded.root, true));
    const size = box.getSize(new THREE.Vector3());
    const center = box.getCenter(new THREE.Vector3());
    const extent = Math.max(size.x, size.y, size.z, 1e-3);
    joints.geometry.setAttribute('position', new THREE.Float32BufferAttribute(points.flatMap((p) => p.slice(1)), 3));
    const segments = [];
    for (const [, object] of loaded.nodes) {
      if (object.parent && loaded.nodes.some(([, o]) => o === object.parent)) {
        segments.push(...object.parent.getWorldPosition(new THREE.Vector3()).toArray(), ...object.getWorldPosition(new THREE.Vector3()).toArray());
      }
    }
    bones.geometry.setAttribute('position', new THREE.Float32BufferAttribute(segments, 3));
    const grid = new THREE.GridHelper(2 * extent, 10);
    grid.position.set(center.x, box.min.y, center.z);
    const axes = new THREE.AxesHelper(extent / 4);
    axes.position.copy(box.min);
    helpers = [grid, axes];
    view.add(grid, axes);
    const camera = new THREE.PerspectiveCamera(40, 800 / 600, extent / 100, extent * 100);
    camera.position.set(center.x + 0.3 * extent, center.y + 0.3 * extent, center.z + 2.2 * extent);
    camera.lookAt(center);
    renderer.render(view, camera);
  },
};
</script></body></html>`;

/** The page's handle (PAGE above): joint node positions are rows of node index, x, y, z. */
interface UprightPage {
  load(url: string): Promise<{ animations: string[]; rest: number[][] }>;
  pose(animation: number, times: number[]): number[][][];
  render(): void;
}
declare const window: { __upright: UprightPage };

interface Case {
  name: string;
  path: string;
}

function cases(): Case[] {
  const gltf = haveFixtures('gltf') ? Object.keys(gltfExpected().files).map((f) => fixturePath('gltf', f)) : [];
  return [...exportInputs(), ...gltf].map((path) => ({ name: `${basename(dirname(path))}-${basename(path)}`, path }));
}

/** Source space → glTF (Y-up, right-handed), written here independently of src/export/axis-conversion.ts. */
function toYUp(axes: SourceAxes): (p: Vec3) => Vec3 {
  if (axes.up === 'z' && axes.handedness === 'right') return ([x, y, z]) => [x, z, -y];
  if (axes.up === 'y' && axes.handedness === 'left') return ([x, y, z]) => [-x, y, z];
  if (axes.up === 'y' && axes.handedness === 'right') return (p) => p;
  throw new Error(`no rule written for ${JSON.stringify(axes)}`);
}

type Mat = Float64Array;
function compose(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): Mat {
  const len = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  const [x, y, z, w] = len < 1e-6 ? [0, 0, 0, 1] : [q[0]! / len, q[1]! / len, q[2]! / len, q[3]! / len];
  // Column-major, as glTF: M = T · R · S.
  return Float64Array.of(
    (1 - 2 * (y * y + z * z)) * s[0]!, 2 * (x * y + z * w) * s[0]!, 2 * (x * z - y * w) * s[0]!, 0,
    2 * (x * y - z * w) * s[1]!, (1 - 2 * (x * x + z * z)) * s[1]!, 2 * (y * z + x * w) * s[1]!, 0,
    2 * (x * z + y * w) * s[2]!, 2 * (y * z - x * w) * s[2]!, (1 - 2 * (x * x + y * y)) * s[2]!, 0,
    t[0]!, t[1]!, t[2]!, 1,
  );
}
function multiply(a: Mat, b: Mat): Mat {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * c + r]! += a[4 * k + r]! * b[4 * c + k]!;
  return out;
}

/** Key of a joint's position: skeleton joint i is glTF node i in every export; curve-only joints go by name. */
const skeletonKey = (i: number) => `#${i}`;
const curveKey = (name: string) => `curve:${name}`;

/**
 * Model-space joint positions of `clip` at `time` (or the rest pose), in the source's axes:
 * skeleton joints composed through their parents, curve-only joints (MRTK, skeleton-less Nebula
 * clips) at their translation, or the rest value the export gives their node.
 */
function sourcePositions(core: AnimCore, resource: AnimResource, clip: AnimClip | null, time: number): Map<string, Vec3> {
  const sampled = new Map<string, Float32Array>();
  if (clip) {
    const buffer = core.createSampleBuffer(clip);
    core.sampler.sample(clip, time, buffer, { rotation: 'slerp' });
    clip.curves.forEach((c, i) => {
      const key = `${c.target.joint}\0${c.target.property}`;
      if (c.active && c.target.joint !== null && !sampled.has(key)) sampled.set(key, buffer.samples.slice(4 * i, 4 * i + 4));
    });
    buffer.dispose();
  }
  const out = new Map<string, Vec3>();
  const skeleton = resource.skeleton;
  const names = new Set(skeleton?.joints.map((j) => j.name));
  if (skeleton) {
    const model: Mat[] = [];
    for (const i of skeleton.order) {
      const j = skeleton.joints[i]!;
      // The export (and three.js) drive the first joint of a name.
      const first = skeleton.joints.findIndex((k) => k.name === j.name) === i;
      const get = (p: string, rest: readonly number[]) => (first && sampled.get(`${j.name}\0${p}`)) || rest;
      const local = compose(get('translation', j.rest.translation), get('rotation', j.rest.rotation), get('scale', j.rest.scale));
      model[i] = j.parent < 0 ? local : multiply(model[j.parent]!, local);
      out.set(skeletonKey(i), [model[i]![12]!, model[i]![13]!, model[i]![14]!]);
    }
  }
  for (const c of resource.clips.flatMap((k) => k.curves)) {
    const joint = c.target.joint;
    if (joint === null || names.has(joint) || c.target.property !== 'translation' || out.has(curveKey(joint))) continue;
    // The export's node rests at the first translation curve's rest value (src/export/joint-nodes.ts).
    const t = sampled.get(`${joint}\0translation`) ?? restValue(c.keys);
    out.set(curveKey(joint), [t[0]!, t[1]!, t[2]!]);
  }
  return out;
}

const HEAD = /head|neck|face/i;
const LEG = /leg|thigh|knee|calf|shin|foot|toe/i;

/**
 * A humanoid's body from its joint names: a head or neck and at least two leg joints on each side;
 * `body` is those joints and their ancestors (the arms left out: a T-pose is as wide as tall).
 */
function humanoid(resource: AnimResource): { head: number; legs: number[]; body: number[] } | null {
  const joints = resource.skeleton?.joints ?? [];
  const head = joints.findIndex((j) => HEAD.test(j.name));
  const legs = joints.flatMap((j, i) => (LEG.test(j.name) ? [i] : []));
  const side = (s: 'l' | 'r') => legs.filter((i) => new RegExp(`(^|[^a-z])(${s}|${s === 'l' ? 'left' : 'right'})([^a-z]|$)`, 'i').test(joints[i]!.name)).length;
  if (head < 0 || side('l') < 2 || side('r') < 2) return null;
  const body = new Set<number>();
  for (let i of [head, ...legs]) for (; i >= 0 && !body.has(i); i = joints[i]!.parent) body.add(i);
  return { head, legs, body: [...body] };
}

function extents(points: Vec3[]): Vec3 {
  return [0, 1, 2].map((a) => Math.max(...points.map((p) => p[a]!)) - Math.min(...points.map((p) => p[a]!))) as Vec3;
}

/** The exports the rule above must call humanoid (so that a lost joint name cannot skip the check). */
const HUMANOIDS = ['nebula-Unit_Footman.nax3', 'nebula-kila_layoutA.nax2', 'nebula-kila_layoutB.nax2', 'meteor-p0.amb', 'aaf-teapot-man.scene.aaf', 'gltf-CesiumMan.glb'];

const enabled = haveChromium('upright export browser test');

describe.skipIf(!enabled)('exports in three.js (GLTFLoader, AnimationMixer) in headless Chromium', () => {
  let dir: string;
  let server: { url: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let core: AnimCore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'animcore-upright-'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    mkdirSync(results, { recursive: true });
    server = await serveStatic({ '/': dir, '/three/': join(root, 'node_modules', 'three') });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => window.__upright !== undefined);
    core = await createCore('simd');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const all = cases();
  it('covers every example and fixture export', () => {
    expect(all.map((c) => c.name)).toEqual(expect.arrayContaining(['nebula-wave.nax3', 'aaf-teapot-man.scene.aaf', 'mrtk-hand-wave.bin']));
    if (haveFixtures('meteor') && haveFixtures('gltf')) expect(all.length).toBeGreaterThanOrEqual(20);
  });

  it.each(all)('$name: three.js plays the export in glTF axes; humanoids stand along +Y', async ({ name, path }) => {
    const { resource } = await openFile(path);
    core.load(resource);
    const { glb } = await exportGlb(core, resource);
    writeFileSync(join(dir, `${name}.glb`), glb);
    // Node index → joint name, as the file holds them (three.js renames nodes; indices stay).
    const written = (await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(glb)).getRoot();
    const nodeKeys = written.listNodes().map((n, i) => (i < (resource.skeleton?.joints.length ?? 0) ? skeletonKey(i) : curveKey(n.getName())));
    const animationNames = written.listAnimations().map((a) => a.getName());
    // A glTF input's animations keep the file's names ('' for none); the clips' names are unique.
    const source = gltfSource(resource);
    const clipNames = source ? source.collections.animations!.map((a) => (typeof a.name === 'string' ? a.name : '')) : resource.clips.map((c) => c.name);

    const loaded = await page.evaluate((url) => window.__upright.load(url), `${server.url}/${name}.glb`);
    // GLTFLoader names an unnamed animation `animation_<i>`.
    expect(loaded.animations).toEqual(animationNames.map((n, i) => (n === '' ? `animation_${i}` : n)));
    const yUp = toYUp(resource.axes);
    const human = humanoid(resource);
    expect(human !== null).toBe(HUMANOIDS.includes(name));
    let compared = 0;
    /** Three.js's positions (node index, x, y, z) against the source's, turned Y-up; returns them by joint name. */
    const check = (three: number[][], clip: AnimClip | null, time: number): Map<string, Vec3> => {
      const want = sourcePositions(core, resource, clip, time);
      const got = new Map<string, Vec3>();
      for (const [index, x, y, z] of three) {
        const joint = nodeKeys[index!]!;
        if (want.has(joint) && !got.has(joint)) got.set(joint, [x!, y!, z!]);
      }
      const points = [...got.values()];
      const size = Math.max(1e-3, Math.hypot(...extents(points)));
      for (const [joint, p] of got) {
        const w = yUp(want.get(joint)!);
        const d = Math.hypot(p[0] - w[0], p[1] - w[1], p[2] - w[2]);
        // Reduction keeps rotations within 0.1° per joint: positions move by a small part of the skeleton's size.
        if (!(d <= 5e-3 * size)) throw new Error(`${clip?.name ?? 'rest pose'} at ${time} s, ${joint}: three.js ${p}, source turned Y-up ${w} (${d} apart, skeleton ${size})`);
        compared++;
      }
      if (human && time === 0) {
        const [x, y, z] = extents(human.body.map((i) => got.get(skeletonKey(i))!));
        if (!(y > x && y > z)) throw new Error(`${clip?.name ?? 'rest pose'} at ${time} s: head, legs and spine span x ${x}, y ${y}, z ${z}: not upright`);
        const head = got.get(skeletonKey(human.head))!;
        const legs = human.legs.map((l) => got.get(skeletonKey(l))!);
        const up = [0, 1, 2].map((a) => head[a]! - legs.reduce((s, l) => s + l[a]!, 0) / legs.length);
        if (!(up[1]! > Math.SQRT1_2 * Math.hypot(...up))) throw new Error(`${clip?.name ?? 'rest pose'} at ${time} s: legs → head ${up} is not within 45° of +Y`);
      }
      return got;
    };

    check(loaded.rest, null, 0);
    let clipIndex = 0;
    for (const [a, animation] of animationNames.entries()) {
      // Exported animations keep the clips' order; clips with nothing to write are left out.
      while (clipNames[clipIndex] !== animation) clipIndex++;
      const clip = resource.clips[clipIndex++]!;
      const times = FRACTIONS.map((f) => f * clip.duration);
      const poses = await page.evaluate(([i, t]) => window.__upright.pose(i, t), [a, times] as [number, number[]]);
      poses.forEach((p, k) => check(p, clip, times[k]!));
      if (a === 0) {
        await page.evaluate(([i, t]) => window.__upright.pose(i, [t]), [0, 0.37 * clip.duration] as [number, number]);
        await page.evaluate(() => window.__upright.render());
        await page.screenshot({ path: join(results, `upright-${name}.png`) });
      }
    }
    // Every export shows joints three.js can place (MRTK's hands and head, Nebula's curve-only joints included).
    expect(compared).toBeGreaterThan(0);
    resource.dispose();
  });
});
