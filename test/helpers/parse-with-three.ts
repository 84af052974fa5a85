import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

/** `.glb` bytes as three.js's GLTFLoader reads them. */
export function parseWithThree(glb: Uint8Array): Promise<GLTF> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}
