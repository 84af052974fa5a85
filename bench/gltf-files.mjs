// Synthetic glTF files for the glTF benchmarks, written with glTF-Transform: a skinned rig of
// `joints` joints (a chain of chains, every joint animated in translation, rotation and scale)
// with `clips` animations of `seconds` at `fps` keys per second, and a small skinned mesh so that
// three.js's GLTFLoader builds a SkinnedMesh whose skeleton.update() is part of its frame.
import { Document, WebIO } from '@gltf-transform/core';
import { random } from './clips.mjs';

/**
 * A `.glb` (Uint8Array) of the rig. `interpolation`: `LINEAR` or `CUBICSPLINE` (tangents derived
 * from the motion). Deterministic for a seed.
 */
export async function makeGltfRig({ joints = 64, clips = 1, seconds = 2, fps = 30, interpolation = 'LINEAR', seed = 1 } = {}) {
  const rnd = random(seed);
  const document = new Document();
  const buffer = document.createBuffer();
  const accessor = (type, array) => document.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const nodes = [];
  for (let j = 0; j < joints; j++) {
    const node = document.createNode(`joint${j}`).setTranslation([0, j % 8 === 0 ? 0 : 0.2, 0]);
    if (j % 8 !== 0) nodes[j - 1].addChild(node);
    else if (j > 0) nodes[0].addChild(node);
    nodes.push(node);
  }
  // One triangle per joint, bound to that joint.
  const positions = new Float32Array(9 * joints);
  const jointIndices = new Uint16Array(12 * joints);
  const weights = new Float32Array(12 * joints);
  for (let j = 0; j < joints; j++) {
    positions.set([0, 0.2 * j, 0, 0.05, 0.2 * j, 0, 0, 0.2 * j + 0.05, 0], 9 * j);
    for (let v = 0; v < 3; v++) {
      jointIndices[4 * (3 * j + v)] = j;
      weights[4 * (3 * j + v)] = 1;
    }
  }
  const ibm = new Float32Array(16 * joints);
  for (let j = 0; j < joints; j++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 16 * j);
  const skin = document.createSkin('rig').setInverseBindMatrices(accessor('MAT4', ibm)).setSkeleton(nodes[0]);
  for (const n of nodes) skin.addJoint(n);
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', positions))
    .setAttribute('JOINTS_0', accessor('VEC4', jointIndices))
    .setAttribute('WEIGHTS_0', accessor('VEC4', weights));
  const meshNode = document.createNode('body').setMesh(document.createMesh('body').addPrimitive(primitive)).setSkin(skin);
  document.createScene('rig').addChild(nodes[0]).addChild(meshNode);
  const n = Math.round(seconds * fps) + 1;
  const times = accessor('SCALAR', Float32Array.from({ length: n }, (_, k) => k / fps));
  const cubic = interpolation === 'CUBICSPLINE';
  for (let c = 0; c < clips; c++) {
    const animation = document.createAnimation(`clip${c}`);
    for (let j = 0; j < joints; j++) {
      const phase = rnd() * 6.28;
      const speed = 1 + rnd();
      const axis = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      const len = Math.hypot(...axis);
      const motion = {
        translation: (a) => [0.05 * Math.sin(a), j % 8 === 0 ? 0 : 0.2, 0.05 * Math.cos(a)],
        rotation: (a) => {
          const h = 0.4 * Math.sin(a);
          return [...axis.map((x) => (x / len) * Math.sin(h)), Math.cos(h)];
        },
        scale: (a) => [1 + 0.05 * Math.sin(a), 1, 1],
      };
      for (const [path, f] of Object.entries(motion)) {
        const width = path === 'rotation' ? 4 : 3;
        const out = new Float32Array((cubic ? 3 : 1) * width * n);
        for (let k = 0; k < n; k++) {
          const a = phase + speed * (k / fps) * 6.28;
          const value = f(a);
          if (!cubic) out.set(value, width * k);
          else {
            // Tangents: the central difference of the motion, in value units per second.
            const ahead = f(a + 0.001);
            const tangent = value.map((v, i) => ((ahead[i] - v) / 0.001) * speed * 6.28);
            out.set(tangent, 3 * width * k);
            out.set(value, 3 * width * k + width);
            out.set(tangent, 3 * width * k + 2 * width);
          }
        }
        const sampler = document.createAnimationSampler().setInput(times).setOutput(accessor(width === 4 ? 'VEC4' : 'VEC3', out)).setInterpolation(interpolation);
        animation.addSampler(sampler).addChannel(document.createAnimationChannel().setTargetNode(nodes[j]).setTargetPath(path).setSampler(sampler));
      }
    }
  }
  return new WebIO().writeBinary(document);
}
