// The viewer page: opens files, plays clips on a skeleton (or MRTK hands) or layers of clips
// (the Layers panel), plots curves, runs the stress mode, and exposes `window.__animcore` for the
// browser tests.
import {
  type AnimClip,
  AnimCore,
  type AnimCurve,
  type AnimResource,
  bakeSequence,
  detectFormat,
  gltfSource,
  type OpenedFileSet,
  planSet,
  rewriteGltf,
  type SequenceFile,
  toGltfDocument,
  type WasmBuild,
  writeGlb,
} from 'animcore';
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CharacterView } from './character-view.js';
import { drawCurve } from './curve-panel.js';
import { ErrorPanel } from './error-panel.js';
import { renderFacts } from './facts-panel.js';
import { LayersPanel } from './layers-panel.js';
import { looseSkeleton } from './loose-skeleton.js';
import { meteorSkins } from './meteor-skin.js';
import { MrtkView } from './mrtk-view.js';
import { fetchFiles, type NamedBytes, openFileSet, readFiles } from './open-files.js';
import { GltfView, type LoadedGltf, loadGltf } from './gltf-view.js';
import { type StressEngine, StressView } from './stress.js';
import { installTestHook } from './test-hook.js';
import { SampleWorkerClient } from './worker-client.js';

/** The bundled examples (`examples/`, served at the site root), each a file set. */
const EXAMPLES: Record<string, string[]> = {
  'nebula wave': ['nebula/wave.nax3'],
  'AAF teapot-man': ['aaf/teapot-man.scene.aaf', 'aaf/teapot-man.anim.aaf'],
  'MRTK hand wave': ['mrtk/hand-wave.bin'],
};

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const build = (new URLSearchParams(location.search).get('build') ?? 'auto') as WasmBuild;
const core = await AnimCore.create({ build });
const cores: Partial<Record<'simd' | 'scalar', Promise<AnimCore>>> = { [core.simd ? 'simd' : 'scalar']: Promise.resolve(core) };

const canvas = $<HTMLCanvasElement>('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1b1e26);
scene.add(new THREE.HemisphereLight(0xffffff, 0x334455, 2.5));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(3, 5, 2);
scene.add(sun);
const grid = new THREE.GridHelper(10, 20, 0x445066, 0x2c3240);
scene.add(grid);
const camera = new THREE.PerspectiveCamera(50, 1, 0.01, 10000);
camera.position.set(2, 2, 4);
const controls = new OrbitControls(camera, canvas);
const errors = new ErrorPanel($('errors'));

interface State {
  files: NamedBytes[];
  resource: AnimResource | null;
  clip: AnimClip | null;
  /** A glTF file as three.js reads it (drawn with its meshes, skins and morph targets), else null. */
  gltf: LoadedGltf | null;
  view: View | null;
  stress: StressView | null;
  time: number;
  playing: boolean;
  samplingMs: number;
  frames: number;
  /** Seconds the layers play before the loop starts over (their end, or a while past the last job's start when one plays forever); null without layers. */
  sequenceLength: number | null;
}
type View = CharacterView | MrtkView | GltfView;
const state: State = { files: [], resource: null, clip: null, gltf: null, view: null, stress: null, time: 0, playing: true, samplingMs: 0, frames: 0, sequenceLength: null };

/**
 * Opens a file set and shows its first clip. Everything is read and built before anything is
 * replaced, so a file that fails leaves the current one playing; the error goes to the error panel
 * (naming the file that opens the set) and is rethrown.
 */
async function open(files: NamedBytes[]): Promise<AnimResource> {
  let opened: OpenedFileSet;
  let view: View;
  let gltf: LoadedGltf | null = null;
  try {
    opened = await openFileSet(files);
  } catch (e) {
    errors.show(mainName(files), e);
    throw e;
  }
  const r = opened.resource;
  try {
    core.load(r);
    if (r.format === 'gltf') gltf = await drawnGltf(opened.main, files);
    view = createView(r, r.clips[0]!, files, gltf);
  } catch (e) {
    r.dispose();
    gltf?.source.resource.dispose();
    errors.show(opened.main, e);
    throw e;
  }
  const previous = state.resource;
  const previousGltf = state.gltf;
  state.files = files;
  state.resource = r;
  state.gltf = gltf;
  renderFacts($<HTMLTableElement>('facts'), opened, files.length, core.simd ? 'SIMD' : 'scalar');
  const clips = $<HTMLSelectElement>('clips');
  clips.replaceChildren(...r.clips.map((c, i) => new Option(`${c.name} (${c.duration.toFixed(2)} s, ${c.curves.length} curves)`, String(i))));
  layers.setResource(r, !(view instanceof MrtkView) && r.skeleton !== null);
  show(r.clips[0]!, view);
  previous?.dispose(); // after its view (show disposed it)
  previousGltf?.source.resource.dispose();
  return r;
}

/**
 * A glTF as three.js's GLTFLoader reads it, to draw its meshes, skins and morph targets; when
 * three.js cannot read it (an extension it lacks a decoder for), the error panel says so and the
 * clip is drawn on the skeleton instead.
 */
async function drawnGltf(main: string, files: readonly NamedBytes[]): Promise<LoadedGltf | null> {
  try {
    return await loadGltf(core, files.find((f) => f.name === main)!, files);
  } catch (e) {
    errors.show(`${main} (three.js GLTFLoader; drawn as a skeleton)`, e);
    return null;
  }
}

/** The name of the file that opens `files` (for error messages): the registry's choice, else all names. */
function mainName(files: readonly NamedBytes[]): string {
  const main = planSet(files.map((f) => ({ name: f.name, detection: detectFormat(f.bytes, f.name) }))).mains[0];
  return main?.name ?? files.map((f) => f.name).join(', ');
}

/** Switches to clip `index` of the open resource; on failure the current clip stays. */
function selectClip(index: number): void {
  const resource = state.resource!;
  const clip = resource.clips[index]!;
  try {
    show(clip, createView(resource, clip, state.files, state.gltf));
  } catch (e) {
    errors.show(`clip ${clip.name}`, e);
    $<HTMLSelectElement>('clips').value = String(resource.clips.indexOf(state.clip!));
  }
}

/**
 * The view of `clip`: MRTK hands and camera, a glTF's own scene, or the skeleton (a stand-in
 * without one) with meshes and skins.
 */
function createView(resource: AnimResource, clip: AnimClip, files: readonly NamedBytes[], gltf: LoadedGltf | null): View {
  if (resource.format === 'mrtk') return new MrtkView(core, clip);
  if (gltf) return new GltfView(core, gltf, resource.clips.indexOf(clip), resource);
  const view = new CharacterView(core, resource, clip, resource.skeleton ?? looseSkeleton(clip), resource.format === 'meteor' ? meteorSkins(files) : []);
  // Meteor files keep their Z-up file space; turn them upright for three.js's Y-up.
  if (String(resource.info.space ?? '').includes('Z-up')) view.body.rotation.x = -Math.PI / 2;
  return view;
}

/** Replaces the current view with `view` of `clip`, frames it, and lists the clip's curves (keeping the plotted one). */
function show(clip: AnimClip, view: View): void {
  const plotted = state.clip?.curves[Number($<HTMLSelectElement>('curves').value || 0)];
  stopStress();
  state.view?.dispose();
  state.view = view;
  state.clip = clip;
  state.time = 0;
  scene.add(view.root);
  playLayers(layers.file());
  // Frame the whole motion: the union of the poses at a few times over the clip.
  const box = new THREE.Box3();
  for (let k = 0; k <= 8; k++) {
    view.update((k / 8) * clip.duration);
    view.root.updateMatrixWorld(true);
    box.union(new THREE.Box3().setFromObject(view.root));
  }
  view.update(0);
  if (view instanceof CharacterView) view.setMarkerSize(Math.max(1e-3, box.getSize(new THREE.Vector3()).length() * 0.008));
  frame(view.root, box);
  const curves = $<HTMLSelectElement>('curves');
  curves.replaceChildren(
    ...clip.curves.map((c, i) => new Option(`${i}: ${c.target.joint ?? '-'} ${c.target.property} (${c.curveType}, ${c.keys.encoding}${c.active ? '' : ', inactive'})`, String(i))),
  );
  curves.value = String(sameCurve(clip, plotted));
}

/** The index in `clip` of the curve that drives what `previous` drove (joint, property, type), else 0. */
function sameCurve(clip: AnimClip, previous: AnimCurve | undefined): number {
  if (!previous) return 0;
  const i = clip.curves.findIndex((c) => c.target.joint === previous.target.joint && c.target.property === previous.target.property && c.curveType === previous.curveType);
  return Math.max(0, i);
}

/** Points the camera at `object`'s bounds (or at `box`). */
function frame(object: THREE.Object3D, box = new THREE.Box3()): void {
  object.updateMatrixWorld(true);
  if (box.isEmpty()) box.setFromObject(object);
  if (box.isEmpty()) return;
  const centre = box.getCenter(new THREE.Vector3());
  const size = Math.max(1e-3, box.getSize(new THREE.Vector3()).length());
  controls.target.copy(centre);
  camera.position.copy(centre).add(new THREE.Vector3(0.6, 0.5, 1).multiplyScalar(size));
  camera.near = size / 1000;
  camera.far = size * 1000;
  camera.updateProjectionMatrix();
  grid.scale.setScalar(size / 5);
  grid.position.y = box.min.y;
}

/**
 * Plays the Layers panel's sequence on the character (null: its clip again) from the current
 * time. @throws UsageError naming the JSON path when the resource cannot play it
 */
function playLayers(file: SequenceFile | null): void {
  const view = state.view;
  if (!view || view instanceof MrtkView) return;
  view.setSequence(file);
  const sequencer = view.sequencer;
  if (!sequencer || !file) {
    state.sequenceLength = null;
    return;
  }
  const end = sequencer.end();
  state.sequenceLength = Number.isFinite(end) ? Math.max(end, 1e-3) : Math.max(10, ...file.jobs.map((j) => (j.at ?? 0) + 5));
  view.update(state.time);
}

/** Seconds of what plays: the layers' length with layers, else the clip's duration. */
function duration(): number {
  return state.sequenceLength ?? state.clip?.duration ?? 0;
}

/** Offers `bytes` as a download named `name`. */
function download(bytes: Uint8Array | string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The open file set's name without its extension, for exported files. */
function baseName(): string {
  return mainName(state.files).replace(/\.[^.]*$/, '');
}

const layers = new LayersPanel({
  now: () => state.time,
  play: (file) => {
    try {
      playLayers(file);
    } catch (e) {
      errors.show('layers', e);
      throw e;
    }
  },
  // The blended result as `animcore resample --sequence` bakes it: 30 keys/s, reduced, from 0 to
  // the end of the last job (or to now, when a job plays forever); a glTF keeps its document.
  exportGlb: (file) => {
    const resource = state.resource!;
    const sequencer = (state.view as CharacterView | GltfView).sequencer!;
    const end = sequencer.end();
    (async () => {
      const baked = bakeSequence(core, resource, file, { fps: 30, length: Number.isFinite(end) ? end : Math.max(state.time, 1 / 30) });
      try {
        // A glTF keeps its own file (meshes, materials, textures): only the animations are rewritten.
        const source = gltfSource(resource);
        const glb = source ? rewriteGltf(core, baked, source).glb() : await writeGlb(toGltfDocument(core, baked).document);
        download(glb, `${baseName()}-sequence.glb`, 'model/gltf-binary');
      } finally {
        baked.dispose();
      }
    })().catch((e: unknown) => errors.show('export', e));
  },
  exportSequence: (file) => download(JSON.stringify(file, null, 2), `${baseName()}-sequence.json`, 'application/json'),
});

async function startStress(instances: number, engine: StressEngine): Promise<void> {
  stopStress();
  const resource = state.resource;
  if (!resource || !state.clip || resource.format === 'mrtk') throw new Error('stress mode needs a clip with joints');
  let stressCore = core;
  if (engine !== 'threejs') {
    cores[engine] ??= AnimCore.create({ build: engine });
    stressCore = await cores[engine];
    stressCore.load(resource);
  }
  state.view?.root.removeFromParent();
  state.stress = new StressView(stressCore, state.clip, resource.skeleton ?? looseSkeleton(state.clip), Math.min(10_000, Math.max(1, instances)), engine);
  scene.add(state.stress.root);
  frame(state.stress.root, state.stress.bounds());
  $('stress').textContent = 'Stop';
}

function stopStress(): void {
  if (!state.stress) return;
  state.stress.dispose();
  state.stress = null;
  if (state.view) scene.add(state.view.root);
  $('stress').textContent = 'Start';
}

// Controls.
const play = $<HTMLButtonElement>('play');
play.onclick = () => setPlaying(!state.playing);
function setPlaying(playing: boolean): void {
  state.playing = playing;
  play.textContent = playing ? 'Pause' : 'Play';
}
$<HTMLSelectElement>('clips').onchange = (e) => selectClip(Number((e.target as HTMLSelectElement).value));
$<HTMLInputElement>('scrub').oninput = (e) => {
  setPlaying(false);
  state.time = Number((e.target as HTMLInputElement).value) * duration();
};
$<HTMLButtonElement>('stress').onclick = () => {
  if (state.stress) stopStress();
  else startStress(Number($<HTMLInputElement>('instances').value), $<HTMLSelectElement>('engine').value as StressEngine).catch((e) => errors.show('stress mode', e));
};
const picker = $<HTMLInputElement>('picker');
// open() reports its own errors in the page; a failed open changes nothing else.
const ignore = () => undefined;
picker.onchange = async () => {
  await open(await readFiles(picker.files ?? [])).catch(ignore);
  picker.value = ''; // the same files picked again open again
};
const drop = document.body;
drop.ondragover = (e) => {
  e.preventDefault();
  $('drop').classList.add('over');
};
drop.ondragleave = () => $('drop').classList.remove('over');
drop.ondrop = async (e) => {
  e.preventDefault();
  $('drop').classList.remove('over');
  if (e.dataTransfer) await open(await readFiles(e.dataTransfer.files)).catch(ignore);
};
for (const [name, urls] of Object.entries(EXAMPLES)) {
  const a = document.createElement('a');
  a.textContent = name;
  a.onclick = async () => {
    const files = await fetchFiles(urls).catch((e: unknown) => errors.show(urls.join(', '), e));
    if (files) await open(files).catch(ignore);
  };
  $('examples').append(a);
}

// The frame loop.
let last = performance.now();
let fps = 0;
/** One frame; any error goes to the error panel (counted, not repeated) and the loop goes on. */
function tick(now: number): void {
  try {
    step(now);
  } catch (e) {
    setPlaying(false);
    errors.show(state.clip ? `clip ${state.clip.name}` : 'frame', e);
  }
  requestAnimationFrame(tick);
}
function step(now: number): void {
  const dt = Math.min(0.1, (now - last) / 1000);
  last = now;
  fps = 0.9 * fps + 0.1 * (dt > 0 ? 1 / dt : 0);
  const clip = state.clip;
  const length = duration();
  if (clip && state.playing) {
    state.time += dt * Number($<HTMLInputElement>('speed').value);
    if (!$<HTMLInputElement>('loop').checked && state.time >= length) {
      state.time = length;
      setPlaying(false);
    } else if (length > 0) {
      state.time %= length;
    }
  }
  const start = performance.now();
  state.view?.update(state.time);
  const sampling = state.stress ? state.stress.update(state.playing ? dt : 0) : performance.now() - start;
  state.samplingMs = 0.9 * state.samplingMs + 0.1 * sampling;
  const sequencer = state.view && !(state.view instanceof MrtkView) ? state.view.sequencer : null;
  layers.showJobs(sequencer?.jobs() ?? []);
  if (clip) {
    $<HTMLInputElement>('scrub').value = String(length > 0 ? state.time / length : 0);
    $('time').textContent = `${sequencer ? 'layers ' : ''}${state.time.toFixed(3)} s / ${length.toFixed(3)} s`;
    drawCurve($<HTMLCanvasElement>('curve'), core, clip, Number($<HTMLSelectElement>('curves').value || 0), state.time);
  }
  const { clientWidth: w, clientHeight: h } = canvas;
  if (canvas.width !== w || canvas.height !== h) {
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
  }
  controls.update();
  renderer.render(scene, camera);
  state.frames++;
  $('stats').textContent = `${fps.toFixed(0)} fps · sampling ${state.samplingMs.toFixed(2)} ms/frame${state.stress ? ` · ${state.stress.instances} × ${state.stress.engine}` : ''}`;
}
requestAnimationFrame(tick);

installTestHook({
  core,
  canvas,
  state,
  sequencer: () => (state.view && !(state.view instanceof MrtkView) ? state.view.sequencer : null),
  layers: () => layers.file(),
  open: async (urls) => open(await fetchFiles(urls)),
  setPlaying,
  startStress,
  stopStress,
  worker: () => new SampleWorkerClient(),
  drawn: () => (state.view instanceof GltfView ? state.view.drawn() : null),
});
