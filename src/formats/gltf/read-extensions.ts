import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MESHOPT_EXTENSIONS } from './meshopt.js';

/**
 * Names of the extensions a glTF input may use: glTF-Transform's (`ALL_EXTENSIONS`, the ones a
 * well-kept tool reads), less those that need a decoder or component types animcore does not read
 * (Draco, float16/float64 accessors), plus the meshopt compressions, which the reader decodes
 * (`DECODED_EXTENSIONS`). A file that requires another extension is refused (`checkDocument`).
 */
export const READ_EXTENSIONS: ReadonlySet<string> = new Set([
  ...ALL_EXTENSIONS.map((e) => e.EXTENSION_NAME).filter((name) => !['KHR_draco_mesh_compression', 'KHR_accessor_float16', 'KHR_accessor_float64', ...MESHOPT_EXTENSIONS].includes(name)),
  ...MESHOPT_EXTENSIONS,
]);

/**
 * Extensions whose data the reader decodes (buffer views compressed with meshoptimizer): what
 * `rewriteGltf` writes is the decoded data, so it leaves them out of the output.
 */
export const DECODED_EXTENSIONS: ReadonlySet<string> = new Set(MESHOPT_EXTENSIONS);
