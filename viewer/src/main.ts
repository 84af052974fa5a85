// The viewer page: opens files, plays clips on a skeleton (or MRTK hands), plots curves, runs the
// stress mode, and exposes `window.__animcore` for the browser tests.
import { type AnimClip, AnimCore, type AnimResource, type WasmBuild } from 'animcore';
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CharacterView } from './character-view.js';
import { drawCurve } from './curve-panel.js';
import { looseSkeleton } from './loose-skeleton.js';
import { meteorSkins } from './meteor-skin.js';
import { MrtkView } from './mrtk-view.js';
import { fetchFiles, type NamedBytes, openFileSet, readFiles } from './open-files.js';
import { type StressEngine, StressView } from './stress.js';
import { installTestHook } from './test-hook.js';
import { SampleWorkerClient } from './worker-client.js';

/** The bundled examples (`examples/`, served at the site root), each a file set. */
const EXAMPLES: Record<string, string[]> = {
  'nebula wave': ['nebula/wave.nax3'],
  'AAF teapot-man': ['aaf/teapot-man.scene.aaf', 'aaf/teapot-man.anim.aaf'],
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

interface State {
  files: NamedBytes[];
  resource: AnimResource | null;
  clip: AnimClip | null;
  view: CharacterView | MrtkView | null;
  stress: StressView | null;
  time: number;
  playing: boolean;
  samplingMs: number;
  frames: number;
}
const state: State = { files: [], resource: null, clip: null, view: null, stress: null, time: 0, playing: true, samplingMs: 0, frames: 0 };

/** Opens a file set and shows its first clip. */
async function open(files: NamedBytes[]): Promise<AnimResource> {
  stopStress();
  state.view?.dispose();
  state.view = null;
  state.resource?.dispose();
  const opened = await openFileSet(files);
  state.files = files;
  state.resource = opened.resource;
  core.load(opened.resource);
  const r = opened.resource;
  $('facts').textContent = [
    `${opened.main} (${files.length} file${files.length > 1 ? 's' : ''})`,
    `format: ${r.format} (${opened.handler.description})`,
    `clips: ${r.clips.length}, skeleton: ${r.skeleton ? `${r.skeleton.size} joints` : r.format === 'mrtk' ? 'none (camera and hands)' : 'none (joints drawn unconnected)'}, meshes: ${r.meshes.length}`,
    `build: ${core.simd ? 'SIMD' : 'scalar'}`,
    `info: ${JSON.stringify(r.info, null, 1)}`,
    `warnings: ${r.warnings.length === 0 ? 'none' : '\n- ' + r.warnings.join('\n- ')}`,
  ].join('\n');
  const clips = $<HTMLSelectElement>('clips');
  clips.replaceChildren(...r.clips.map((c, i) => new Option(`${c.name} (${c.duration.toFixed(2)} s, ${c.curves.length} curves)`, String(i))));
  selectClip(0);
  return r;
}

function selectClip(index: number): void {
  const resource = state.resource!;
  const clip = resource.clips[index]!;
  state.view?.dispose();
  state.clip = clip;
  state.time = 0;
  state.view = resource.format === 'mrtk' ? new MrtkView(core, clip) : new CharacterView(core, resource, clip, resource.skeleton ?? looseSkeleton(clip), resource.format === 'meteor' ? meteorSkins(state.files) : []);
  const view = state.view;
  // Meteor files keep their Z-up file space; turn them upright for three.js's Y-up.
  if (view instanceof CharacterView && String(resource.info.space ?? '').includes('Z-up')) view.body.rotation.x = -Math.PI / 2;
  scene.add(view.root);
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
  $<HTMLSelectElement>('curves').replaceChildren(
    ...clip.curves.map((c, i) => new Option(`${i}: ${c.target.joint ?? '-'} ${c.target.property} (${c.curveType}, ${c.keys.encoding}${c.active ? '' : ', inactive'})`, String(i))),
  );
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
  state.time = Number((e.target as HTMLInputElement).value) * (state.clip?.duration ?? 0);
};
$<HTMLButtonElement>('stress').onclick = () => {
  if (state.stress) stopStress();
  else startStress(Number($<HTMLInputElement>('instances').value), $<HTMLSelectElement>('engine').value as StressEngine).catch((e) => alert(e));
};
const picker = $<HTMLInputElement>('picker');
picker.onchange = async () => open(await readFiles(picker.files ?? [])).catch((e) => alert(e));
const drop = document.body;
drop.ondragover = (e) => {
  e.preventDefault();
  $('drop').classList.add('over');
};
drop.ondragleave = () => $('drop').classList.remove('over');
drop.ondrop = async (e) => {
  e.preventDefault();
  $('drop').classList.remove('over');
  if (e.dataTransfer) open(await readFiles(e.dataTransfer.files)).catch((err) => alert(err));
};
for (const [name, urls] of Object.entries(EXAMPLES)) {
  const a = document.createElement('a');
  a.textContent = name;
  a.onclick = async () => open(await fetchFiles(urls)).catch((e) => alert(e));
  $('examples').append(a);
}

// The frame loop.
let last = performance.now();
let fps = 0;
function tick(now: number): void {
  const dt = Math.min(0.1, (now - last) / 1000);
  last = now;
  fps = 0.9 * fps + 0.1 * (dt > 0 ? 1 / dt : 0);
  const clip = state.clip;
  if (clip && state.playing) {
    state.time += dt * Number($<HTMLInputElement>('speed').value);
    if (!$<HTMLInputElement>('loop').checked && state.time >= clip.duration) {
      state.time = clip.duration;
      setPlaying(false);
    } else if (clip.duration > 0) {
      state.time %= clip.duration;
    }
  }
  const start = performance.now();
  state.view?.update(state.time);
  const sampling = state.stress ? state.stress.update(state.playing ? dt : 0) : performance.now() - start;
  state.samplingMs = 0.9 * state.samplingMs + 0.1 * sampling;
  if (clip) {
    $<HTMLInputElement>('scrub').value = String(clip.duration > 0 ? state.time / clip.duration : 0);
    $('time').textContent = `${state.time.toFixed(3)} s / ${clip.duration.toFixed(3)} s`;
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
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

installTestHook({
  core,
  canvas,
  state,
  open: async (urls) => open(await fetchFiles(urls)),
  setPlaying,
  startStress,
  stopStress,
  worker: () => new SampleWorkerClient(),
});
