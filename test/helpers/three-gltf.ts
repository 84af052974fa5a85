import { type Document, WebIO } from '@gltf-transform/core';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { gltfSourceDocument } from '../../src/formats/gltf/index.js';
import { openGltfFixture } from './gltf-fixtures.js';

/**
 * A glTF fixture as one `.glb` that three.js's GLTFLoader can read in Node: textures left out (Node
 * has no image decoder) and every accessor in one buffer; `edit` may change the document first.
 */
export async function fixtureGlb(file: string, edit?: (document: Document) => void): Promise<Uint8Array> {
  const document = gltfSourceDocument(await openGltfFixture(file))!;
  const root = document.getRoot();
  for (const texture of root.listTextures()) texture.dispose();
  const [first, ...others] = root.listBuffers(); // a .glb holds one buffer
  for (const accessor of root.listAccessors()) accessor.setBuffer(first!);
  for (const b of others) b.dispose();
  edit?.(document);
  return new WebIO().writeBinary(document);
}

/** `.glb` bytes as three.js's GLTFLoader reads them. */
export function parseWithThree(glb: Uint8Array): Promise<GLTF> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}
