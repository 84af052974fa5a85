import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnimResource } from '../../src/anim/index.js';
import { FormatError } from '../../src/errors.js';
import { MAX_JSON_DEPTH } from '../../src/formats/gltf/container.js';
import type { GltfResourceReader } from '../../src/formats/gltf/buffers.js';
import { openGltf } from '../../src/formats/gltf/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { f32Bytes, packGlb, unpackGlb } from '../helpers/glb.js';

/** One node, one animation: translation keys at 0 and 1 s (bytes 0–7 times, 8–31 values). */
function smallGltf(): { json: any; bin: Uint8Array } {
  const bin = new Uint8Array([...f32Bytes([0, 1]), ...f32Bytes([0, 0, 0, 1, 2, 3])]);
  const json = {
    asset: { version: '2.0' },
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 8 },
      { buffer: 0, byteOffset: 8, byteLength: 24 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' },
    ],
    nodes: [{ name: 'a' }],
    animations: [{ samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
  };
  return { json, bin };
}

const cores = await Promise.all(BUILDS.map(createCore));

/**
 * The FormatError of opening `bytes` (the default `valueChecks: 'open'`), and the same error with
 * `valueChecks: 'first-use'`: from opening, or for the output values a reader then tests when they
 * are first used (LINEAR/STEP translation, rotation, scale: `PackedValues.unchecked`), from loading
 * the keys into a core (both builds) and from reading their values.
 */
async function formatError(bytes: Uint8Array, resources?: GltfResourceReader): Promise<FormatError> {
  let opened: unknown;
  try {
    await openGltf({ gltf: bytes, resources });
  } catch (e) {
    opened = e;
  }
  if (opened === undefined) throw new Error('expected a FormatError from openGltf');
  expect(opened).toBeInstanceOf(FormatError);
  const same = (e: unknown) => {
    expect(e).toBeInstanceOf(FormatError);
    const [a, b] = [e as FormatError, opened as FormatError];
    expect([a.pointer, a.code, a.message]).toEqual([b.pointer, b.code, b.message]);
  };
  let resource: AnimResource;
  try {
    resource = await openGltf({ gltf: bytes, resources, valueChecks: 'first-use' });
  } catch (e) {
    same(e);
    return opened as FormatError;
  }
  const errors: unknown[] = [];
  for (const core of cores) {
    try {
      core.load(resource);
    } catch (e) {
      errors.push(e);
    }
    expect(core.runtime.isLoaded(resource.clips[0]!), 'a refused clip is not loaded').toBe(false);
  }
  try {
    for (const clip of (await openGltf({ gltf: bytes, resources, valueChecks: 'first-use' })).clips) for (const curve of clip.curves) void (curve.keys as { values?: Float32Array }).values;
  } catch (e) {
    errors.push(e);
  }
  expect(errors).toHaveLength(cores.length + 1);
  errors.forEach(same);
  return opened as FormatError;
}

/** The small document with `edit` applied to its JSON (and bin). */
function edited(edit: (json: any, bin: Uint8Array) => void): Uint8Array {
  const { json, bin } = smallGltf();
  edit(json, bin);
  return packGlb(json, bin);
}

describe('bad glTF ends in a FormatError that says where', () => {
  it('reads the small document (the base of the cases below)', async () => {
    const { json, bin } = smallGltf();
    const r = await openGltf({ gltf: packGlb(json, bin) });
    expect(r.clips[0]!.curves[0]!.keys).toMatchObject({ encoding: 'keyed', times: Float32Array.of(0, 1) });
  });

  it('names the byte offset of a truncated .glb', async () => {
    const { json, bin } = smallGltf();
    const glb = packGlb(json, bin);
    for (const n of [3, 11, 12, 19, 30, glb.length - 1]) {
      const e = await formatError(glb.subarray(0, n));
      expect(e.offset, `${n} bytes`).toBeLessThanOrEqual(n);
      expect(e.message).toMatch(/byte \d+/);
    }
    const short = glb.slice();
    new DataView(short.buffer).setUint32(8, 11, true);
    expect((await formatError(short)).code).toBe('bad-length');
  });

  it('reads a .glb with bytes after its header length (validator warning GLB_EXTRA_DATA, glTF-Transform reads it), reporting them', async () => {
    const { json, bin } = smallGltf();
    const glb = packGlb(json, bin);
    const plain = await openGltf({ gltf: glb });
    for (const extra of [1, 4, 8, 13]) {
      const longer = new Uint8Array(glb.length + extra).fill(0xa5);
      longer.set(glb);
      const r = await openGltf({ gltf: longer });
      expect(r.warnings, `${extra} bytes`).toContain(`the GLB header says ${glb.length} bytes, the file has ${glb.length + extra}; the ${extra} bytes from byte ${glb.length} on are not read (glTF 2.0 §4.4.2)`);
      expect(r.clips[0]!.curves[0]!.keys).toEqual(plain.clips[0]!.curves[0]!.keys);
    }
  });

  it('names the byte offset where the JSON stops parsing (.gltf and .glb)', async () => {
    const text = '{"asset": {"version": "2.0"},\n "nodes": [{"name": "a",}]}';
    const e = await formatError(new TextEncoder().encode(text));
    expect(e.code).toBe('bad-json');
    expect(e.offset).toBe(text.indexOf('}]'));
    const glb = packGlb({ asset: { version: '2.0' } });
    glb[20] = 0x5b; // '[' where '{' was: the document no longer closes
    expect((await formatError(glb)).offset).toBeGreaterThanOrEqual(20);
    expect((await formatError(new TextEncoder().encode('{"asset": {"version": "2.0"}'))).offset).toBe(28);
    // A byte order mark (which we skip, as three.js's TextDecoder does) counts: offsets are the file's.
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    expect((await formatError(bom)).offset).toBe(3 + text.indexOf('}]'));
    const withBom = (json: unknown) => {
      const glb = packGlb(json, undefined);
      const text = new TextEncoder().encode(JSON.stringify(json));
      const out = new Uint8Array(glb.length + 4);
      out.set(glb.subarray(0, 20));
      new DataView(out.buffer).setUint32(8, out.length, true);
      new DataView(out.buffer).setUint32(12, glb.length - 20 + 4, true);
      out.fill(0x20, 20);
      out.set([0xef, 0xbb, 0xbf, ...text], 20);
      return out;
    };
    const ok = withBom({ asset: { version: '2.0' }, nodes: [{ name: 'a' }] });
    expect((await openGltf({ gltf: ok })).skeleton!.joints[0]!.name).toBe('a');
    const broken = withBom({ asset: { version: '2.0' }, nodes: 'NOPE' });
    const at = broken.indexOf(0x22, 20 + 3 + JSON.stringify({ asset: { version: '2.0' }, nodes: 'NOPE' }).indexOf('"NOPE"')); // the quote of "NOPE"
    broken[at] = 0x7d; // '}' where a value belongs
    expect((await formatError(broken)).offset).toBe(at);
  });

  it('says what is wrong with a JSON chunk padded with zeros and a BIN chunk that is not the second chunk (glTF 2.0 §4.4.3)', async () => {
    const { json, bin } = smallGltf();
    json.asset.generator = 'x';
    while (JSON.stringify(json).length % 4 !== 1) json.asset.generator += 'x'; // three bytes of padding
    const glb = packGlb(json, bin);
    const jsonEnd = 20 + JSON.stringify(json).length;
    expect(Array.from(glb.subarray(jsonEnd, jsonEnd + 3))).toEqual([0x20, 0x20, 0x20]);
    glb.fill(0, jsonEnd, jsonEnd + 3);
    let e = await formatError(glb);
    expect([e.code, e.offset]).toEqual(['bad-json', jsonEnd]);
    expect(e.message).toMatch(/padded with 0x00.*spaces \(0x20\)/);
    // JSON, an unknown chunk, then BIN: the BIN chunk is named, not reported missing.
    const plain = packGlb(json);
    const unknown = [8, 0, 0, 0, 0x41, 0x42, 0x43, 0x44, 0, 0, 0, 0, 0, 0, 0, 0];
    const binChunk = new Uint8Array(8 + bin.length);
    new DataView(binChunk.buffer).setUint32(0, bin.length, true);
    new DataView(binChunk.buffer).setUint32(4, 0x004e4942, true);
    binChunk.set(bin, 8);
    const out = new Uint8Array([...plain, ...unknown, ...binChunk]);
    new DataView(out.buffer).setUint32(8, out.length, true);
    e = await formatError(out);
    expect([e.code, e.offset]).toEqual(['bad-chunk', plain.length + unknown.length + 4]);
    expect(e.message).toMatch(/chunk 2 is a BIN chunk; the BIN chunk must be the second chunk/);
  });

  it('refuses JSON nested deeper than MAX_JSON_DEPTH at the bracket too many, valid or not (no stack overflow later)', async () => {
    const { json, bin } = smallGltf();
    // `extras` nested `n` deep inside the document's object: n + 1 levels in all.
    const withExtras = (doc: object, n: number) => JSON.stringify({ ...doc, extras: 'DEEP' }).replace('"DEEP"', '['.repeat(n) + ']'.repeat(n));
    const opens = (text: string) => text.indexOf('[['.repeat(64)) + MAX_JSON_DEPTH - 1; // the bracket opening level MAX_JSON_DEPTH + 1
    const glb = (n: number) => packGlb(JSON.parse(withExtras(json, n)), bin);
    const gltf = (n: number) => new TextEncoder().encode(withExtras({ asset: { version: '2.0' } }, n));
    await openGltf({ gltf: glb(MAX_JSON_DEPTH - 1) });
    await openGltf({ gltf: gltf(MAX_JSON_DEPTH - 1) });
    let e = await formatError(glb(MAX_JSON_DEPTH));
    expect([e.code, e.offset]).toEqual(['bad-json', 20 + opens(withExtras(json, MAX_JSON_DEPTH))]);
    expect(e.message).toMatch(/nests deeper than 128 levels/);
    for (const n of [MAX_JSON_DEPTH, 100_000]) {
      e = await formatError(gltf(n));
      expect([e.code, e.offset]).toEqual(['bad-json', opens(withExtras({ asset: { version: '2.0' } }, n))]);
    }
    // Not JSON and deep: the locator would recurse; the depth is found first.
    e = await formatError(new TextEncoder().encode('{"a":' + '['.repeat(50_000)));
    expect([e.code, e.offset]).toEqual(['bad-json', 5 + MAX_JSON_DEPTH - 1]);
  });

  it('names the JSON pointer of an accessor outside its buffer view, and of a view outside its buffer', async () => {
    let e = await formatError(edited((j) => (j.accessors[1].count = 3)));
    expect([e.pointer, e.code]).toEqual(['/accessors/1', 'out-of-range']);
    e = await formatError(edited((j) => (j.accessors[1].byteOffset = 4)));
    expect(e.pointer).toBe('/accessors/1');
    e = await formatError(edited((j) => (j.bufferViews[1].byteLength = 28)));
    expect(e.pointer).toBe('/bufferViews/1');
    e = await formatError(edited((j) => (j.accessors[0].bufferView = 7)));
    expect([e.pointer, e.code]).toEqual(['/accessors/0/bufferView', 'bad-index']);
    e = await formatError(edited((j) => (j.bufferViews[1].byteStride = 8)));
    expect(e.pointer).toBe('/accessors/1');
  });

  it('names the sampler output when counts disagree, and the channel when its path needs another type', async () => {
    let e = await formatError(
      edited((j) => {
        j.accessors[0].count = 1;
        j.bufferViews[0].byteLength = 4;
      }),
    );
    expect([e.pointer, e.code]).toEqual(['/animations/0/samplers/0/output', 'bad-count']);
    e = await formatError(edited((j) => (j.animations[0].samplers[0].interpolation = 'CUBICSPLINE')));
    expect(e.pointer).toBe('/animations/0/samplers/0/output');
    e = await formatError(edited((j) => (j.animations[0].channels[0].target.path = 'rotation')));
    expect(e.pointer).toBe('/animations/0/samplers/0/output');
    e = await formatError(
      edited((j) => {
        j.animations[0].channels[0].target.path = 'weights';
        Object.assign(j.accessors[1], { type: 'SCALAR', count: 6 });
      }),
    );
    expect(e.pointer).toBe('/animations/0/channels/0/target/node');
    e = await formatError(edited((j) => (j.animations[0].samplers[0].interpolation = 'SMOOTH')));
    expect(e.pointer).toBe('/animations/0/samplers/0/interpolation');
    e = await formatError(edited((j) => (j.animations[0].channels[0].sampler = 1)));
    expect(e.pointer).toBe('/animations/0/channels/0/sampler');
  });

  it('names the sampler input or output holding a NaN, an infinity or decreasing times', async () => {
    let e = await formatError(edited((_, bin) => bin.set(f32Bytes([NaN]), 16)));
    expect([e.pointer, e.code]).toEqual(['/animations/0/samplers/0/output', 'bad-value']);
    e = await formatError(edited((_, bin) => bin.set(f32Bytes([Infinity]), 4)));
    expect(e.pointer).toBe('/animations/0/samplers/0/input');
    e = await formatError(edited((_, bin) => bin.set(f32Bytes([2]), 0)));
    expect(e.message).toMatch(/before key time 0/);
  });

  it('refuses node cycles, shared children, a missing buffer and unknown required extensions', async () => {
    let e = await formatError(edited((j) => j.nodes.push({ children: [2] }, { children: [1] })));
    expect([e.pointer, e.code]).toEqual(['/nodes/1', 'bad-hierarchy']);
    e = await formatError(edited((j) => j.nodes.push({ children: [0] }, { children: [0] })));
    expect(e.pointer).toBe('/nodes/2/children/0');
    e = await formatError(edited((j) => j.nodes.push({ children: [1] })));
    expect(e.pointer).toBe('/nodes/1/children/0');
    const { json } = smallGltf();
    json.buffers[0] = { byteLength: 32, uri: 'keys.bin' };
    const text = new TextEncoder().encode(JSON.stringify(json));
    e = await formatError(text);
    expect([e.pointer, e.code]).toEqual(['/buffers/0/uri', 'missing-resource']);
    expect(e.message).toMatch(/buffer file "keys.bin" not found/);
    e = await formatError(text, () => new Uint8Array(16));
    expect([e.pointer, e.code]).toEqual(['/buffers/0/byteLength', 'truncated']);
    expect(e.message).toMatch(/^gltf: buffer file "keys.bin" holds 16 bytes, byteLength says 32/);
    e = await formatError(edited((j) => (j.extensionsRequired = ['KHR_accessor_float16'])));
    expect([e.pointer, e.code]).toEqual(['/extensionsRequired/0', 'unsupported']);
    expect(e.message).toMatch(/the file requires extension "KHR_accessor_float16", which animcore cannot read/);
    // A name of any length is quoted short (fuzz seed 2377311691: a 100,000-character message).
    e = await formatError(edited((j) => (j.extensionsRequired = ['x'.repeat(100_000)])));
    expect(e.message.length).toBeLessThan(200);
    e = await formatError(edited((j) => (j.asset.version = '1.0')));
    expect(e.pointer).toBe('/asset/version');
  });

  it('refuses a buffer URI that names no relative file (scheme, absolute path, bad escape) or that the reader refuses; an image one is left out with a warning', async () => {
    const { json, bin } = smallGltf();
    const asked: string[] = [];
    const files = (uri: string) => (asked.push(uri), uri.startsWith('../') ? { refused: 'is outside the test root' } : uri.endsWith('.bin') ? bin : undefined);
    const withBuffer = (uri: string) => new TextEncoder().encode(JSON.stringify({ ...json, buffers: [{ byteLength: bin.length, uri }] }));
    for (const uri of ['/etc/passwd', '%2Fetc%2Fpasswd', '\\\\host\\share\\keys.bin', 'file:///etc/passwd', 'C:\\keys.bin', '%zz.bin', '../keys.bin']) {
      const e = await formatError(withBuffer(uri), files);
      expect([e.pointer, e.code], uri).toEqual(['/buffers/0/uri', 'bad-uri']);
    }
    expect(new Set(asked)).toEqual(new Set(['../keys.bin']));
    expect((await formatError(withBuffer('../keys.bin'), files)).message).toMatch(/"\.\.\/keys\.bin" is outside the test root \(at \/buffers\/0\/uri\)/);
    for (const uri of ['keys.bin', 'sub/../keys.bin', 'my%20keys.bin']) {
      const r = await openGltf({ gltf: withBuffer(uri), resources: files });
      expect(r.clips[0]!.curves[0]!.keys, uri).toMatchObject({ times: Float32Array.of(0, 1) });
    }
    json.images = [{ uri: '../textures/skin.png' }, { uri: 'https://example.com/skin.png' }, { uri: 'skin.png' }];
    const r = await openGltf({ gltf: packGlb(json, bin), resources: files });
    expect(r.clips).toHaveLength(1);
    expect(r.warnings.filter((w) => w.startsWith('/images/'))).toEqual([
      '/images/0: "../textures/skin.png" is outside the test root; left out',
      '/images/1: only relative file URIs and data: URIs are read, not "https://example.com/skin.png"; left out',
      '/images/2: image file "skin.png" not found; left out',
    ]);
  });

  it('refuses a name that is not a string (names become clip, joint, mesh and skin names; fuzz: an animation named 5 exported as such)', async () => {
    for (const [edit, pointer] of [
      [(j: any) => (j.animations[0].name = 5), '/animations/0/name'],
      [(j: any) => (j.nodes[0].name = { a: 1 }), '/nodes/0/name'],
      [(j: any) => (j.nodes[0].name = null), '/nodes/0/name'],
      [(j: any) => (j.meshes = [{ name: ['m'], primitives: [{ attributes: {} }] }]), '/meshes/0/name'],
    ] as const) {
      const e = await formatError(edited(edit));
      expect([e.pointer, e.code]).toEqual([pointer, 'bad-json-value']);
    }
  });

  it('refuses inverse bind matrices that are not file values or not affine, and a joint listed twice (fuzz: NaN skinning matrices, invalid exports)', async () => {
    /** The small document with a skin of `joints` over node 0 and one more node, its matrices `ibm` (16 per joint). */
    const skinned = (joints: number[], ibm: number[]) => {
      const { json: j, bin } = smallGltf();
      const at = bin.length;
      j.nodes.push({ name: 'b' });
      j.buffers[0].byteLength = at + 4 * ibm.length;
      j.bufferViews.push({ buffer: 0, byteOffset: at, byteLength: 4 * ibm.length });
      j.accessors.push({ bufferView: 2, componentType: 5126, count: ibm.length / 16, type: 'MAT4' });
      j.skins = [{ joints, inverseBindMatrices: 2 }];
      return packGlb(j, new Uint8Array([...bin, ...f32Bytes(ibm)]));
    };
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const ok = await openGltf({ gltf: skinned([0, 1], [...identity, ...identity]) });
    expect(ok.skeleton!.skins[0]!.inverseBindMatrices).toEqual(Float32Array.from([...identity, ...identity]));
    for (const [ibm, message] of [
      [[...identity, ...identity.map((v, i) => (i === 13 ? NaN : v))], /matrix 1, entry 13: /],
      [[...identity, ...identity.map((v, i) => (i === 15 ? 2 : v))], /matrix 1 has fourth row \(0, 0, 0, 2\)/],
      [[...identity.map((v, i) => (i === 7 ? 0.5 : v)), ...identity], /matrix 0 has fourth row \(0, 0.5, 0, 1\)/],
    ] as const) {
      const e = await formatError(skinned([0, 1], [...ibm]));
      expect([e.pointer, e.code]).toEqual(['/skins/0/inverseBindMatrices', 'bad-value']);
      expect(e.message).toMatch(message);
    }
    const e = await formatError(skinned([0, 1, 0], [...identity, ...identity, ...identity]));
    expect([e.pointer, e.code]).toEqual(['/skins/0/joints/2', 'bad-index']);
  });

  it('decomposes a singular matrix (an axis scaled to 0) with the identity rotation, not NaN (fuzz)', async () => {
    const r = await openGltf({ gltf: edited((j) => (j.nodes[0].matrix = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1])) });
    expect(r.skeleton!.joints[0]!.rest).toEqual({ translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [0, 1, 1] });
    const hidden = await openGltf({ gltf: edited((j) => (j.nodes[0].matrix = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 1])) });
    expect(hidden.skeleton!.joints[0]!.rest).toEqual({ translation: [4, 5, 6], rotation: [0, 0, 0, 1], scale: [0, 0, 0] });
  });

  it('refuses sparse indices that do not increase or exceed the count', async () => {
    const e = await formatError(
      edited((j, bin) => {
        bin.set([1, 0], 0); // overwrite key time 0 with two u8 indices 1, 0 (decreasing)
        j.accessors[1].sparse = { count: 2, indices: { bufferView: 0, componentType: 5121 }, values: { bufferView: 1 } };
      }),
    );
    expect([e.pointer, e.code]).toEqual(['/accessors/1/sparse/indices', 'bad-value']);
  });

  it.skipIf(!haveFixtures('gltf'))('gives a FormatError or a resource, never another error, for any cut or corrupted fixture', async () => {
    const glb = readFixture('gltf', 'BoxAnimated.glb');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: glb.length }),
        fc.array(fc.record({ at: fc.nat({ max: glb.length - 1 }), value: fc.nat({ max: 255 }) }), { maxLength: 4 }),
        async (length, flips) => {
          const bytes = glb.slice(0, length);
          for (const f of flips) if (f.at < bytes.length) bytes[f.at] = f.value;
          try {
            await openGltf({ gltf: bytes });
          } catch (e) {
            if (!(e instanceof FormatError)) throw e;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it.skipIf(!haveFixtures('gltf'))('gives a FormatError or a resource for JSON values of the wrong type anywhere', async () => {
    const { json, bin } = unpackGlb(readFixture('gltf', 'RiggedSimple.glb'));
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, path: (string | number)[]) => {
      paths.push(path);
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
      else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    };
    walk(json, []);
    const replacements = [null, -1, 1.5, 'x', [], {}, 1e9, true];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths.filter((p) => p.length > 0)), fc.constantFrom(...replacements), async (path, value) => {
        const copy = structuredClone(json);
        let at: any = copy;
        for (const key of path.slice(0, -1)) at = at[key];
        at[path[path.length - 1]!] = value;
        try {
          await openGltf({ gltf: packGlb(copy, bin) });
        } catch (e) {
          if (!(e instanceof FormatError)) throw new Error(`${path.join('/')} = ${JSON.stringify(value)}: ${String(e)}`);
        }
      }),
      { numRuns: 600 },
    );
  });
});

describe('output values that are not file values', () => {
  it('names the output and the value index, for every output layout (VEC3, VEC4, CUBICSPLINE, morph weights)', async () => {
    const layouts = [
      { path: 'translation', type: 'VEC3', width: 3, floats: 6, interpolation: 'LINEAR' },
      { path: 'rotation', type: 'VEC4', width: 4, floats: 8, interpolation: 'STEP' },
      { path: 'scale', type: 'VEC3', width: 3, floats: 18, interpolation: 'CUBICSPLINE' },
      { path: 'weights', type: 'SCALAR', width: 1, floats: 4, interpolation: 'LINEAR' },
    ];
    for (const l of layouts) {
      for (let i = 0; i < l.floats; i++) {
        for (const bad of [NaN, -Infinity, 2e38]) {
          const values: number[] = Array.from({ length: l.floats }, (_, k) => (l.path === 'rotation' && k % 4 === 3 ? 1 : 0));
          values[i] = bad;
          const bin = new Uint8Array([...f32Bytes([0, 1]), ...f32Bytes(values), ...f32Bytes([0, 0, 0])]);
          const json = {
            asset: { version: '2.0' },
            buffers: [{ byteLength: bin.length }],
            bufferViews: [
              { buffer: 0, byteOffset: 0, byteLength: 8 },
              { buffer: 0, byteOffset: 8, byteLength: 4 * l.floats },
              { buffer: 0, byteOffset: 8 + 4 * l.floats, byteLength: 12 },
            ],
            accessors: [
              { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
              { bufferView: 1, componentType: 5126, count: l.floats / l.width, type: l.type },
              { bufferView: 2, componentType: 5126, count: 1, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0] },
            ],
            meshes: [{ primitives: [{ attributes: { POSITION: 2 }, targets: [{ POSITION: 2 }, { POSITION: 2 }] }] }],
            nodes: [{ name: 'a', mesh: 0 }],
            animations: [{ samplers: [{ input: 0, output: 1, interpolation: l.interpolation }], channels: [{ sampler: 0, target: { node: 0, path: l.path } }] }],
          };
          const e = await formatError(packGlb(json, bin));
          const what = `${l.path} ${l.interpolation}, value ${i} = ${bad}`;
          expect([e.pointer, e.code], what).toEqual(['/animations/0/samplers/0/output', 'bad-value']);
          expect(e.message, what).toMatch(new RegExp(`output value ${i}: `));
        }
      }
    }
  });
});

describe('CUBICSPLINE segments', () => {
  /** A .glb of one CUBICSPLINE scale sampler, keys at 0 and `gap` s, with float `i` of the 18 output floats set to `tangent`. */
  function cubic(gap: number, i: number, tangent: number): Uint8Array {
    const values = [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0];
    values[i] = tangent;
    const bin = new Uint8Array([...f32Bytes([0, gap]), ...f32Bytes(values)]);
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: 8 },
        { buffer: 0, byteOffset: 8, byteLength: 72 },
      ],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [gap] },
        { bufferView: 1, componentType: 5126, count: 6, type: 'VEC3' },
      ],
      nodes: [{ name: 'a' }],
      animations: [{ samplers: [{ input: 0, output: 1, interpolation: 'CUBICSPLINE' }], channels: [{ sampler: 0, target: { node: 0, path: 'scale' } }] }],
    };
    return packGlb(json, bin);
  }

  it('refuses a tangent that over its key gap reaches beyond ±1e38 (fuzz: an in-tangent of 1e30 over 1e20 s sampled NaN), and takes it over a short gap', async () => {
    let e = await formatError(cubic(1e20, 10, 1e30));
    expect([e.pointer, e.code]).toEqual(['/animations/0/samplers/0/output', 'bad-value']);
    expect(e.message).toMatch(/^gltf: key 1 in-tangent \(float 1 of 3\): over the 1\.00e\+20 s to the previous key the spline reaches -3\.33e\+49; expected a segment within ±1e\+38/);
    e = await formatError(cubic(1e20, 8, -1e30));
    expect(e.message).toMatch(/key 0 out-tangent \(float 2 of 3\): .* to the next key the spline reaches -3\.33e\+49/);
    // The control value v + d·b / 3 is what counts: 2.9e18 over 1e20 s reaches 9.7e37, within the bound, and samples finite in both builds.
    for (const [b, core] of cores.entries()) {
      for (const [gap, tangent] of [[1, 1e30], [1e20, 2.9e18]] as const) {
        const r = await openGltf({ gltf: cubic(gap, 10, tangent) });
        core.load(r);
        const buf = core.createSampleBuffer(r.clips[0]!);
        for (const t of [gap / 3, gap / 2, (2 * gap) / 3]) {
          core.sampler.sample(r.clips[0]!, t, buf);
          expect(Array.from(buf.samples.subarray(0, 3)).every(Number.isFinite), `${BUILDS[b]}: ${gap} s, ${tangent}, at ${t}`).toBe(true);
        }
      }
    }
  });
});

describe('outputs read by many channels', () => {
  /** A .glb of one sampler (`keys` rotation keys, 20 bytes each) that `channels` channels read, each on its own node. */
  function shared(keys: number, channels: number): Uint8Array {
    const bin = new Uint8Array(20 * keys);
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: 4 * keys },
        { buffer: 0, byteOffset: 4 * keys, byteLength: 16 * keys },
      ],
      accessors: [
        { bufferView: 0, componentType: 5126, count: keys, type: 'SCALAR' },
        { bufferView: 1, componentType: 5126, count: keys, type: 'VEC4' },
      ],
      nodes: Array.from({ length: channels }, (_, i) => ({ name: `n${i}` })),
      animations: [{ samplers: [{ input: 0, output: 1, interpolation: 'STEP' }], channels: Array.from({ length: channels }, (_, i) => ({ sampler: 0, target: { node: i, path: 'rotation' } })) }],
    };
    const times = new Float32Array(bin.buffer, 0, keys);
    for (let k = 0; k < keys; k++) times[k] = k;
    return packGlb(json, bin);
  }

  it('refuses more keys than 4 per buffer byte plus 2^22 (fuzz class: 2,000 channels on one 1.6 MB output made 3.2 GB of wasm keys)', async () => {
    // 100,000 keys in 2 MB: 100 channels hold 10 M keys (allowed: 8 M + 4.19 M), 150 hold 15 M.
    const ok = await openGltf({ gltf: shared(100_000, 100) });
    expect(ok.clips[0]!.curves).toHaveLength(100);
    const e = await formatError(shared(100_000, 150));
    expect([e.pointer, e.code]).toEqual(['/animations/0/channels/121', 'bad-count']);
    expect(e.message).toMatch(/hold 12200000 keys, more than the 12194304 that 2000000 bytes of buffers allow/);
  });
});

describe('accessors without a bufferView', () => {
  it('refuses a count no accessor with data holds and the buffers cannot (zeros cost no bytes: a 300-byte file named 2^29 keys and took 10 GB)', async () => {
    const json = {
      asset: { version: '2.0' },
      accessors: [
        { componentType: 5126, count: 2 ** 29, type: 'SCALAR' },
        { componentType: 5126, count: 2 ** 29, type: 'VEC3' },
      ],
      nodes: [{ name: 'a' }],
      animations: [{ samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
    };
    const e = await formatError(new TextEncoder().encode(JSON.stringify(json)));
    expect([e.pointer, e.code]).toEqual(['/accessors/0/count', 'bad-count']);
  });

  it('reads one as zeros when an accessor with data has its count (an output of zeros for held times)', async () => {
    const { json, bin } = smallGltf();
    delete json.accessors[1].bufferView;
    const r = await openGltf({ gltf: packGlb(json, bin) });
    expect(r.clips[0]!.curves[0]!.keys).toMatchObject({ encoding: 'keyed', values: new Float32Array(8) });
  });
});
