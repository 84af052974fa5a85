import type { AnimCore, AnimResource, AnimSequencer, NamedBytes, SequenceFile } from 'animcore';
import { fromGltfLoader, type GltfLoaderResource, ScenePlayer, SequencePlayer } from 'animcore/three';
import * as THREE from 'three';
import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { LayeredPlayback } from './layered-playback.js';

/** A glTF file as three.js's `GLTFLoader` reads it, and that scene as an animcore resource. */
export interface LoadedGltf {
  gltf: GLTF;
  source: GltfLoaderResource;
}

/**
 * Reads the glTF `main` of a dropped set with three.js's `GLTFLoader` (meshes, materials,
 * textures, skins, morph targets, as a three.js app shows the file; meshopt-compressed views
 * decoded); the `.bin` and images a
 * `.gltf` names come from the other files of the set (by file name), `data:` URIs as they are.
 * The scene becomes a resource (`fromGltfLoader`) loaded in `core`.
 */
export async function loadGltf(core: AnimCore, main: NamedBytes, files: readonly NamedBytes[]): Promise<LoadedGltf> {
  const urls: string[] = [];
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    if (url.startsWith('data:') || url.startsWith('blob:')) return url;
    const name = decodeURIComponent(url.split(/[\\/]/).pop()!);
    const file = files.find((f) => f.name === name) ?? files.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (!file) return url; // the loader reports it as a missing resource
    const blob = URL.createObjectURL(new Blob([file.bytes as Uint8Array<ArrayBuffer>]));
    urls.push(blob);
    return blob;
  });
  try {
    const bytes = main.bytes;
    // gltfpack -c / -cc files (EXT_meshopt_compression): the decoder animcore's reader uses too.
    const gltf = await new GLTFLoader(manager).setMeshoptDecoder(MeshoptDecoder).parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
    const source = fromGltfLoader(gltf);
    core.load(source.resource);
    return { gltf, source };
  } finally {
    for (const u of urls) URL.revokeObjectURL(u);
  }
}

/**
 * Clip `index` of a glTF played on the file's own scene: its meshes, skinned meshes and morph
 * targets drawn by three.js, posed each frame by animcore (`ScenePlayer`, one `sampleMany` call),
 * bones shown as lines. Every object starts from its rest transform and rest morph weights, so a
 * clip shows only what it animates. With layers (`setSequence`, a sequence file of `resource`,
 * animcore's own reading of the file) a `SequencePlayer` poses the scene's objects by node index.
 */
export class GltfView {
  readonly root = new THREE.Group();
  private readonly player: ScenePlayer;
  private layered: LayeredPlayback | null = null;

  /** @param resource the file as `openGltf` reads it (the Layers panel's jobs name its clips and joints) */
  constructor(
    private readonly core: AnimCore,
    private readonly loaded: LoadedGltf,
    index: number,
    private readonly resource: AnimResource,
  ) {
    this.restPose();
    this.root.add(loaded.gltf.scene);
    const helper = new THREE.SkeletonHelper(loaded.gltf.scene);
    if (helper.bones.length > 0) this.root.add(helper);
    this.player = new ScenePlayer(core, loaded.source, loaded.source.resource.clips[index]!);
  }

  /** Every object at its rest transform and rest morph weights. */
  private restPose(): void {
    const { source } = this.loaded;
    source.objects.forEach((object, j) => {
      const joint = source.resource.skeleton!.joints[j]!;
      object.position.fromArray(joint.rest.translation);
      object.quaternion.fromArray(joint.rest.rotation);
      object.scale.fromArray(joint.rest.scale);
      const influences = (object as THREE.Object3D & { morphTargetInfluences?: number[] }).morphTargetInfluences;
      if (influences && joint.morphWeights) influences.splice(0, influences.length, ...joint.morphWeights);
    });
  }

  /**
   * Plays a sequence file of `resource` instead of the clip (null: the clip again, from the rest pose).
   * @throws UsageError naming the JSON path for a sequence the resource cannot play
   */
  setSequence(file: SequenceFile | null): void {
    // openGltf's joint j is node j; GLTFLoader says which object it made of each node.
    const scene = () => {
      const objects: THREE.Object3D[] = [];
      for (const [object, association] of this.loaded.gltf.parser.associations) {
        const node = (association as { nodes?: number } | undefined)?.nodes;
        if (object instanceof THREE.Object3D && node !== undefined) objects[node] = object;
      }
      return { resource: this.resource, objects };
    };
    const next = file ? new LayeredPlayback(this.core, this.resource, file, (sequencer) => new SequencePlayer(this.core, { sequencer, scene: scene() })) : null;
    this.layered?.dispose();
    this.layered = next;
    if (!next) this.restPose();
  }

  /** The sequencer of `setSequence`, or null. */
  get sequencer(): AnimSequencer | null {
    return this.layered?.sequencer ?? null;
  }

  /** Poses the scene at `time` seconds: clip time, or sequence time with layers. */
  update(time: number): void {
    if (this.layered) this.layered.update(time);
    else this.player.update(time);
  }

  /** What is drawn, for the tests: skinned meshes, morph target influences per morphed mesh, and every named object's world matrix. */
  drawn(): { skinnedMeshes: number; morphs: Record<string, number[]>; worlds: Record<string, number[]> } {
    const scene = this.loaded.gltf.scene;
    scene.updateMatrixWorld(true);
    let skinnedMeshes = 0;
    const morphs: Record<string, number[]> = {};
    const worlds: Record<string, number[]> = {};
    scene.traverse((o) => {
      if ((o as THREE.SkinnedMesh).isSkinnedMesh) skinnedMeshes++;
      const influences = (o as THREE.Object3D & { morphTargetInfluences?: number[] }).morphTargetInfluences;
      if (influences && influences.length > 0) morphs[o.name] = [...influences];
      if (o.name) worlds[o.name] = o.matrixWorld.toArray();
    });
    return { skinnedMeshes, morphs, worlds };
  }

  dispose(): void {
    this.layered?.dispose();
    this.player.dispose();
    this.root.removeFromParent();
    this.root.clear();
  }
}
