import type { AnimClip, AnimCore, AnimSampleBuffer } from 'animcore';
import * as THREE from 'three';

/**
 * An MRTK input recording (spec mrtk.md §4): the camera as a small frustum, and per hand its 27
 * joints as dots, grey when the hand is not tracked, red while it pinches. Curves are found by
 * their targets (`camera`, `left`/`right` `tracked`/`pinching`, `<hand>/<joint>`).
 */
export class MrtkView {
  readonly root = new THREE.Group();
  private readonly buffer: AnimSampleBuffer;
  private readonly camera: THREE.Object3D;
  private readonly hands: { tracked: number; pinching: number; material: THREE.MeshBasicMaterial; joints: { object: THREE.Object3D; t: number; r: number }[] }[];
  private readonly cameraCurves: { t: number; r: number };

  constructor(private readonly core: AnimCore, private readonly clip: AnimClip) {
    this.buffer = core.createSampleBuffer(clip);
    const find = (joint: string, property: string) => clip.curves.findIndex((c) => c.target.joint === joint && c.target.property === property);
    this.cameraCurves = { t: find('camera', 'translation'), r: find('camera', 'rotation') };
    this.camera = new THREE.Mesh(new THREE.ConeGeometry(0.05, 0.1, 4).rotateX(-Math.PI / 2), new THREE.MeshBasicMaterial({ color: 0x44ddff, wireframe: true }));
    this.root.add(this.camera);
    const dot = new THREE.SphereGeometry(0.006, 8, 6);
    this.hands = (['left', 'right'] as const).map((hand) => {
      const material = new THREE.MeshBasicMaterial({ color: 0xffffff });
      const joints = clip.curves.flatMap((c, i) => {
        if (c.target.property !== 'translation' || !c.target.joint?.startsWith(`${hand}/`)) return [];
        const object = new THREE.Mesh(dot, material);
        this.root.add(object);
        return [{ object, t: i, r: find(c.target.joint, 'rotation') }];
      });
      return { tracked: find(hand, 'tracked'), pinching: find(hand, 'pinching'), material, joints };
    });
  }

  extent(): number {
    return 1;
  }

  update(time: number): void {
    this.core.sampler.sample(this.clip, time, this.buffer);
    const s = this.buffer.samples;
    const place = (object: THREE.Object3D, t: number, r: number) => {
      if (t >= 0) object.position.set(s[4 * t]!, s[4 * t + 1]!, s[4 * t + 2]!);
      if (r >= 0) object.quaternion.set(s[4 * r]!, s[4 * r + 1]!, s[4 * r + 2]!, s[4 * r + 3]!);
    };
    place(this.camera, this.cameraCurves.t, this.cameraCurves.r);
    for (const hand of this.hands) {
      const tracked = hand.tracked < 0 || s[4 * hand.tracked]! > 0.5;
      const pinching = hand.pinching >= 0 && s[4 * hand.pinching]! > 0.5;
      hand.material.color.set(!tracked ? 0x666666 : pinching ? 0xff3344 : 0xffffff);
      for (const j of hand.joints) place(j.object, j.t, j.r);
    }
  }

  dispose(): void {
    this.buffer.dispose();
    this.root.removeFromParent();
  }
}
