import { ALL_EXTENSIONS } from '@gltf-transform/extensions';

/**
 * Names of the extensions a glTF input may use and `rewriteGltf` writes back: glTF-Transform's
 * (`ALL_EXTENSIONS`, the ones a well-kept tool reads), less those that need a decoder or component
 * types animcore does not read (Draco, meshopt, float16/float64 accessors). A file that requires
 * another extension is refused (`checkDocument`).
 */
export const READ_EXTENSIONS: ReadonlySet<string> = new Set(
  ALL_EXTENSIONS.map((e) => e.EXTENSION_NAME).filter((name) => !['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_accessor_float16', 'KHR_accessor_float64'].includes(name)),
);
