import type { Object3D } from 'three';
import { type AnimClip, type AnimCore, type RotationMode, type SampleManyJob, UsageError } from 'animcore';
import type { GltfLoaderResource } from './from-gltf-loader.js';

/** What a curve writes: a joint's position, quaternion or scale, or one morph target influence. */
type Target = { object: Object3D; kind: 'position' | 'quaternion' | 'scale' } | { object: Object3D & { morphTargetInfluences: number[] }; kind: 'morph'; index: number };

const KINDS = { translation: 'position', rotation: 'quaternion', scale: 'scale' } as const;

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
  private readonly targets: (Target | undefined)[];
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
    const skeleton = source.resource.skeleton!;
    this.targets = clip.curves.map((curve): Target | undefined => {
      const object = source.objects[skeleton.indexOf(curve.target.joint ?? '')];
      if (object === undefined) return undefined;
      const property = curve.target.property;
      if (property in KINDS) return { object, kind: KINDS[property as keyof typeof KINDS] };
      const morph = /^weights\/(\d+)$/.exec(property);
      const influences = (object as Object3D & { morphTargetInfluences?: number[] }).morphTargetInfluences;
      return morph && influences ? { object: object as Object3D & { morphTargetInfluences: number[] }, kind: 'morph', index: Number(morph[1]) } : undefined;
    });
  }

  /**
   * Poses the scene at `time` seconds of the clip.
   * @throws UsageError for a time that is not finite, or after `dispose()`
   */
  update(time: number): void {
    this.times[0] = time;
    this.job.run(this.times);
    const samples = this.job.samples;
    const counts = this.job.counts;
    this.targets.forEach((target, i) => {
      if (target === undefined || counts[i] === 0) return;
      const o = 4 * i;
      if (target.kind === 'morph') target.object.morphTargetInfluences[target.index] = samples[o]!;
      else if (target.kind === 'quaternion') target.object.quaternion.set(samples[o]!, samples[o + 1]!, samples[o + 2]!, samples[o + 3]!);
      else target.object[target.kind].set(samples[o]!, samples[o + 1]!, samples[o + 2]!);
    });
  }

  /** Frees the job's wasm memory (the scene keeps its last pose). Safe to call twice. */
  dispose(): void {
    this.job.dispose();
  }
}
