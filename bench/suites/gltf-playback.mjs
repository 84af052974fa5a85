// gltf-playback (issue 15): glTF characters played per frame with skinning matrices. The CesiumMan
// clip (19 skin joints, LINEAR) and a synthetic 64-joint CUBICSPLINE rig; animcore: 100 and 1,000
// instances per SampleManyJob call (output 'skinning', the skin's inverse bind matrices);
// threejs-25: three.js AnimationMixer + updateMatrixWorld + skeleton.update() on the GLTFLoader
// result, 25 instances (its best case, data in cache). Units: skin joints × instances per second.
import { WebIO } from '@gltf-transform/core';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { openGltf, skeletonInverseBindMatrices } from '../../dist/index.js';
import { fixture } from '../fixtures.mjs';
import { advance, FRAME } from '../frame-times.mjs';
import { makeGltfRig } from '../gltf-files.mjs';

/** What three.js reads: the same file without textures (Node has no image decoder). */
async function threeGltf(glb) {
  const document = await new WebIO().readBinary(glb);
  for (const t of document.getRoot().listTextures()) t.dispose();
  const bytes = await new WebIO().writeBinary(document);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

export default async function gltfPlayback({ cores }) {
  const cesium = fixture('gltf', 'CesiumMan.glb');
  const inputs = [...(cesium ? [['cesium-man', cesium]] : []), ['rig64-cubic', await makeGltfRig({ joints: 64, interpolation: 'CUBICSPLINE' })]];
  const cases = [];
  for (const [label, glb] of inputs) {
    const resource = await openGltf({ gltf: glb });
    const clip = resource.clips[0];
    const skeleton = resource.skeleton;
    const skin = skeleton.skins[0];
    const inverseBindMatrices = skeletonInverseBindMatrices(skin, skeleton.size);
    const gltf = await threeGltf(glb);
    for (const instances of [100, 1000]) {
      const times = Float64Array.from({ length: instances }, (_, i) => (i * 0.0137) % clip.duration);
      const contenders = {};
      for (const [name, core] of Object.entries(cores)) {
        core.load(resource);
        const job = core.createSampleMany({ clip, instances, output: 'skinning', skeleton, inverseBindMatrices });
        contenders[name] = () => {
          advance(times, clip.duration);
          job.run(times);
        };
      }
      const players = Array.from({ length: 25 }, (_, i) => {
        const root = clone(gltf.scene);
        const mixer = new THREE.AnimationMixer(root);
        mixer.clipAction(gltf.animations[0]).play();
        mixer.setTime(i * 0.0137);
        let mesh;
        root.traverse((o) => {
          if (o.isSkinnedMesh && !mesh) mesh = o;
        });
        return { root, mixer, skeleton: mesh.skeleton };
      });
      // Per 25 instances; scaled to the same units below.
      contenders['threejs-25'] = () => {
        for (const p of players) {
          p.mixer.update(FRAME);
          p.root.updateMatrixWorld(true);
          p.skeleton.update();
        }
      };
      cases.push({
        name: `gltf-playback-${label}-${instances}`,
        unitsPerRun: skin.joints.length * instances,
        unitsPerRunOf: { 'threejs-25': skin.joints.length * 25 },
        baseline: 'threejs-25',
        unit: 'joint samples/s',
        contenders,
      });
    }
  }
  return cases;
}
