import type { AnimClip, AnimCore, AnimResource, AnimSequencer, SequenceFile } from 'animcore';
import type { StressEngine } from './stress.js';
import type { NamedBytes } from './open-files.js';
import type { SampleWorkerClient } from './worker-client.js';
import type { GltfView } from './gltf-view.js';

/** What the page shares with the hook. */
export interface TestHookDeps {
  core: AnimCore;
  canvas: HTMLCanvasElement;
  state: { files: NamedBytes[]; resource: AnimResource | null; clip: AnimClip | null; time: number; frames: number; samplingMs: number };
  open(urls: string[]): Promise<AnimResource>;
  /** The sequencer playing the Layers panel's jobs, and their sequence file (null without layers). */
  sequencer(): AnimSequencer | null;
  layers(): SequenceFile | null;
  setPlaying(playing: boolean): void;
  startStress(instances: number, engine: StressEngine): Promise<void>;
  stopStress(): void;
  worker(): SampleWorkerClient;
  /** What a glTF view draws (`GltfView.drawn`), null for other views. */
  drawn(): ReturnType<GltfView['drawn']> | null;
}

/**
 * `window.__animcore`, the browser tests' handle on the page: open files by URL, read a pose back
 * (the current clip sampled at a time, as `{ samples, counts }` plain arrays), drive playback,
 * inspect the canvas and the stress mode, and sample in the Web Worker.
 */
export function installTestHook(deps: TestHookDeps): void {
  const { core, state } = deps;
  let worker: SampleWorkerClient | null = null;
  const hook = {
    /** The build this page runs: `simd` or `scalar`. */
    build: core.simd ? 'simd' : 'scalar',
    async open(urls: string[]) {
      const r = await deps.open(urls);
      return { format: r.format, clips: r.clips.map((c) => c.name), joints: r.skeleton?.size ?? 0, meshes: r.meshes.length, warnings: [...r.warnings] };
    },
    /** The current clip sampled at `time` seconds (default rotation, nlerp). */
    pose(time: number) {
      const clip = state.clip!;
      const buffer = core.createSampleBuffer(clip);
      core.sampler.sample(clip, time, buffer);
      const out = { samples: Array.from(buffer.samples), counts: Array.from(buffer.counts) };
      buffer.dispose();
      return out;
    },
    /** The same pose computed in the Web Worker (`sample-worker.ts`). */
    async workerPose(time: number) {
      worker ??= deps.worker();
      await worker.open(state.files);
      const index = state.resource!.clips.indexOf(state.clip!);
      const { samples, counts } = await worker.sample(index, [time]);
      return { samples: Array.from(samples), counts: Array.from(counts) };
    },
    play: () => deps.setPlaying(true),
    pause: () => deps.setPlaying(false),
    setTime(time: number) {
      state.time = time;
    },
    time: () => state.time,
    /**
     * The layers playing: their sequence file, the sequencer's time, its jobs and its blended pose
     * (the pose layout's samples and counts), or null.
     */
    layers() {
      const sequencer = deps.sequencer();
      const file = deps.layers();
      if (!sequencer || !file) return null;
      const { samples, counts } = sequencer.result;
      return { file, time: sequencer.time, jobs: sequencer.jobs(), samples: Array.from(samples), counts: Array.from(counts) };
    },
    frames: () => state.frames,
    /** Share of canvas pixels that differ from the background, and a hash of the pixels. */
    canvas() {
      const small = document.createElement('canvas');
      small.width = 160;
      small.height = 120;
      const g = small.getContext('2d', { willReadFrequently: true })!;
      g.drawImage(deps.canvas, 0, 0, small.width, small.height);
      const px = g.getImageData(0, 0, small.width, small.height).data;
      let differing = 0;
      let hash = 2166136261;
      for (let i = 0; i < px.length; i += 4) {
        if (Math.abs(px[i]! - px[0]!) + Math.abs(px[i + 1]! - px[1]!) + Math.abs(px[i + 2]! - px[2]!) > 12) differing++;
        hash = Math.imul(hash ^ (px[i]! | (px[i + 1]! << 8) | (px[i + 2]! << 16)), 16777619);
      }
      return { differing: differing / (px.length / 4), hash: (hash >>> 0).toString(16) };
    },
    stress: (instances: number, engine: StressEngine) => deps.startStress(instances, engine),
    stopStress: () => deps.stopStress(),
    samplingMs: () => state.samplingMs,
    /** A glTF view's skinned meshes, morph target influences and world matrices, as last drawn. */
    drawn: () => deps.drawn(),
  };
  (window as unknown as { __animcore: typeof hook }).__animcore = hook;
}
