// browser-gltf-playback (issue 15): bench/suites/gltf-playback.mjs's cases in one page of headless
// Chromium. glTF characters played per frame with skinning matrices: CesiumMan (19 skin joints,
// LINEAR; fetched from /fixtures/gltf/, left out when the server has no fixtures) and the
// synthetic 64-joint CUBICSPLINE rig, 100 and 1,000 instances per SampleManyJob call for
// animcore's SIMD and scalar builds; three.js's AnimationMixer + updateMatrixWorld +
// skeleton.update() on 25 clones of the GLTFLoader scene (its best case). Units: skin joints ×
// instances per second. Results on `window.__bench` as
// { "<file>-<instances>": { "<contender>": { median, spread } } }.
import { AnimCore, openGltf, skeletonInverseBindMatrices } from 'animcore';
import * as THREE from 'three';
import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { advance, FRAME } from '../../bench/frame-times.mjs';
import { makeGltfRig } from '../../bench/gltf-files.mjs';
import { type Frame, measureEach, publish, type Rate } from './bench-rate.js';

async function cesiumMan(): Promise<Uint8Array | undefined> {
  const response = await fetch('./fixtures/gltf/CesiumMan.glb');
  return response.ok ? new Uint8Array(await response.arrayBuffer()) : undefined;
}

function threeGltf(glb: Uint8Array): Promise<GLTF> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

async function run(): Promise<Record<string, Record<string, Rate>>> {
  const cesium = await cesiumMan();
  const inputs: [string, Uint8Array][] = [...(cesium ? [['cesium-man', cesium] as [string, Uint8Array]] : []), ['rig64-cubic', await makeGltfRig({ joints: 64, interpolation: 'CUBICSPLINE' })]];
  const cores = { 'animcore-simd': await AnimCore.create({ build: 'simd' }), 'animcore-scalar': await AnimCore.create({ build: 'scalar' }) };
  const results: Record<string, Record<string, Rate>> = {};
  for (const [label, glb] of inputs) {
    const resource = await openGltf({ gltf: glb });
    const clip = resource.clips[0]!;
    const skeleton = resource.skeleton!;
    const skin = skeleton.skins[0]!;
    const joints = skin.joints.length;
    const inverseBindMatrices = skeletonInverseBindMatrices(skin, skeleton.size);
    const gltf = await threeGltf(glb);
    for (const instances of [100, 1000]) {
      const frames: Record<string, Frame> = {};
      const jobs = [];
      for (const [name, core] of Object.entries(cores)) {
        core.load(resource);
        const job = core.createSampleMany({ clip, instances, output: 'skinning', skeleton, inverseBindMatrices });
        const times = Float64Array.from({ length: instances }, (_, i) => (i * 0.0137) % clip.duration);
        frames[name] = [
          () => {
            advance(times, clip.duration);
            job.run(times);
          },
          joints * instances,
        ];
        jobs.push(job);
      }
      const players = Array.from({ length: 25 }, (_, i) => {
        const root = clone(gltf.scene);
        const mixer = new THREE.AnimationMixer(root);
        mixer.clipAction(gltf.animations[0]!).play();
        mixer.setTime(i * 0.0137);
        let mesh: THREE.SkinnedMesh | undefined;
        root.traverse((o) => {
          if ((o as THREE.SkinnedMesh).isSkinnedMesh && !mesh) mesh = o as THREE.SkinnedMesh;
        });
        return { root, mixer, skeleton: mesh!.skeleton };
      });
      frames['threejs-25'] = [
        () => {
          for (const p of players) {
            p.mixer.update(FRAME);
            p.root.updateMatrixWorld(true);
            p.skeleton.update();
          }
        },
        joints * 25,
      ];
      const rates = measureEach(frames);
      for (const job of jobs) job.dispose();
      results[`${label}-${instances}`] = rates;
    }
  }
  return results;
}

publish(run());
