// EXT_meshopt_compression / KHR_meshopt_compression buffer views (src/formats/gltf/meshopt.ts): every
// mode and filter decoded as the plain file reads, and streams or fields that are wrong refused with
// a FormatError naming the view, before anything large is allocated.
import fc from 'fast-check';
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { beforeAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { gltfSource, openGltf } from '../../src/formats/gltf/index.js';
import { haveFixtures } from '../helpers/fixtures.js';
import { concatAligned, f32Bytes, packGlb, unpackGlb } from '../helpers/glb.js';
import { gltfpackFile } from '../helpers/producer-corpus.js';

const EXT = 'EXT_meshopt_compression';

/** One view's plain bytes and how it is compressed (`filtered`: the bytes the filter's encoder made, which the view decodes to). */
interface Plain {
  bytes: Uint8Array;
  count: number;
  stride: number;
  mode: 'ATTRIBUTES' | 'TRIANGLES' | 'INDICES';
  filter?: string;
}

/**
 * A `.glb` of `json` whose views are `plain`, compressed into buffer 0 (the BIN chunk) and decoded
 * into buffer 1, a fallback buffer without `uri`, as gltfpack writes them; `extension` names the
 * extension (EXT or KHR).
 */
function compressed(json: any, plain: readonly Plain[], extension = EXT): Uint8Array {
  const data = plain.map((p) => MeshoptEncoder.encodeGltfBuffer(p.bytes, p.count, p.stride, p.mode));
  const { bin, offsets } = concatAligned(data);
  const decoded = concatAligned(plain.map((p) => p.bytes));
  json.bufferViews = plain.map((p, i) => ({
    buffer: 1,
    byteOffset: decoded.offsets[i],
    byteLength: p.bytes.length,
    extensions: { [extension]: { buffer: 0, byteOffset: offsets[i], byteLength: data[i]!.length, byteStride: p.stride, mode: p.mode, count: p.count, ...(p.filter && { filter: p.filter }) } },
  }));
  json.buffers = [{ byteLength: bin.length }, { byteLength: decoded.bin.length, extensions: { [extension]: { fallback: true } } }];
  json.extensionsUsed = [extension];
  json.extensionsRequired = [extension];
  return packGlb(json, bin);
}

const TIMES = [0, 0.5, 1];
const TRANSLATIONS = [0, 0, 0, 1.5, -2.25, 3, 100, 0.001, -7];
const ROTATIONS = [0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068, 0.5, 0.5, 0.5, 0.5];

/** Three keys of a translation (EXPONENTIAL filter, VEC3 FLOAT, stride 12) and a rotation (QUATERNION filter, normalized SHORT VEC4, stride 8), times unfiltered. */
function animationFile(extension = EXT): Uint8Array {
  const json = {
    asset: { version: '2.0' },
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 1, componentType: 5126, count: 3, type: 'VEC3' },
      { bufferView: 2, componentType: 5122, normalized: true, count: 3, type: 'VEC4' },
    ],
    nodes: [{ name: 'a' }],
    animations: [
      {
        samplers: [
          { input: 0, output: 1 },
          { input: 0, output: 2 },
        ],
        channels: [
          { sampler: 0, target: { node: 0, path: 'translation' } },
          { sampler: 1, target: { node: 0, path: 'rotation' } },
        ],
      },
    ],
  };
  return compressed(
    json,
    [
      { bytes: f32Bytes(TIMES), count: 3, stride: 4, mode: 'ATTRIBUTES' },
      { bytes: MeshoptEncoder.encodeFilterExp(Float32Array.from(TRANSLATIONS), 3, 12, 15), count: 3, stride: 12, mode: 'ATTRIBUTES', filter: 'EXPONENTIAL' },
      { bytes: MeshoptEncoder.encodeFilterQuat(Float32Array.from(ROTATIONS), 3, 8, 16), count: 3, stride: 8, mode: 'ATTRIBUTES', filter: 'QUATERNION' },
    ],
    extension,
  );
}

const POSITIONS = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];
const NORMALS = [0, 0, 1, 0, 0.6, 0.8, 1, 0, 0, 0, -1, 0];
const COLORS = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0.5, 0.25, 0.5, 0.75, 1];
const TRIANGLES = [0, 1, 2, 2, 1, 3];

/** A quad of two primitives: positions unfiltered, normals OCTAHEDRAL (normalized BYTE VEC4), colours COLOR (normalized UNSIGNED_BYTE VEC4), indices TRIANGLES and INDICES. */
function meshFile(): Uint8Array {
  const json = {
    asset: { version: '2.0' },
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5120, normalized: true, count: 4, type: 'VEC4' },
      { bufferView: 2, componentType: 5121, normalized: true, count: 4, type: 'VEC4' },
      { bufferView: 3, componentType: 5123, count: 6, type: 'SCALAR' },
      { bufferView: 4, componentType: 5125, count: 6, type: 'SCALAR' },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 3 }, { attributes: { POSITION: 0 }, indices: 4 }] }],
    nodes: [{ name: 'quad', mesh: 0 }],
    scenes: [{ nodes: [0] }],
  };
  return compressed(json, [
    { bytes: f32Bytes(POSITIONS), count: 4, stride: 12, mode: 'ATTRIBUTES' },
    { bytes: MeshoptEncoder.encodeFilterOct(Float32Array.from(NORMALS.flatMap((v, i) => (i % 3 === 2 ? [v, 0] : [v]))), 4, 4, 8), count: 4, stride: 4, mode: 'ATTRIBUTES', filter: 'OCTAHEDRAL' },
    { bytes: MeshoptEncoder.encodeFilterColor(Float32Array.from(COLORS), 4, 4, 8), count: 4, stride: 4, mode: 'ATTRIBUTES', filter: 'COLOR' },
    { bytes: new Uint8Array(Uint16Array.from(TRIANGLES).buffer), count: 6, stride: 2, mode: 'TRIANGLES' },
    { bytes: new Uint8Array(Uint32Array.from(TRIANGLES).buffer), count: 6, stride: 4, mode: 'INDICES' },
  ]);
}

async function formatError(bytes: Uint8Array): Promise<FormatError> {
  try {
    await openGltf({ gltf: bytes });
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

/** `file` with `edit` applied to its JSON. */
function edited(file: Uint8Array, edit: (json: any) => void): Uint8Array {
  const { json, bin } = unpackGlb(file);
  edit(json);
  return packGlb(json, bin);
}

describe('meshopt-compressed buffer views', () => {
  beforeAll(async () => {
    await MeshoptEncoder.ready;
  });

  it.each([EXT, 'KHR_meshopt_compression'])('%s: animation keys through the ATTRIBUTES mode and the EXPONENTIAL and QUATERNION filters read as the plain values', async (extension) => {
    const r = await openGltf({ gltf: animationFile(extension) });
    const [translation, rotation] = r.clips[0]!.curves;
    expect(translation!.keys).toMatchObject({ encoding: 'keyed', times: Float32Array.from(TIMES) });
    const t = (translation!.keys as { values: Float32Array }).values;
    const q = (rotation!.keys as { values: Float32Array }).values;
    for (let k = 0; k < 3; k++) {
      for (let c = 0; c < 3; c++) expect(Math.abs(t[4 * k + c]! - TRANSLATIONS[3 * k + c]!)).toBeLessThanOrEqual(2 ** -14 * 128); // 15-bit mantissa, exponent of the largest (|100| < 128)
      for (let c = 0; c < 4; c++) expect(Math.abs(q[4 * k + c]! - ROTATIONS[4 * k + c]!)).toBeLessThanOrEqual(2e-4);
    }
    expect(r.warnings).toEqual([]);
  });

  it('mesh data through TRIANGLES and INDICES, OCTAHEDRAL normals and COLOR colours decodes to the plain data', async () => {
    const r = await openGltf({ gltf: meshFile() });
    expect(Array.from(r.meshes[0]!.positions)).toEqual(POSITIONS);
    expect(Array.from(r.meshes[0]!.indices)).toEqual(TRIANGLES);
    expect(Array.from(r.meshes[1]!.indices)).toEqual(TRIANGLES);
    const decoded = gltfSource(r)!.buffers[1]!;
    const normals = new Int8Array(decoded.buffer, decoded.byteOffset + 48, 16);
    for (let v = 0; v < 4; v++) for (let c = 0; c < 3; c++) expect(Math.abs(normals[4 * v + c]! / 127 - NORMALS[3 * v + c]!)).toBeLessThanOrEqual(0.02);
    const colors = decoded.subarray(64, 80);
    for (let i = 0; i < 16; i++) expect(Math.abs(colors[i]! / 255 - COLORS[i]!)).toBeLessThanOrEqual(2 / 255);
  });

  it('names the view for fields the extension does not allow', async () => {
    const file = animationFile();
    const cases: [(json: any) => void, string, string][] = [
      [(j) => (j.bufferViews[1].extensions[EXT].mode = 'POINTS'), '/bufferViews/1/extensions/EXT_meshopt_compression/mode', 'bad-json-value'],
      [(j) => (j.bufferViews[1].extensions[EXT].filter = 'ZIP'), '/bufferViews/1/extensions/EXT_meshopt_compression/filter', 'bad-json-value'],
      [(j) => (j.bufferViews[1].extensions[EXT].filter = 'QUATERNION'), '/bufferViews/1/extensions/EXT_meshopt_compression/byteStride', 'bad-json-value'], // QUATERNION decodes stride 8 only
      [(j) => (j.bufferViews[1].extensions[EXT].byteStride = 6), '/bufferViews/1/extensions/EXT_meshopt_compression/byteStride', 'bad-json-value'],
      [(j) => Object.assign(j.bufferViews[0].extensions[EXT], { mode: 'TRIANGLES', filter: 'EXPONENTIAL' }), '/bufferViews/0/extensions/EXT_meshopt_compression/filter', 'bad-json-value'],
      [(j) => (j.bufferViews[1].extensions[EXT].count = 4), '/bufferViews/1/extensions/EXT_meshopt_compression/count', 'bad-count'],
      [(j) => (j.bufferViews[1].extensions[EXT].byteOffset = 1e6), '/bufferViews/1/extensions/EXT_meshopt_compression', 'out-of-range'],
      [(j) => (j.bufferViews[1].extensions[EXT].buffer = 1), '/bufferViews/1/extensions/EXT_meshopt_compression/buffer', 'bad-index'],
      [(j) => delete j.bufferViews[1].extensions, '/bufferViews/1', 'missing-resource'],
      [(j) => (j.bufferViews[1].byteOffset = j.buffers[1].byteLength), '/bufferViews/1', 'out-of-range'],
    ];
    // A 100,000-character mode is quoted, not repeated (fuzz, gltf-meshopt seed 15 #3567).
    const long = await formatError(edited(file, (j) => (j.bufferViews[1].extensions[EXT].mode = 'x'.repeat(100_000))));
    expect(long.message.length).toBeLessThan(300);
    const got = [];
    for (const [edit] of cases) {
      const e = await formatError(edited(file, edit));
      got.push([e.pointer, e.code]);
    }
    expect(got).toEqual(cases.map(([, pointer, code]) => [pointer, code]));
  });

  it('refuses counts and lengths the compressed bytes cannot hold before allocating them', async () => {
    const file = animationFile();
    // 2^31 bytes of keys asked from a 40-byte stream; a fallback buffer of 1 GiB for 48 bytes of views.
    const huge = edited(file, (j) => {
      Object.assign(j.bufferViews[1].extensions[EXT], { count: 2 ** 27, byteStride: 16 });
      j.bufferViews[1].byteLength = 2 ** 31;
      j.buffers[1].byteLength = 2 ** 32;
    });
    const e = await formatError(huge);
    expect([e.pointer, e.code]).toEqual(['/bufferViews/1/extensions/EXT_meshopt_compression/byteLength', 'bad-count']);
    expect(e.message).toMatch(/cannot hold 2147483648 bytes/);
    const fallback = await formatError(edited(file, (j) => (j.buffers[1].byteLength = 2 ** 30)));
    expect([fallback.pointer, fallback.code]).toEqual(['/buffers/1/byteLength', 'size-mismatch']);
  });

  it('refuses a stream the decoder cannot decode, naming the view', async () => {
    const { json, bin } = unpackGlb(animationFile());
    const at = json.bufferViews[1].extensions[EXT].byteOffset;
    const broken = bin.slice();
    broken[at] = 0x7f; // not a vertex codec header
    const e = await formatError(packGlb(json, broken));
    expect([e.pointer, e.code]).toEqual(['/bufferViews/1/extensions/EXT_meshopt_compression', 'bad-value']);
    expect(e.message).toMatch(/does not decode \(meshoptimizer: Malformed buffer data/);
    json.bufferViews[1].extensions[EXT].byteLength -= 8; // cut short
    const cut = await formatError(packGlb(json, bin));
    expect(cut.pointer).toBe('/bufferViews/1/extensions/EXT_meshopt_compression');
  });

  it.skipIf(!haveFixtures('gltf'))('gives a FormatError or a resource, never another error, for corrupted compressed data (gltfpack -cc)', async () => {
    const produced = await gltfpackFile('RiggedSimple.glb', ['-cc']);
    const { json, bin } = unpackGlb(produced.files.get('out.glb')!);
    let opened = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ at: fc.nat({ max: bin.length - 1 }), value: fc.nat({ max: 255 }) }), { minLength: 1, maxLength: 4 }), async (flips) => {
        const bytes = bin.slice();
        for (const f of flips) bytes[f.at] = f.value;
        try {
          await openGltf({ gltf: packGlb(json, bytes) });
          opened++;
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
        }
      }),
      { numRuns: 300 },
    );
    expect(opened).toBeGreaterThan(0); // some flips land in bytes that still decode
  });
});
