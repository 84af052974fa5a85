import type { AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { type GltfExportOptions, toGltfDocument, writeGlb } from '../../src/export/gltf.js';
import { rewriteGltf } from '../../src/export/gltf-rewrite.js';
import { gltfSource } from '../../src/formats/gltf/index.js';

/**
 * A resource exported to `.glb` as the command line does it: a glTF input's own file with its
 * animations rewritten (`rewriteGltf`), any other resource as a new document (`toGltfDocument`).
 * `input` is the resource the file was opened as (the one `gltfSource` knows), when `resource` was made from it.
 */
export async function exportGlb(core: AnimCore, resource: AnimResource, options: GltfExportOptions = {}, input: AnimResource = resource) {
  const source = gltfSource(input);
  if (source) {
    const rewritten = rewriteGltf(core, resource, source, options);
    return { glb: rewritten.glb(), exported: rewritten };
  }
  const exported = toGltfDocument(core, resource, options);
  return { glb: await writeGlb(exported.document), exported };
}
