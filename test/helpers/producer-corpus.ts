// glTF files as other tools write them (issue 15, "glTF in"), made at test time from the Khronos
// fixtures in ../shared/fixtures/gltf/: every fixture through gltfpack's npm build with the option
// sets that change animation, skin or node data, and through glTF-Transform's functions. Nothing
// is copied into the repository.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Document, type Transform, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { dedup, flatten, join as joinPrimitives, meshopt, prune, quantize, resample, sparse, weld } from '@gltf-transform/functions';
import { pack } from 'gltfpack';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { fixturePath } from './fixtures.js';

/** The fixtures every producer is given (../shared/fixtures/gltf/PROVENANCE.md). */
export const PRODUCER_FIXTURES = [
  'InterpolationTest.glb',
  'RiggedSimple.glb',
  'SimpleSkin.gltf',
  'CesiumMan.glb',
  'AnimatedMorphCube.glb',
  'AnimatedMorphCube-Quantized/AnimatedMorphCube.gltf',
  'BoxAnimated.glb',
];

/**
 * gltfpack option sets (`gltfpack -h`, 1.3): compression (EXT and KHR meshopt, with filters at
 * `-cc`, the uncompressed fallback of `-cf`), quantisation on and off, animation precision and
 * rate, constant tracks, node/material keeping, simplification, vertex formats, instancing.
 */
export const GLTFPACK_OPTIONS: readonly (readonly string[])[] = [
  [],
  ['-c'],
  ['-cc'],
  ['-c', '-ce', 'khr'],
  ['-cc', '-ce', 'khr'],
  ['-cf'],
  ['-noq'],
  ['-cc', '-noq'],
  ['-kn', '-km'],
  ['-ke'],
  ['-af', '30'],
  ['-af', '0'],
  ['-af', '10', '-cc'],
  ['-ac'],
  ['-at', '8', '-ar', '6', '-as', '8'],
  ['-cc', '-at', '8', '-ar', '6', '-as', '8'],
  ['-cc', '-at', '24', '-ar', '16', '-as', '24'],
  ['-si', '0.5'],
  ['-vpf'],
  ['-vpn', '-c'],
  ['-vi', '-c'],
  ['-mm'],
  ['-mi', '-cc'],
  ['-kv'],
];

/** One produced file: its main file name and every file written (a `.gltf`'s `.bin`s beside it). */
export interface ProducedFile {
  /** `<fixture> | <producer> <options>` */
  readonly label: string;
  readonly fixture: string;
  readonly producer: 'gltfpack' | 'gltf-transform';
  readonly main: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** The fixture's file and the files beside it that it names, as gltfpack's `read` callback wants them. */
function reader(fixture: string): (path: string) => Uint8Array {
  const folder = dirname(fixturePath('gltf', fixture));
  return (path) => new Uint8Array(readFileSync(join(folder, path)));
}

/** `fixture` through gltfpack with `options`, written as `out.glb` (or `out.gltf` + its `.bin`s). */
export async function gltfpackFile(fixture: string, options: readonly string[], container: 'glb' | 'gltf' = 'glb'): Promise<ProducedFile> {
  const files = new Map<string, Uint8Array>();
  const input = fixture.split('/').pop()!;
  const main = `out.${container}`;
  await pack(['-i', input, '-o', main, ...options], { read: reader(fixture), write: (path: string, data: Uint8Array) => void files.set(path, data), log: () => {} });
  if (!files.has(main)) throw new Error(`gltfpack ${options.join(' ')} wrote nothing for ${fixture}`);
  return { label: `${fixture} | gltfpack ${options.join(' ')}${container === 'gltf' ? ' (.gltf)' : ''}`, fixture, producer: 'gltfpack', main, files };
}

/** An IO that reads and writes every extension glTF-Transform knows, meshopt with meshoptimizer's own codecs. */
async function transformIo(): Promise<NodeIO> {
  await MeshoptDecoder.ready;
  await MeshoptEncoder.ready;
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
}

/**
 * glTF-Transform function sets, by name, with how far their animation values may be from the
 * fixture's (`bound`, relative to max(1, |value|)) and what they lose that no bound covers
 * (`loses`, checked against three.js only). What glTF-Transform 4.5.1 was seen to do:
 * - `resample()` drops keys its interpolation restores within its tolerance (5e-4 seen on rotations);
 * - `meshopt({ level: 'high' })` quantises animation outputs too (≈ 2e-4 on translations) and puts
 *   CUBICSPLINE rotation outputs through the QUATERNION filter, which normalises the tangents as
 *   if they were rotations (InterpolationTest's cubic rotation: off by 1.4);
 * - `sparse()` writes the sparse values of a normalized integer output as 0 (the quantized
 *   AnimatedMorphCube's UNSIGNED_BYTE weights: every value 0 in the file, as three.js reads it too).
 */
export const TRANSFORMS: readonly { name: string; transforms: () => Transform[]; bound: number; loses: readonly ('cubic rotations' | 'normalized outputs')[] }[] = [
  { name: 'dedup prune', transforms: () => [dedup(), prune()], bound: 1e-6, loses: [] },
  { name: 'resample', transforms: () => [resample()], bound: 1e-3, loses: [] },
  { name: 'sparse', transforms: () => [sparse({ ratio: 1 })], bound: 1e-6, loses: ['normalized outputs'] }, // every accessor with a zero becomes sparse
  { name: 'quantize', transforms: () => [quantize()], bound: 1e-6, loses: [] },
  { name: 'weld', transforms: () => [weld()], bound: 1e-6, loses: [] },
  { name: 'flatten join', transforms: () => [flatten(), joinPrimitives()], bound: 1e-6, loses: [] },
  { name: 'meshopt medium', transforms: () => [meshopt({ encoder: MeshoptEncoder, level: 'medium' })], bound: 1e-6, loses: [] },
  { name: 'meshopt high', transforms: () => [meshopt({ encoder: MeshoptEncoder, level: 'high' })], bound: 5e-4, loses: ['cubic rotations'] },
  { name: 'resample dedup prune sparse meshopt', transforms: () => [resample(), dedup(), prune(), sparse({ ratio: 1 }), meshopt({ encoder: MeshoptEncoder, level: 'high' })], bound: 1e-3, loses: ['cubic rotations', 'normalized outputs'] },
];

/**
 * `fixture` through glTF-Transform's `transforms`, written as `.glb`, `.gltf` + external `.bin`
 * (`external`) or `.gltf` with `data:` buffers (`embedded`).
 */
export async function gltfTransformFile(fixture: string, set: (typeof TRANSFORMS)[number], container: 'glb' | 'external' | 'embedded'): Promise<ProducedFile> {
  const io = await transformIo();
  const document: Document = await io.read(fixturePath('gltf', fixture));
  await document.transform(...set.transforms());
  const files = new Map<string, Uint8Array>();
  const label = `${fixture} | gltf-transform ${set.name} (${container})`;
  if (container === 'glb') {
    // A .glb holds one buffer (SimpleSkin has four).
    const [first, ...others] = document.getRoot().listBuffers();
    for (const accessor of document.getRoot().listAccessors()) accessor.setBuffer(first!);
    for (const b of others) b.dispose();
    files.set('out.glb', await io.writeBinary(document));
    return { label, fixture, producer: 'gltf-transform', main: 'out.glb', files };
  }
  const { json, resources } = await io.writeJSON(document, { basename: 'out' });
  if (container === 'embedded') {
    for (const item of [...(json.buffers ?? []), ...(json.images ?? [])]) {
      if (item.uri === undefined) continue;
      item.uri = `data:application/octet-stream;base64,${Buffer.from(resources[item.uri]!).toString('base64')}`;
    }
  } else for (const [uri, bytes] of Object.entries(resources)) files.set(uri, bytes);
  files.set('out.gltf', new TextEncoder().encode(JSON.stringify(json)));
  return { label, fixture, producer: 'gltf-transform', main: 'out.gltf', files };
}
