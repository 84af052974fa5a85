import { AnimResource } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import { shorten } from '../text.js';
import { type GltfResourceReader, readBuffers, resolveResourceUri, URI_MAX } from './buffers.js';
import { checkDocument } from './check-document.js';
import { type GltfContainer, readGltfContainer } from './container.js';
import { array, object, type JsonObject } from './json-fields.js';
import { READ_EXTENSIONS } from './read-extensions.js';
import { gltfClips } from './to-clips.js';
import { gltfMeshes } from './to-meshes.js';
import { keepGltfSource } from './source.js';
import { gltfSkeleton } from './to-skeleton.js';
import { uniqueNames } from './unique-names.js';

/** The files of one glTF asset for `openGltf`. */
export interface GltfFiles {
  /** The `.glb` or `.gltf` file, or its container already split by `readGltfContainer`. */
  gltf: Uint8Array | GltfContainer;
  /**
   * Reads the files the document names by relative URI: external buffers (`.bin` beside a
   * `.gltf`) and images. Without it only `.glb` chunks and `data:` URIs are read; a missing
   * buffer is a `FormatError`, a missing image a warning.
   */
  resources?: GltfResourceReader;
  /**
   * When the values of LINEAR/STEP translation, rotation and scale outputs are tested against the
   * file-value rule (value-range.ts): `'open'` (default) here, so a NaN key refuses the file;
   * `'first-use'` when the keys are first used — by `core.load`, which tests them as it copies
   * them into the kernel, or when a curve's `keys.values` is read — with the same `FormatError`.
   * `'first-use'` saves one pass over the keys for a pipeline that loads every clip at once (a
   * glTF → glTF bake); a caller that never loads nor reads the keys then sees no error.
   */
  valueChecks?: 'open' | 'first-use';
}

/**
 * Opens a glTF 2.0 asset (`.glb`, or `.gltf` with external or `data:` buffers) into an
 * `AnimResource` of format `gltf`, reading the checked JSON (`checkDocument`) and the accessors
 * straight from the buffers (no document model; glTF-Transform's `MathUtils` decomposes matrices
 * and decodes normalized integers):
 * - `skeleton`: every node in index order, named by `node.name` (`node<i>` without one; a
 *   duplicate gets `#<i>`), with its parent and rest transform, and the skins (`gltfSkeleton`);
 * - `clips`: one per animation (`gltfClips`: keyed LINEAR/STEP and cubic CUBICSPLINE curves,
 *   rotations slerped by default as glTF 2.0 Appendix C says);
 * - `meshes` and `skins`: triangle primitives as rigid and skinned meshes (`gltfMeshes`);
 * - `info`: container, generator, counts and extensions; `warnings`: what was left out and why.
 * The file as read stays available through `gltfSource(resource)` (for `rewriteGltf`).
 * @throws FormatError (format `gltf`) naming the byte offset (container, JSON syntax) or the JSON
 *   pointer (structure, accessors out of range, counts that disagree, key times and CUBICSPLINE or
 *   morph weight values that are not file values; with `valueChecks: 'first-use'`, LINEAR/STEP
 *   translation, rotation and scale values only when first used: by `core.load`, or when a
 *   curve's `keys.values` is read).
 * @throws UsageError for a `valueChecks` that is neither `'open'` nor `'first-use'`
 */
export async function openGltf(files: GltfFiles): Promise<AnimResource> {
  const container = files.gltf instanceof Uint8Array ? readGltfContainer(files.gltf) : files.gltf;
  const json = object(container.json, '');
  const warnings = [...(container.warnings ?? [])];
  const buffers = await readBuffers(json, container.bin, files.resources, warnings);
  const collections = checkDocument(json, buffers, READ_EXTENSIONS);
  const images = new Map<string, Uint8Array>();
  for (const [i, image] of collections.images!.entries()) {
    const uri = image.uri as string | undefined;
    if (image.bufferView !== undefined || uri === undefined || uri.startsWith('data:')) continue;
    // An image is not part of the animation model: one that cannot be read is a warning, not a refusal.
    const bytes = await resolveResourceUri(uri, files.resources);
    if (bytes === undefined) warnings.push(`/images/${i}: image file "${shorten(uri, URI_MAX)}" not found; left out`);
    else if ('refused' in bytes) warnings.push(`/images/${i}: ${bytes.refused}; left out`);
    else images.set(uri, bytes);
  }
  // Unknown optional extensions are left out: what they add (materials, lights …) is not part of the model.
  array(json.extensionsUsed, '/extensionsUsed').forEach((name, i) => {
    if (typeof name === 'string' && !READ_EXTENSIONS.has(name)) warnings.push(`/extensionsUsed/${i}: extension "${name}" is not read; left out`);
  });
  const names = uniqueNames(
    collections.nodes!.map((n) => n.name as string | undefined),
    'node',
  );
  const skeleton = gltfSkeleton(collections, buffers, names, warnings);
  const clips = gltfClips(collections, buffers, names, warnings, valueChecks(files.valueChecks) === 'open');
  const { meshes, skins } = gltfMeshes(collections, buffers, skeleton, warnings);
  const resource = new AnimResource({ format: 'gltf', clips, skeleton, meshes, skins, info: info(container, json, collections.nodes!.length), warnings });
  keepGltfSource(resource, { container: container.container, json, collections, buffers, images, skeleton });
  return resource;
}

function info(container: GltfContainer, json: JsonObject, nodes: number): Record<string, unknown> {
  const asset = json.asset as JsonObject;
  const count = (name: string) => array(json[name], `/${name}`).length;
  return {
    container: container.container,
    version: asset.version,
    generator: asset.generator ?? null,
    nodes,
    meshes: count('meshes'),
    skins: count('skins'),
    animations: count('animations'),
    extensionsUsed: json.extensionsUsed ?? [],
    extensionsRequired: json.extensionsRequired ?? [],
  };
}

/** `GltfFiles.valueChecks`, its default applied. @throws UsageError for another value */
function valueChecks(option: GltfFiles['valueChecks']): 'open' | 'first-use' {
  if (option === undefined || option === 'open' || option === 'first-use') return option ?? 'open';
  throw new UsageError(`valueChecks must be 'open' or 'first-use', got ${JSON.stringify(option)}`);
}
