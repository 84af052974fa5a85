import type { AnimCore, NamedBytes } from 'animcore';
import { fromGltfLoader, type GltfLoaderResource, ScenePlayer } from 'animcore/three';
import * as THREE from 'three';
import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

/** A glTF file as three.js's `GLTFLoader` reads it, and that scene as an animcore resource. */
export interface LoadedGltf {
  gltf: GLTF;
  source: GltfLoaderResource;
}

/**
 * Reads the glTF `main` of a dropped set with three.js's `GLTFLoader` (meshes, materials,
 * textures, skins, morph targets, as a three.js app shows the file); the `.bin` and images a
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
    const gltf = await new GLTFLoader(manager).parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
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
 * clip shows only what it animates.
 */
export class GltfView {
  readonly root = new THREE.Group();
  private readonly player: ScenePlayer;

  constructor(
    core: AnimCore,
    private readonly loaded: LoadedGltf,
    index: number,
  ) {
    const { source, gltf } = loaded;
    source.objects.forEach((object, j) => {
      const joint = source.resource.skeleton!.joints[j]!;
      object.position.fromArray(joint.rest.translation);
      object.quaternion.fromArray(joint.rest.rotation);
      object.scale.fromArray(joint.rest.scale);
      const influences = (object as THREE.Object3D & { morphTargetInfluences?: number[] }).morphTargetInfluences;
      if (influences && joint.morphWeights) influences.splice(0, influences.length, ...joint.morphWeights);
    });
    this.root.add(gltf.scene);
    const helper = new THREE.SkeletonHelper(gltf.scene);
    if (helper.bones.length > 0) this.root.add(helper);
    this.player = new ScenePlayer(core, source, source.resource.clips[index]!);
  }

  /** Poses the scene at `time` seconds. */
  update(time: number): void {
    this.player.update(time);
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
    this.player.dispose();
    this.root.removeFromParent();
    this.root.clear();
  }
}
