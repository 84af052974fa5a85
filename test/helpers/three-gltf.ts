import { type Document, NodeIO, WebIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { fixturePath } from './fixtures.js';

/**
 * A glTF fixture as one `.glb` that three.js's GLTFLoader can read in Node: textures left out (Node
 * has no image decoder) and every accessor in one buffer; `edit` may change the document first.
 */
export async function fixtureGlb(file: string, edit?: (document: Document) => void): Promise<Uint8Array> {
  const document = await new NodeIO().registerExtensions(ALL_EXTENSIONS).read(fixturePath('gltf', file));
  const root = document.getRoot();
  for (const texture of root.listTextures()) texture.dispose();
  const [first, ...others] = root.listBuffers(); // a .glb holds one buffer
  for (const accessor of root.listAccessors()) accessor.setBuffer(first!);
  for (const b of others) b.dispose();
  edit?.(document);
  return new WebIO().writeBinary(document);
}

/**
 * A copy of animation 0 as a second animation, 0.7 × as long and starting 0.05 s later (the same
 * output values on new key times): a second clip to cross-fade with on one-animation files.
 */
export function withSecondAnimation(document: Document): void {
  const first = document.getRoot().listAnimations()[0]!;
  const second = document.createAnimation('second');
  for (const channel of first.listChannels()) {
    const source = channel.getSampler()!;
    const input = source.getInput()!;
    const times = Float32Array.from(input.getArray()! as Float32Array, (t) => 0.05 + 0.7 * t);
    const sampler = document
      .createAnimationSampler()
      .setInput(document.createAccessor().setType('SCALAR').setArray(times).setBuffer(input.getBuffer()))
      // Its own copy of the values: GLTFLoader shares one array per accessor, and three.js's
      // makeClipAdditive rewrites the additive clip's values in place.
      .setOutput(source.getOutput()!.clone().setArray(source.getOutput()!.getArray()!.slice()))
      .setInterpolation(source.getInterpolation());
    second.addSampler(sampler).addChannel(document.createAnimationChannel().setSampler(sampler).setTargetNode(channel.getTargetNode()).setTargetPath(channel.getTargetPath()!));
  }
}
