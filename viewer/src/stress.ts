import type { AnimClip, AnimCore, Skeleton } from 'animcore';
import { InstancedBoneTexture, toThreeAnimationClip, toThreeSkeleton } from 'animcore/three';
import * as THREE from 'three';

/** Who samples the instances: the core's SIMD or scalar build, or three.js's AnimationMixer. */
export type StressEngine = 'simd' | 'scalar' | 'threejs';

const VERTEX = /* glsl */ `
uniform sampler2D bones;
uniform int joints;
uniform int perRow;
uniform int columns;
uniform float spacing;
in float aJoint;
in float aInstance;
in vec3 aRest;
void main() {
  int i = int(aInstance);
  int x = 4 * (joints * (i % perRow) + int(aJoint));
  int y = i / perRow;
  mat4 skin = mat4(texelFetch(bones, ivec2(x, y), 0), texelFetch(bones, ivec2(x + 1, y), 0),
                   texelFetch(bones, ivec2(x + 2, y), 0), texelFetch(bones, ivec2(x + 3, y), 0));
  vec4 p = skin * vec4(aRest, 1.0);
  p.xz += vec2(float(i % columns), float(i / columns)) * spacing;
  gl_Position = projectionMatrix * modelViewMatrix * p;
  gl_PointSize = 2.0;
}`;
const FRAGMENT = /* glsl */ `
out vec4 colour;
void main() { colour = vec4(1.0, 0.8, 0.3, 1.0); }`;

/**
 * N instances of a clip in a grid, every joint a point placed on the GPU from a bone texture of
 * skinning matrices (the rest-pose joint position times its skinning matrix). animcore engines
 * fill the texture with one `InstancedBoneTexture.update` (one `sampleMany` call); the three.js
 * engine runs one `AnimationMixer` per instance, then `skeleton.update()`, and copies the
 * skinning matrices into the same layout. `update` returns the milliseconds spent sampling.
 */
export class StressView {
  readonly root = new THREE.Group();
  /** Grid cell size (scene units). */
  readonly spacing: number;
  private readonly times: Float64Array;
  private readonly bones: InstancedBoneTexture | null = null;
  private readonly mixers: { mixer: THREE.AnimationMixer; skeleton: THREE.Skeleton; root: THREE.Object3D }[] = [];
  private readonly texture: THREE.DataTexture;

  constructor(core: AnimCore, clip: AnimClip, skeleton: Skeleton, readonly instances: number, readonly engine: StressEngine) {
    const rest = toThreeSkeleton(skeleton);
    const restPositions = rest.bones.map((b) => b.getWorldPosition(new THREE.Vector3()));
    const extent = Math.max(0.1, ...restPositions.map((p) => p.length()));
    this.spacing = 2.5 * extent;
    this.times = Float64Array.from({ length: instances }, (_, i) => (i * 0.137) % Math.max(clip.duration, 1e-3));
    const inverses = rest.boneInverses.flatMap((m) => m.elements);
    const joints = skeleton.size;
    let perRow: number;
    if (engine === 'threejs') {
      perRow = Math.max(1, Math.min(instances, Math.floor(4096 / (4 * joints))));
      const rows = Math.ceil(instances / perRow);
      this.texture = new THREE.DataTexture(new Float32Array(16 * joints * perRow * rows), 4 * joints * perRow, rows, THREE.RGBAFormat, THREE.FloatType);
      const threeClip = toThreeAnimationClip(clip, skeleton);
      for (let i = 0; i < instances; i++) {
        const s = toThreeSkeleton(skeleton);
        const root = new THREE.Group();
        for (const b of s.bones) if (!(b.parent instanceof THREE.Bone)) root.add(b);
        const mixer = new THREE.AnimationMixer(root);
        mixer.clipAction(threeClip).play();
        mixer.setTime(this.times[i]!);
        this.mixers.push({ mixer, skeleton: new THREE.Skeleton(s.bones, rest.boneInverses), root });
      }
    } else {
      this.bones = new InstancedBoneTexture(core, { clip, skeleton, instances, inverseBindMatrices: inverses });
      this.texture = this.bones.texture;
      perRow = this.bones.instancesPerRow;
    }
    const geometry = new THREE.BufferGeometry();
    const n = instances * joints;
    geometry.setAttribute('aJoint', new THREE.BufferAttribute(Float32Array.from({ length: n }, (_, k) => k % joints), 1));
    geometry.setAttribute('aInstance', new THREE.BufferAttribute(Float32Array.from({ length: n }, (_, k) => Math.floor(k / joints)), 1));
    geometry.setAttribute('aRest', new THREE.BufferAttribute(Float32Array.from({ length: 3 * n }, (_, k) => restPositions[Math.floor(k / 3) % joints]!.getComponent(k % 3)), 3));
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * n), 3));
    const columns = Math.ceil(Math.sqrt(instances));
    const material = new THREE.ShaderMaterial({
      glslVersion: THREE.GLSL3,
      vertexShader: VERTEX,
      fragmentShader: FRAGMENT,
      uniforms: { bones: { value: this.texture }, joints: { value: joints }, perRow: { value: perRow }, columns: { value: columns }, spacing: { value: this.spacing } },
    });
    const points = new THREE.Points(geometry, material);
    points.frustumCulled = false;
    points.position.set((-(columns - 1) * this.spacing) / 2, 0, (-(columns - 1) * this.spacing) / 2);
    this.root.add(points);
  }

  /** The grid's extent in the scene (for framing the camera). */
  bounds(): THREE.Box3 {
    const half = (Math.ceil(Math.sqrt(this.instances)) * this.spacing) / 2;
    return new THREE.Box3(new THREE.Vector3(-half, 0, -half), new THREE.Vector3(half, this.spacing / 2, half));
  }

  /** Advances every instance by `dt` seconds; returns the milliseconds spent sampling. */
  update(dt: number): number {
    const start = performance.now();
    if (this.bones !== null) {
      for (let i = 0; i < this.times.length; i++) this.times[i]! += dt;
      this.bones.update(this.times);
    } else {
      const data = this.texture.image.data as Float32Array;
      this.mixers.forEach(({ mixer, skeleton, root }, i) => {
        mixer.update(dt);
        root.updateMatrixWorld(true);
        skeleton.update();
        data.set(skeleton.boneMatrices!, 16 * skeleton.bones.length * i);
      });
      this.texture.needsUpdate = true;
    }
    return performance.now() - start;
  }

  dispose(): void {
    this.bones?.dispose();
    this.texture.dispose();
    this.root.removeFromParent();
  }
}
