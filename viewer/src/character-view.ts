import type { AnimClip, AnimCore, AnimResource, AnimSequencer, SequenceFile, Skeleton } from 'animcore';
import { SequencePlayer, SkeletonPlayer, toThreeSkeleton } from 'animcore/three';
import * as THREE from 'three';
import { LayeredPlayback } from './layered-playback.js';

/**
 * A clip on a skeleton drawn in three.js: bones as lines (`SkeletonHelper`), joint dots with axes,
 * the resource's meshes (AAF surfaces) attached rigidly to their joints and skinned meshes (Meteor
 * `.skc`), posed by a `SkeletonPlayer` (one `sampleMany` call per frame) — or, once `setSequence`
 * gives it layers, by a `SequencePlayer` (the sequencer's one `blend` call per frame).
 */
export class CharacterView {
  /** What the scene holds: `body` and the bone lines (a `SkeletonHelper` must not sit inside what it draws). */
  readonly root = new THREE.Group();
  /** The bones and meshes; rotate it to turn a Z-up source upright. */
  readonly body = new THREE.Group();
  private readonly player: SkeletonPlayer;
  private readonly skeleton: THREE.Skeleton;
  /** Per joint a dot with axes. */
  private readonly markers: THREE.Group[] = [];
  private readonly core: AnimCore;
  private readonly resource: AnimResource;
  private layered: LayeredPlayback | null = null;

  /**
   * @param skeleton the resource's, or a stand-in such as `looseSkeleton(clip)`
   * @param skins geometries with `skinIndex`/`skinWeight` in joint order, bound in the rest pose
   *   (Meteor `.skc`, `meteorSkins`)
   */
  constructor(core: AnimCore, resource: AnimResource, clip: AnimClip, skeleton: Skeleton, skins: THREE.BufferGeometry[] = []) {
    this.core = core;
    this.resource = resource;
    this.skeleton = toThreeSkeleton(skeleton);
    for (const bone of this.skeleton.bones) if (!(bone.parent instanceof THREE.Bone)) this.body.add(bone);
    this.root.add(this.body);
    const helper = new THREE.SkeletonHelper(this.body);
    (helper.material as THREE.LineBasicMaterial).linewidth = 2;
    this.root.add(helper);
    const dot = new THREE.SphereGeometry(1, 8, 6);
    const dotMaterial = new THREE.MeshBasicMaterial({ color: 0xffcc44 });
    for (const bone of this.skeleton.bones) {
      const marker = new THREE.Group();
      marker.add(new THREE.Mesh(dot, dotMaterial), new THREE.AxesHelper(6));
      this.markers.push(marker);
      bone.add(marker);
    }
    this.setMarkerSize(Math.max(0.01, this.extent() * 0.01));
    const material = new THREE.MeshStandardMaterial({ color: 0x88aadd, roughness: 0.6, side: THREE.DoubleSide });
    for (const mesh of resource.meshes) {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
      if (mesh.normals.length === mesh.positions.length) geometry.setAttribute('normal', new THREE.BufferAttribute(mesh.normals, 3));
      else geometry.computeVertexNormals();
      geometry.setIndex(new THREE.BufferAttribute(mesh.indices, 1));
      const object = new THREE.Mesh(geometry, material);
      object.name = mesh.name;
      this.skeleton.bones[mesh.joint]?.add(object);
    }
    const skinMaterial = new THREE.MeshStandardMaterial({ color: 0xc8a888, roughness: 0.7, side: THREE.DoubleSide });
    for (const geometry of skins) {
      const mesh = new THREE.SkinnedMesh(geometry, skinMaterial);
      mesh.frustumCulled = false;
      this.body.add(mesh);
      mesh.bind(this.skeleton, new THREE.Matrix4());
    }
    this.player = new SkeletonPlayer(core, { clip, skeleton, target: this.skeleton, rotation: 'nlerp' });
  }

  /** Largest distance of a rest-pose joint from the origin (for framing). */
  extent(): number {
    const p = new THREE.Vector3();
    return Math.max(0.1, ...this.skeleton.bones.map((b) => b.getWorldPosition(p).length()));
  }

  /** Radius of the joint dots (scene units); their axes are 6 × as long. */
  setMarkerSize(size: number): void {
    for (const m of this.markers) m.scale.setScalar(size);
  }

  /**
   * Plays a sequence file of the resource instead of the clip (null: the clip again).
   * @throws UsageError naming the JSON path for a sequence the resource cannot play
   */
  setSequence(file: SequenceFile | null): void {
    const next = file ? new LayeredPlayback(this.core, this.resource, file, (sequencer) => new SequencePlayer(this.core, { sequencer, target: this.skeleton })) : null;
    this.layered?.dispose();
    this.layered = next;
  }

  /** The sequencer of `setSequence`, or null. */
  get sequencer(): AnimSequencer | null {
    return this.layered?.sequencer ?? null;
  }

  /** Poses the bones at `time` seconds: clip time, or sequence time with layers. */
  update(time: number): void {
    if (this.layered) this.layered.update(time);
    else this.player.update(time);
  }

  dispose(): void {
    this.layered?.dispose();
    this.player.dispose();
    this.root.removeFromParent();
  }
}
