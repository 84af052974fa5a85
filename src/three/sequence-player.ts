import type { Bone, Skeleton as ThreeSkeleton } from 'three';
import { type AnimCore, type AnimSequencer, LocalToModelJob, UsageError } from 'animcore';
import { boneName } from './bone-name.js';
import type { GltfLoaderResource } from './from-gltf-loader.js';
import { bonesByJoint, poseBones } from './pose-bones.js';
import { poseScene, type SceneTarget, sceneTargets } from './scene-targets.js';

/** Options of `new SequencePlayer(core, options)`: a sequencer and exactly one of `target` and `scene`. */
export interface SequencePlayerOptions {
  /** The sequencer whose result poses the bones; its resource must have a skeleton. */
  sequencer: AnimSequencer;
  /** A three.js skeleton to drive; bones are matched to joints by `boneName` (e.g. `toThreeSkeleton`). */
  target?: ThreeSkeleton;
  /**
   * Or a three.js scene: `objects[j]` the object of the sequencer's skeleton joint j (for a
   * GLTFLoader result, `fromGltfLoader(gltf)` with that resource in the sequencer, or the objects
   * of `openGltf`'s nodes by index); their position, quaternion, scale and morph target
   * influences are set from the blended pose.
   */
  scene?: GltfLoaderResource;
}

/**
 * Drives three.js from an `AnimSequencer` (layered playback). Each `update(time)` is the
 * sequencer's one call into WebAssembly — every active job sampled and blended; for a `target`
 * skeleton also composed into model space (`AnimSequencer.update(time, { model })`) — then, for a
 * skeleton, every bone matched by name gets its `matrixWorld` as `SkeletonPlayer` sets it (the
 * root's parent's world matrix · the joint's model-space matrix; `position`/`quaternion`/`scale` not
 * written); for a `scene`, every object of the pose layout gets its local transform and morph
 * weights, as `ScenePlayer` sets them (curves no job defines at their rest values). The sequencer
 * stays the caller's (enqueue, stop, events, dispose).
 */
export class SequencePlayer {
  readonly sequencer: AnimSequencer;
  /** With `target`: the model-space matrices of the last update (16 floats per skeleton joint); else null. */
  readonly model: LocalToModelJob | null;
  private readonly bones: (Bone | undefined)[] = [];
  private readonly targets: (SceneTarget | undefined)[] = [];

  /**
   * @throws UsageError when the sequencer's resource has no skeleton, when not exactly one of
   *   `target` and `scene` is given, or when `scene` is of another resource
   */
  constructor(core: AnimCore, options: SequencePlayerOptions) {
    const { sequencer, target, scene } = options;
    const skeleton = sequencer.resource.skeleton;
    if (!skeleton) throw new UsageError(`SequencePlayer needs a resource with a skeleton; this ${sequencer.resource.format} resource has none`);
    if ((target === undefined) === (scene === undefined)) throw new UsageError('SequencePlayer takes exactly one of target (a THREE.Skeleton) and scene');
    this.sequencer = sequencer;
    if (scene) {
      if (scene.resource.skeleton !== skeleton) throw new UsageError("SequencePlayer's scene must be of the sequencer's resource (its skeleton)");
      this.model = null;
      this.targets = sceneTargets(scene, sequencer.layout.curves);
    } else {
      this.model = new LocalToModelJob(core, sequencer.layout.binding());
      this.bones = bonesByJoint(skeleton.joints.map((j) => boneName(j.name)), target!.bones);
    }
  }

  /**
   * Updates the sequencer to `time` (sequence seconds; see `AnimSequencer.update`) and poses three.js.
   * @throws UsageError for a non-finite time, or after `dispose()`
   */
  update(time: number): void {
    if (this.model) {
      this.sequencer.update(time, { model: this.model });
      poseBones(this.bones, this.model.matrices);
    } else {
      poseScene(this.targets, this.sequencer.update(time).samples, null);
    }
  }

  /** Frees the local-to-model job (the sequencer stays the caller's to dispose). Safe to call twice. */
  dispose(): void {
    this.model?.dispose();
  }
}
