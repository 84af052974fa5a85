import { describe, expect, it } from 'vitest';
import { bindJoints } from '../../src/anim/index.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { referenceLocalToModel, referenceSample } from '../../src/reference/index.js';
import { concatAligned, f32Bytes, packGlb, unpackGlb } from '../helpers/glb.js';

const bytes = (typed: ArrayBufferView) => new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);

/** A document whose one buffer is `parts` laid end to end, each in its own buffer view (4-aligned), view i with `strides[i]`. */
function withViews(parts: Uint8Array[], rest: Record<string, unknown>, strides: Record<number, number> = {}): Uint8Array {
  const { bin, offsets } = concatAligned(parts);
  return packGlb(
    {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length }],
      bufferViews: parts.map((p, i) => ({ buffer: 0, byteOffset: offsets[i], byteLength: p.length, byteStride: strides[i] })),
      ...rest,
    },
    bin,
  );
}

describe('glTF accessors as the spec decodes them', () => {
  it('decodes normalized BYTE and SHORT rotations (−128 and −32768 are exactly −1) and unsigned weights', async () => {
    const glb = withViews(
      [f32Bytes([0, 1]), bytes(Int8Array.of(-128, 127, 0, 64, 0, -127, 1, -1)), bytes(Int16Array.of(-32768, 32767, 0, 16384, 0, 0, -32767, 1)), bytes(Uint8Array.of(0, 255, 51, 102)), bytes(Uint16Array.of(65535, 0, 1, 2)), f32Bytes(new Array(9).fill(0))],
      {
        accessors: [
          { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' },
          { bufferView: 1, componentType: 5120, normalized: true, count: 2, type: 'VEC4' },
          { bufferView: 2, componentType: 5122, normalized: true, count: 2, type: 'VEC4' },
          { bufferView: 3, componentType: 5121, normalized: true, count: 4, type: 'SCALAR' },
          { bufferView: 4, componentType: 5123, normalized: true, count: 4, type: 'SCALAR' },
          { bufferView: 5, componentType: 5126, count: 3, type: 'VEC3' },
        ],
        meshes: [{ primitives: [{ attributes: { POSITION: 5 }, targets: [{ POSITION: 5 }, { POSITION: 5 }] }] }],
        nodes: [{ name: 'byte' }, { name: 'short' }, { name: 'morph', mesh: 0 }],
        animations: [
          {
            samplers: [
              { input: 0, output: 1 },
              { input: 0, output: 2 },
              { input: 0, output: 3 },
              { input: 0, output: 4, interpolation: 'STEP' },
            ],
            channels: [
              { sampler: 0, target: { node: 0, path: 'rotation' } },
              { sampler: 1, target: { node: 1, path: 'rotation' } },
              { sampler: 2, target: { node: 2, path: 'weights' } },
              { sampler: 3, target: { node: 2, path: 'weights' } },
            ],
          },
        ],
      },
    );
    const r = await openGltf({ gltf: glb });
    const values = (c: number) => Array.from((r.clips[0]!.curves[c]!.keys as { values: Float32Array }).values);
    expect(values(0)).toEqual([-1, 1, 0, Math.fround(64 / 127), 0, -1, Math.fround(1 / 127), Math.fround(-1 / 127)]);
    expect(values(1)).toEqual([-1, 1, 0, Math.fround(16384 / 32767), 0, 0, -1, Math.fround(1 / 32767)]);
    // weights of 2 targets: key k holds target 0 then target 1.
    expect(values(2)).toEqual([0, 0, 0, 0, Math.fround(51 / 255), 0, 0, 0]);
    expect(values(3)).toEqual([1, 0, 0, 0, Math.fround(102 / 255), 0, 0, 0]);
    expect(values(4)).toEqual([1, 0, 0, 0, Math.fround(1 / 65535), 0, 0, 0]);
    expect(r.clips[0]!.curves.map((c) => c.target.property)).toEqual(['rotation', 'rotation', 'weights/0', 'weights/1', 'weights/0', 'weights/1']);
    expect(r.clips[0]!.curves[4]!.keys).toMatchObject({ encoding: 'keyed', interpolation: 'step' });
    expect(r.skeleton!.joints[2]!.morphWeights).toEqual([0, 0]);
  });

  it('reads interleaved outputs (byteStride) and sparse outputs', async () => {
    // Translation keys interleaved with padding: stride 16, 3 floats used.
    const interleaved = f32Bytes([1, 2, 3, 99, 4, 5, 6, 99]);
    const sparseIndices = bytes(Uint16Array.of(1));
    const sparseValues = f32Bytes([7, 8, 9]);
    const glb = withViews(
      [f32Bytes([0, 1]), interleaved, sparseIndices, sparseValues],
      {
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' },
        { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' },
        { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3', sparse: { count: 1, indices: { bufferView: 2, componentType: 5123 }, values: { bufferView: 3 } } },
        { componentType: 5126, count: 2, type: 'VEC3', sparse: { count: 1, indices: { bufferView: 2, componentType: 5123 }, values: { bufferView: 3 } } },
      ],
      nodes: [{}, {}, {}],
      animations: [
        {
          samplers: [
            { input: 0, output: 1 },
            { input: 0, output: 2 },
            { input: 0, output: 3 },
          ],
          channels: [0, 1, 2].map((i) => ({ sampler: i, target: { node: i, path: 'translation' } })),
        },
      ],
      },
      { 1: 16 },
    );
    const r = await openGltf({ gltf: glb });
    const values = (c: number) => Array.from((r.clips[0]!.curves[c]!.keys as { values: Float32Array }).values);
    expect(values(0)).toEqual([1, 2, 3, 0, 4, 5, 6, 0]);
    expect(values(1)).toEqual([1, 2, 3, 0, 7, 8, 9, 0]);
    expect(values(2)).toEqual([0, 0, 0, 0, 7, 8, 9, 0]);
    expect(r.clips[0]!.curves.map((c) => c.target.joint)).toEqual(['node0', 'node1', 'node2']);
  });

  it('reads data: URI buffers of a .gltf', async () => {
    const bin = new Uint8Array([...f32Bytes([0, 2]), ...f32Bytes([0, 0, 0, 4, 4, 4])]);
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length, uri: `data:application/gltf-buffer;base64,${Buffer.from(bin).toString('base64')}` }],
      bufferViews: [{ buffer: 0, byteLength: 32 }],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' },
        { bufferView: 0, byteOffset: 8, componentType: 5126, count: 2, type: 'VEC3' },
      ],
      nodes: [{ name: 'n' }],
      animations: [{ name: 'grow', samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'scale' } }] }],
    };
    const r = await openGltf({ gltf: new TextEncoder().encode(JSON.stringify(json)) });
    expect(r.info).toMatchObject({ container: 'gltf', nodes: 1, animations: 1 });
    expect(r.clips[0]!.name).toBe('grow');
    expect(r.clips[0]!.duration).toBe(2);
    expect(Array.from((r.clips[0]!.curves[0]!.keys as { values: Float32Array }).values)).toEqual([0, 0, 0, 0, 4, 4, 4, 0]);
    // RFC 2397 without `;base64`: percent-escaped bytes, which the Khronos validator and three.js
    // (fetch) read; characters that need no escape stand for themselves.
    const escaped = Array.from(bin, (b) => (b === 0x40 ? '@' : `%${b.toString(16).padStart(2, '0')}`)).join('');
    const base64 = Buffer.from(bin).toString('base64');
    // RFC 2397's `;base64` is a token, matched case-insensitively (as fetch does for three.js), never read as plain bytes.
    for (const uri of [`data:application/octet-stream,${escaped}`, `data:,${escaped}`, `data:application/gltf-buffer;charset=x;base64,${base64}`, `data:application/octet-stream;BASE64,${base64}`, `data:;Base64,${base64}`]) {
      json.buffers[0]!.uri = uri;
      const plain = await openGltf({ gltf: new TextEncoder().encode(JSON.stringify(json)) });
      expect(Array.from((plain.clips[0]!.curves[0]!.keys as { values: Float32Array }).values), uri.slice(0, 40)).toEqual([0, 0, 0, 0, 4, 4, 4, 0]);
    }
    json.buffers[0]!.uri = 'data:application/octet-stream,%4';
    await expect(openGltf({ gltf: new TextEncoder().encode(JSON.stringify(json)) })).rejects.toMatchObject({ code: 'bad-uri', pointer: '/buffers/0/uri' });
  });

  it('reads a BIN chunk longer than its buffer plus padding, with a warning (the validator warns, three.js and glTF-Transform read it)', async () => {
    const bin = new Uint8Array([...f32Bytes([0, 1]), ...f32Bytes([0, 0, 0, 1, 2, 3])]);
    const glb = withViews([bin.subarray(0, 8), bin.subarray(8), new Uint8Array(64)], {
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' },
        { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' },
      ],
      nodes: [{ name: 'n' }],
      animations: [{ samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
    });
    // The buffer's byteLength says 32 of the chunk's 96 bytes (the third view is dropped from the JSON).
    const { json, bin: chunk } = unpackGlb(glb);
    json.buffers[0].byteLength = 32;
    json.bufferViews.pop();
    const r = await openGltf({ gltf: packGlb(json, chunk) });
    expect(Array.from((r.clips[0]!.curves[0]!.keys as { values: Float32Array }).values)).toEqual([0, 0, 0, 0, 1, 2, 3, 0]);
    expect(r.warnings).toEqual(['/buffers/0/byteLength: the BIN chunk holds 96 bytes, more than byteLength 32 plus up to 3 bytes of padding (glTF 2.0 §4.4.3.3); the rest is not read']);
  });
});

describe('glTF nodes as the skeleton', () => {
  it('keeps every node in index order when children come before parents, and composes parents first', async () => {
    const s = Math.SQRT1_2;
    const json = {
      asset: { version: '2.0' },
      nodes: [
        { name: 'hand', translation: [1, 0, 0] },
        { name: 'arm', children: [0], rotation: [0, 0, s, s] },
        { name: 'root', children: [1], translation: [0, 0, 5] },
        { name: 'arm' },
        {},
        { matrix: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 7, 8, 9, 1] },
      ],
    };
    const r = await openGltf({ gltf: new TextEncoder().encode(JSON.stringify(json)) });
    const sk = r.skeleton!;
    expect(sk.joints.map((j) => [j.name, j.parent])).toEqual([
      ['hand', 1],
      ['arm', 2],
      ['root', -1],
      ['arm#3', -1],
      ['node4', -1],
      ['node5', -1],
    ]);
    expect(Array.from(sk.order)).toEqual([2, 1, 0, 3, 4, 5]);
    expect(sk.inIndexOrder).toBe(false);
    expect(sk.joints[5]!.rest).toEqual({ translation: [7, 8, 9], rotation: [0, 0, 0, 1], scale: [2, 2, 2] });
    const model = new Float32Array(16 * sk.size);
    referenceLocalToModel({ samples: new Float32Array(0), counts: new Uint8Array(0) }, bindJoints([], sk), model);
    // hand: root (0, 0, 5) · arm (90° about z) · (1, 0, 0) → (0, 1, 5).
    expect(Array.from(model.subarray(12, 15)).map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([0, 1, 5]);
  });

  it('reads channels glTF forbids, with warnings: on a matrix node (the matrix decomposed under the channels, as three.js), a second on one target (kept as a curve; the first poses the node)', async () => {
    const glb = withViews([f32Bytes([0, 1]), f32Bytes([0, 0, 0, 1, 2, 3]), f32Bytes([5, 5, 5, 6, 6, 6])], {
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' },
        { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' },
        { bufferView: 2, componentType: 5126, count: 2, type: 'VEC3' },
      ],
      nodes: [{ name: 'm', matrix: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 7, 8, 9, 1] }, { name: 'n' }],
      animations: [
        {
          samplers: [
            { input: 0, output: 1 },
            { input: 0, output: 2 },
          ],
          channels: [
            { sampler: 0, target: { node: 0, path: 'translation' } },
            { sampler: 0, target: { node: 0, path: 'scale' } },
            { sampler: 0, target: { node: 1, path: 'translation' } },
            { sampler: 1, target: { node: 1, path: 'translation' } },
          ],
        },
      ],
    });
    const r = await openGltf({ gltf: glb });
    // One curve per channel, in channel order (issue 15), the second on n's translation too.
    expect(r.clips[0]!.curves.map((c) => `${c.target.joint}.${c.target.property}`)).toEqual(['m.translation', 'm.scale', 'n.translation', 'n.translation']);
    expect(r.skeleton!.joints[0]!.rest).toEqual({ translation: [7, 8, 9], rotation: [0, 0, 0, 1], scale: [2, 2, 2] });
    expect(r.warnings).toEqual([
      '/animations/0/channels/0: node 0 "m" has a matrix, which glTF 2.0 §3.11 forbids on an animated node; its matrix decomposed is the rest pose under the channels (as three.js\'s GLTFLoader)',
      '/animations/0/channels/3: node 1 "n" translation is already the target of channel 2 (glTF 2.0 §3.11: one channel per target); the first channel poses the node',
    ]);
    expect(bindJoints(r.clips[0]!.curves, r.skeleton!).curves[3 * 1 + 0]).toBe(2);
  });

  it('takes rest morph weights from node.weights, then mesh.weights, target by target, as three.js\'s GLTFLoader (a list shorter than the targets, which the spec forbids, leaves the rest to the mesh)', async () => {
    const glb = withViews([f32Bytes(new Array(9).fill(0))], {
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3' }],
      meshes: [{ primitives: [0, 1].map(() => ({ attributes: { POSITION: 0 }, targets: [{ POSITION: 0 }, { POSITION: 0 }, { POSITION: 0 }] })), weights: [0.25, 0.5] }],
      nodes: [{ name: 'own', mesh: 0, weights: [0.75, 1, 0.125] }, { name: 'short', mesh: 0, weights: [0.1] }, { name: 'mesh', mesh: 0 }],
    });
    const r = await openGltf({ gltf: glb });
    expect(r.skeleton!.joints.map((j) => j.morphWeights)).toEqual([
      [0.75, 1, 0.125],
      [0.1, 0.5, 0],
      [0.25, 0.5, 0],
    ]);
  });

  it('reads negative key times as they are, with a warning (the validator refuses them; three.js and glTF-Transform read them): time 0 stays glTF time 0', async () => {
    const glb = withViews([f32Bytes([-1, 1]), f32Bytes([0, 0, 0, 2, 4, 6])], {
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' },
        { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' },
      ],
      nodes: [{ name: 'n' }],
      animations: [{ samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
    });
    const r = await openGltf({ gltf: glb });
    expect(r.warnings).toEqual(['/animations/0/samplers/0/input: key time 0 is -1 s; glTF 2.0 §3.11 requires times of 0 or more (read as they are: playing from 0 starts between keys)']);
    const clip = r.clips[0]!;
    expect(clip.duration).toBe(1);
    const out = { samples: new Float32Array(4), counts: new Uint8Array(1) };
    referenceSample(clip, 0, out);
    expect(Array.from(out.samples)).toEqual([1, 2, 3, 0]);
  });
});
