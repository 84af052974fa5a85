import { type Document, GLB_BUFFER, type ILogger, type JSONDocument, WebIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { FormatError } from '../../errors.js';

/**
 * Extensions read (and written back) with the document: glTF-Transform's, less those that need a
 * decoder or component types animcore does not read (Draco, meshopt, float16/float64 accessors).
 */
const EXTENSIONS = ALL_EXTENSIONS.filter(
  (e) => !['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_accessor_float16', 'KHR_accessor_float64'].includes(e.EXTENSION_NAME),
);

/** Names of the extensions `readDocument` reads. */
export const READ_EXTENSIONS: ReadonlySet<string> = new Set(EXTENSIONS.map((e) => e.EXTENSION_NAME));

/**
 * A glTF-Transform `Document` of a checked glTF document (`checkDocument`): accessors decoded
 * with their strides and sparse values (normalized integers stay integers with their
 * `normalized` flag), `matrix` nodes decomposed into TRS, images kept as bytes.
 * @param buffers every buffer's bytes (`readBuffers`)
 * @param images bytes of external images by `uri`, where found
 * @param warnings receives glTF-Transform's warnings (e.g. an optional extension it cannot read)
 * @throws FormatError (code `unreadable`) when glTF-Transform still refuses the document
 */
export async function readDocument(
  json: Record<string, unknown>,
  buffers: readonly Uint8Array[],
  images: ReadonlyMap<string, Uint8Array>,
  warnings: string[],
): Promise<Document> {
  const resources: Record<string, Uint8Array> = {};
  const bufferDefs = (json.buffers as Record<string, unknown>[] | undefined) ?? [];
  // Keys starting with "__" are resources without a file name (glTF-Transform keeps no URI for them).
  const buffersWithKeys = bufferDefs.map((def, i) => {
    if (def.uri === undefined) {
      resources[GLB_BUFFER] = buffers[i]!;
      return def;
    }
    const key = (def.uri as string).startsWith('data:') ? `__buffer${i}.bin` : (def.uri as string);
    resources[key] = buffers[i]!;
    return { ...def, uri: key };
  });
  for (const [uri, bytes] of images) resources[uri] = bytes;
  const jsonDoc = { json: { ...json, buffers: buffersWithKeys }, resources } as unknown as JSONDocument;
  const io = new WebIO().registerExtensions(EXTENSIONS).setLogger(collect(warnings));
  try {
    return await io.readJSON(jsonDoc);
  } catch (e) {
    throw new FormatError('gltf', 'unreadable', { pointer: '' }, `glTF-Transform cannot read the document: ${(e as Error).message}`);
  }
}

/** A glTF-Transform logger that keeps warnings and errors. */
function collect(warnings: string[]): ILogger {
  return {
    debug: () => {},
    info: () => {},
    warn: (text: string) => warnings.push(text),
    error: (text: string) => warnings.push(text),
  };
}
