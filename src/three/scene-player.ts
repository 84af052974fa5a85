import { type AnimClip, type AnimCore, type RotationMode, type SampleManyJob, UsageError } from 'animcore';
import type { GltfLoaderResource } from './from-gltf-loader.js';
import { poseScene, type SceneTarget, sceneTargets } from './scene-targets.js';

/**
 * Plays one clip of a `fromGltfLoader` resource on its three.js scene, as an `AnimationMixer`
 * action with weight 1 does: each `update(time)` is one `SampleManyJob` call in wasm, then every
 * curve with a valid sample sets its object's `position`, `quaternion`, `scale` or morph target
 * influence (three.js then composes the world matrices as usual). Curves whose object is not in
 * the scene are skipped. Times outside the clip hold its first and last keys (three.js's LoopOnce
 * with clampWhenFinished; loop by passing `time % clip.duration`). `dispose()` frees the job.
 */
export class ScenePlayer {
  readonly clip: AnimClip;
  readonly job: SampleManyJob;
  private readonly targets: (SceneTarget | undefined)[];
  private readonly times = new Float64Array(1);

  /**
   * @param source `fromGltfLoader(gltf)`, its resource loaded in `core`
   * @param rotation default `slerp` (three.js's); `nlerp` is faster
   * @throws UsageError as `SampleManyJob`, or for a clip that is not the resource's
   */
  constructor(core: AnimCore, source: GltfLoaderResource, clip: AnimClip, rotation: RotationMode = 'slerp') {
    if (!source.resource.clips.includes(clip)) throw new UsageError(`clip "${clip.name}" is not a clip of this resource`);
    this.clip = clip;
    this.job = core.createSampleMany({ clip, instances: 1, rotation });
    this.targets = sceneTargets(source, clip.curves.map((c) => c.target));
  }

  /**
   * Poses the scene at `time` seconds of the clip.
   * @throws UsageError for a time that is not finite, or after `dispose()`
   */
  update(time: number): void {
    this.times[0] = time;
    this.job.run(this.times);
    poseScene(this.targets, this.job.samples, this.job.counts);
  }

  /** Frees the job's wasm memory (the scene keeps its last pose). Safe to call twice. */
  dispose(): void {
    this.job.dispose();
  }
}
