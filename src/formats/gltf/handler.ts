import { FormatError } from '../../errors.js';
import type { FormatHandler } from '../handler.js';
import { type GltfContainer, isGlb, looksLikeGltfJson, readGltfContainer } from './container.js';
import { uriPath } from './buffers.js';
import { openGltf } from './open.js';

/**
 * glTF 2.0 `.glb` (by its magic) and `.gltf` (JSON with an `asset` property), opened with
 * `openGltf`; external buffers and images are the files the document names beside it
 * (`sibling`, listed by `references` so that a folder walk takes them as the document's). Detection splits the container and parses the JSON once, for `open`; a file that
 * looks like glTF but does not parse is still claimed, so that `open` reports where it breaks.
 */
export const gltfHandler: FormatHandler<GltfContainer | null> = {
  id: 'gltf',
  description: 'glTF 2.0 (.glb, .gltf with external or data: buffers)',
  priority: 50,
  extensions: ['.glb', '.gltf'],
  companions: [],
  detect(bytes) {
    if (!isGlb(bytes) && !looksLikeGltfJson(bytes)) return null;
    try {
      return { parsed: readGltfContainer(bytes) };
    } catch (e) {
      if (e instanceof FormatError) return { parsed: null };
      throw e;
    }
  },
  open: (input) => openGltf({ gltf: input.detected ?? input.bytes, resources: (uri) => input.sibling(uri) }),
  references(detected) {
    const json = detected?.json as { buffers?: unknown; images?: unknown } | undefined;
    const uris = [json?.buffers, json?.images].flatMap((list) => (Array.isArray(list) ? list.map((item) => (item as { uri?: unknown } | null)?.uri) : []));
    return uris.flatMap((uri) => {
      const named = typeof uri === 'string' ? uriPath(uri) : undefined;
      return named !== undefined && 'path' in named ? [named.path] : [];
    });
  },
};
