import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MESHOPT_EXTENSIONS } from './meshopt.js';

/**
 * Extensions the reader turns into core glTF, and what `rewriteGltf`, which writes core glTF for
 * them, says it did: meshopt views are decoded when read (`readBuffers`), and
 * `KHR_animation_pointer` channels to a node's translation, rotation, scale or weights are read as
 * core channels (`channelTarget`; its other pointers are left out with a warning).
 */
export const DECODED_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ...MESHOPT_EXTENSIONS.map((name) => [name, 'buffer views written decoded (gltfpack -c compresses them again)'] as const),
  ['KHR_animation_pointer', 'node channels written as core channels, other pointer channels left out'],
]);

/**
 * Names of the extensions a glTF input may use: glTF-Transform's (`ALL_EXTENSIONS`, the ones a
 * well-kept tool reads), less the float16/float64 accessors animcore does not read, plus those of
 * `DECODED_EXTENSIONS`. `KHR_draco_mesh_compression` is read without decoding its meshes: the
 * animations, skeleton and skins are not compressed, its primitives are left out of `meshes` with
 * a warning, and `rewriteGltf` keeps their compressed bytes as they are. A file that requires
 * another extension is refused (`checkDocument`).
 */
export const READ_EXTENSIONS: ReadonlySet<string> = new Set([
  ...ALL_EXTENSIONS.map((e) => e.EXTENSION_NAME).filter((name) => !['KHR_accessor_float16', 'KHR_accessor_float64'].includes(name)),
  ...DECODED_EXTENSIONS.keys(),
]);
