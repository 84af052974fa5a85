// gltf-resample (issue 15): glTF → glTF bake of a 10-clip × 64-joint × 20 s file (LINEAR keys at
// 60 fps) to 30 fps, file read and write included, in memory. animcore: openGltf + rewriteGltf
// ({ fps: 30 }: the file with its animations replaced) + .glb().
// gltfpack-wasm: gltfpack's npm build, `-af 30` (resample animations at 30 Hz; it also processes
// the meshes, as gltfpack always does). gltf-transform: NodeIO read + @gltf-transform/functions
// `resample()` + write; glTF-Transform has no bake to a rate, its resample() reduces keys
// losslessly at the source rate, which is the closest operation it offers.
// Units: output joint samples (joints × clips × output keys) per second.
import { NodeIO } from '@gltf-transform/core';
import { resample } from '@gltf-transform/functions';
import { pack } from 'gltfpack';
import { gltfSource, openGltf, rewriteGltf } from '../../dist/index.js';
import { makeGltfRig } from '../gltf-files.mjs';

const CLIPS = 10;
const JOINTS = 64;
const SECONDS = 20;
const FPS = 30;

export default async function gltfResample({ cores }) {
  const glb = await makeGltfRig({ joints: JOINTS, clips: CLIPS, seconds: SECONDS, fps: 60, seed: 3 });
  const contenders = {};
  for (const [name, core] of Object.entries(cores)) {
    contenders[name] = async () => {
      // Every clip is loaded at once: its keys are tested as they are copied into the kernel.
      const resource = await openGltf({ gltf: glb, valueChecks: 'first-use' });
      core.load(resource);
      rewriteGltf(core, resource, gltfSource(resource), { fps: FPS, tolerance: 0 }).glb(); // the bake alone, as gltfpack -af does (reduce-batch measures reduction)
      resource.dispose();
    };
  }
  contenders['gltfpack-wasm'] = async () => {
    let out;
    await pack(['-i', 'in.glb', '-o', 'out.glb', '-af', String(FPS)], {
      read: () => glb,
      write: (_, data) => (out = data),
    });
    if (!out) throw new Error('gltfpack wrote nothing');
  };
  const io = new NodeIO();
  contenders['gltf-transform'] = async () => {
    const document = await io.readBinary(glb);
    await document.transform(resample());
    await io.writeBinary(document);
  };
  const outputKeys = Math.round(SECONDS * FPS) + 1;
  return [{ name: 'gltf-resample', unitsPerRun: JOINTS * CLIPS * outputKeys, unit: 'output joint samples/s', contenders, iterations: 5, baseline: 'gltfpack-wasm' }];
}
