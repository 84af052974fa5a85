// Structure-aware mutations of glTF files (issue 15, "Bad glTF"): the JSON document of a `.glb` or
// `.gltf` is parsed, one fact is changed where a reader must check it (accessor counts, offsets,
// strides, component types, sparse indices, views beyond their buffer, key times and values,
// indices out of range, cyclic or shared node children, skin joints, duplicate or mistyped names,
// numbers JSON cannot hold as floats), and the file is written back with its sizes right again
// (GLB chunk lengths, the buffer's byteLength, a `data:` buffer re-encoded), so the damage passes
// the container and JSON checks that byte damage rarely gets through.
import type { FuzzFile } from './input.js';
import type { Rng } from './rng.js';

type Json = Record<string, unknown>;

/** A glTF file taken apart: its JSON, buffer 0's bytes (GLB BIN chunk or `data:` URI), and the container. */
interface GltfParts {
  json: Json;
  bin: Uint8Array | undefined;
  glb: boolean;
}

/** Numbers a JSON file can spell that are not float64 values a reader should trust: written as text after stringify. */
const SPELLED = ['1e999', '-1e999', '1e-400', '9007199254740993', '-0', '1.0000000000000002', '4294967296', '2147483648'];
const MARK = '@@number:';

const INT_VALUES = [-1, 0, 1, 2, 3, 4, 255, 256, 65535, 65536, 2 ** 31, 2 ** 32, 2 ** 53, 0.5, 1e308, -(2 ** 31)];
const ODD_VALUES: unknown[] = [null, true, '', '0', [], {}, [[]], 'x'.repeat(100_000)];

export function isGltfFile(file: FuzzFile): boolean {
  return /\.(glb|gltf)$/i.test(file.name);
}

function split(bytes: Uint8Array): GltfParts | null {
  try {
    const glb = bytes.length >= 20 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
    if (!glb) {
      const json = JSON.parse(Buffer.from(bytes).toString('utf8')) as Json;
      if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
      const uri = (json.buffers as Json[] | undefined)?.[0]?.uri;
      const bin = typeof uri === 'string' && uri.startsWith('data:') ? new Uint8Array(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64')) : undefined;
      return { json, bin, glb: false };
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const jsonLength = view.getUint32(12, true);
    const json = JSON.parse(Buffer.from(bytes.subarray(20, 20 + jsonLength)).toString('utf8')) as Json;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
    const at = 20 + jsonLength;
    const bin = bytes.length >= at + 8 ? bytes.slice(at + 8, at + 8 + view.getUint32(at, true)) : undefined;
    return { json, bin, glb: true };
  } catch {
    return null;
  }
}

function join(parts: GltfParts): Uint8Array {
  const buffer0 = (parts.json.buffers as Json[] | undefined)?.[0];
  if (!parts.glb && parts.bin && typeof buffer0 === 'object' && buffer0 !== null && typeof buffer0.uri === 'string' && buffer0.uri.startsWith('data:')) {
    buffer0.uri = `data:application/octet-stream;base64,${Buffer.from(parts.bin).toString('base64')}`;
  }
  const text = JSON.stringify(parts.json).replace(new RegExp(`"${MARK}([^"]*)"`, 'g'), '$1');
  if (!parts.glb) return new Uint8Array(Buffer.from(text, 'utf8'));
  const jsonBytes = Buffer.from(text, 'utf8');
  const jsonLength = Math.ceil(jsonBytes.length / 4) * 4;
  const bin = parts.bin ?? new Uint8Array(0);
  const binLength = Math.ceil(bin.length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLength + (parts.bin ? 8 + binLength : 0));
  const view = new DataView(out.buffer);
  out.set([0x67, 0x6c, 0x54, 0x46]);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(jsonBytes, 20);
  if (parts.bin) {
    view.setUint32(20 + jsonLength, binLength, true);
    view.setUint32(24 + jsonLength, 0x004e4942, true);
    out.set(bin, 28 + jsonLength);
  }
  return out;
}

/** The items of collection `name` that are objects (empty when absent or not an array). */
function items(json: Json, name: string): Json[] {
  const list = json[name];
  return Array.isArray(list) ? list.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
}

function count(json: Json, name: string): number {
  const list = json[name];
  return Array.isArray(list) ? list.length : 0;
}

/** Every path to a value of the document (arrays of more than 64 numbers sampled), for the generic mutations. */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) {
    const step = value.length > 64 ? Math.ceil(value.length / 64) : 1;
    for (let i = 0; i < value.length; i += step) paths(value[i], [...at, i], out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  }
  return out;
}

function setAt(json: Json, path: (string | number)[], value: unknown): void {
  let o = json as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) o = o[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(last as number, 1);
    else delete o[last];
  } else o[last] = value;
}

function getAt(json: Json, path: (string | number)[]): unknown {
  let o: unknown = json;
  for (const key of path) o = (o as Record<string | number, unknown>)[key];
  return o;
}

/** A number near `v` or at a boundary (indices ± 1, counts × 2, 2^31 …), or one JSON spells oddly. */
function numberNear(v: number, rng: Rng): unknown {
  if (rng.chance(0.15)) return MARK + rng.pick(SPELLED);
  return rng.chance(0.5) ? v + rng.pick([-1, 1, -2, 2, -4, 4]) : rng.chance(0.3) ? v * rng.pick([2, 1000, -1]) : rng.pick(INT_VALUES);
}

/** Appends `bytes` to buffer 0 (4-aligned) and returns a new buffer view over them, or −1 when the file has no buffer 0 bytes. */
function appendView(parts: GltfParts, bytes: Uint8Array): number {
  const buffer0 = items(parts.json, 'buffers')[0];
  if (!parts.bin || !buffer0) return -1;
  const offset = Math.ceil(parts.bin.length / 4) * 4;
  const bin = new Uint8Array(offset + bytes.length);
  bin.set(parts.bin);
  bin.set(bytes, offset);
  parts.bin = bin;
  buffer0.byteLength = bin.length;
  if (!Array.isArray(parts.json.bufferViews)) parts.json.bufferViews = [];
  (parts.json.bufferViews as Json[]).push({ buffer: 0, byteOffset: offset, byteLength: bytes.length });
  return (parts.json.bufferViews as Json[]).length - 1;
}

type Mutation = (parts: GltfParts, rng: Rng) => string | null;

const MUTATIONS: Mutation[] = [
  // An accessor field the byte-range and type checks depend on.
  (parts, rng) => {
    const list = items(parts.json, 'accessors');
    if (list.length === 0) return null;
    const i = rng.int(0, list.length - 1);
    const a = list[i]!;
    const field = rng.pick(['count', 'count', 'byteOffset', 'componentType', 'type', 'normalized', 'bufferView', 'bufferView']);
    let value: unknown;
    if (field === 'componentType') value = rng.pick([5120, 5121, 5122, 5123, 5124, 5125, 5126, 5127, 0]);
    else if (field === 'type') value = rng.pick(['SCALAR', 'VEC2', 'VEC3', 'VEC4', 'MAT2', 'MAT3', 'MAT4', 'VEC5', 'scalar']);
    else if (field === 'normalized') value = rng.pick([true, false, 'true', 1]);
    else if (field === 'bufferView') value = rng.chance(0.4) ? undefined : rng.int(-1, count(parts.json, 'bufferViews'));
    else value = numberNear(typeof a[field] === 'number' ? (a[field] as number) : 0, rng);
    setAt(a, [field], value);
    return `accessor ${i} ${field} = ${describe(value)}`;
  },
  // A buffer view's stride, offset, length or buffer.
  (parts, rng) => {
    const list = items(parts.json, 'bufferViews');
    if (list.length === 0) return null;
    const i = rng.int(0, list.length - 1);
    const v = list[i]!;
    const field = rng.pick(['byteStride', 'byteStride', 'byteOffset', 'byteLength', 'buffer']);
    const value = field === 'byteStride' ? rng.pick([4, 8, 12, 16, 20, 28, 32, 252, 256, 2, 0, -4, undefined]) : numberNear(typeof v[field] === 'number' ? (v[field] as number) : 0, rng);
    setAt(v, [field], value);
    return `bufferView ${i} ${field} = ${describe(value)}`;
  },
  // The buffer's declared length or its URI.
  (parts, rng) => {
    const b = items(parts.json, 'buffers')[0];
    if (!b) return null;
    if (rng.chance(0.5)) {
      const value = numberNear(typeof b.byteLength === 'number' ? b.byteLength : 0, rng);
      b.byteLength = value;
      return `buffer 0 byteLength = ${describe(value)}`;
    }
    const uri = rng.pick(['missing.bin', 'data:,', 'data:application/octet-stream;base64,!!!!', 'data:application/octet-stream;base64,AAAA', 'http://example.com/a.bin', '../../x.bin', '%zz', 'x'.repeat(5000), undefined]);
    setAt(b, ['uri'], uri);
    if (uri !== undefined && parts.glb) parts.bin = undefined;
    return `buffer 0 uri = ${describe(uri)}`;
  },
  // A sparse part on an accessor: indices (in range, repeated, decreasing, beyond the count) and values from new bytes.
  (parts, rng) => {
    const list = items(parts.json, 'accessors');
    if (list.length === 0) return null;
    const i = rng.int(0, list.length - 1);
    const a = list[i]!;
    const n = typeof a.count === 'number' && a.count > 0 ? a.count : 1;
    const k = rng.int(1, Math.min(n, 8));
    const indices: number[] = [];
    for (let j = 0; j < k; j++) indices.push(Math.min(n - 1, (indices[j - 1] ?? -1) + rng.int(1, 3)));
    const how = rng.pick(['valid', 'valid', 'repeat', 'decrease', 'beyond', 'huge']);
    if (how === 'repeat' && k > 1) indices[k - 1] = indices[k - 2]!;
    if (how === 'decrease' && k > 1) indices.reverse();
    if (how === 'beyond') indices[k - 1] = n + rng.int(0, 2);
    if (how === 'huge') indices[k - 1] = 0xffffffff;
    const indexType = rng.pick([5121, 5123, 5125, 5126]);
    const indexBytes = new Uint8Array(Math.ceil((k * (indexType === 5121 ? 1 : indexType === 5123 ? 2 : 4)) / 4) * 4);
    const iv = new DataView(indexBytes.buffer);
    indices.forEach((x, j) => (indexType === 5121 ? iv.setUint8(j, x & 0xff) : indexType === 5123 ? iv.setUint16(2 * j, x & 0xffff, true) : iv.setUint32(4 * j, x >>> 0, true)));
    const width = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[a.type as string] ?? 4;
    const values = new Float32Array(k * width).map(() => (rng.chance(0.05) ? rng.pick([NaN, Infinity, 3.4e38, 1e-45]) : rng.real(-1, 1)));
    const valueBytes = a.componentType === 5126 || a.componentType === undefined ? new Uint8Array(values.buffer) : new Uint8Array(Math.ceil((k * width * 2) / 4) * 4).map(() => rng.int(0, 255));
    const indexView = appendView(parts, indexBytes);
    const valueView = appendView(parts, valueBytes);
    if (indexView < 0) return null;
    a.sparse = { count: rng.chance(0.9) ? k : k + 1, indices: { bufferView: indexView, componentType: indexType, ...(rng.chance(0.2) && { byteOffset: rng.pick([1, 2, 4]) }) }, values: { bufferView: valueView } };
    return `accessor ${i} sparse: ${how} indices ${indices.slice(0, 4).join(',')} (${indexType})`;
  },
  // A sampler's interpolation or accessors.
  (parts, rng) => {
    const samplers = items(parts.json, 'animations').flatMap((a, ai) => items(a, 'samplers').map((s, si) => [s, `${ai}/${si}`] as const));
    if (samplers.length === 0) return null;
    const [s, at] = rng.pick(samplers);
    const field = rng.pick(['interpolation', 'input', 'output', 'swap']);
    if (field === 'swap') {
      [s.input, s.output] = [s.output, s.input];
      return `sampler ${at} input ⇄ output`;
    }
    const value = field === 'interpolation' ? rng.pick(['LINEAR', 'STEP', 'CUBICSPLINE', 'linear', '', 5, undefined]) : rng.int(-1, count(parts.json, 'accessors'));
    setAt(s, [field], value);
    return `sampler ${at} ${field} = ${describe(value)}`;
  },
  // A channel repeated (the same target twice), or its target node, path or sampler changed.
  (parts, rng) => {
    const channels = items(parts.json, 'animations').flatMap((a) => (Array.isArray(a.channels) ? [a.channels as Json[]] : []));
    if (channels.length === 0) return null;
    const list = rng.pick(channels);
    if (list.length === 0) return null;
    const c = rng.pick(list);
    // An earlier mutation may have made the channel a non-object (seed 2937493052: `true`).
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return null;
    const what = rng.pick(['repeat', 'node', 'path', 'sampler', 'no-node']);
    if (what === 'repeat') {
      list.splice(rng.int(0, list.length), 0, structuredClone(c));
      return 'channel repeated';
    }
    const target = (typeof c.target === 'object' && c.target !== null ? c.target : (c.target = {})) as Json;
    if (what === 'node') target.node = rng.int(-1, count(parts.json, 'nodes'));
    else if (what === 'path') target.path = rng.pick(['translation', 'rotation', 'scale', 'weights', 'pointer', 'Translation']);
    else if (what === 'sampler') c.sampler = rng.int(-1, 3);
    else delete target.node;
    return `channel ${what} → ${describe(what === 'sampler' ? c.sampler : target[what === 'path' ? 'path' : 'node'])}`;
  },
  // The node hierarchy: a cycle, a child of two parents, a node its own child, a child out of range.
  (parts, rng) => {
    const nodes = items(parts.json, 'nodes');
    if (nodes.length === 0) return null;
    const i = rng.int(0, nodes.length - 1);
    const child = rng.pick([0, i, rng.int(0, nodes.length - 1), nodes.length, -1]);
    const node = nodes[i]!;
    node.children = [...(Array.isArray(node.children) ? node.children : []), child];
    return `node ${i} gets child ${child}`;
  },
  // A node's rest transform: a matrix (with shear, singular, huge, beside TRS), a zero or huge rotation, a zero scale, weights.
  (parts, rng) => {
    const nodes = items(parts.json, 'nodes');
    if (nodes.length === 0) return null;
    const i = rng.int(0, nodes.length - 1);
    const node = nodes[i]!;
    const what = rng.pick(['matrix', 'rotation', 'scale', 'translation', 'weights']);
    const value =
      what === 'matrix'
        ? rng.pick([
            [1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1],
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            [1e38, 0, 0, 0, 0, 1e38, 0, 0, 0, 0, 1e38, 0, 0, 0, 0, 1],
            [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
            [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
            [1, 0, 0],
          ])
        : what === 'rotation'
          ? rng.pick([[0, 0, 0, 0], [1e30, 0, 0, 1e30], [0, 0, 0, -1], [2, 0, 0, 0], [0, 0, 0, MARK + '1e999']])
          : what === 'scale'
            ? rng.pick([[0, 0, 0], [1e38, 1e38, 1e38], [-1, 1, 1], [1e-38, 1, 1]])
            : what === 'translation'
              ? rng.pick([[1e38, 0, 0], [MARK + '-1e999', 0, 0], [0, 0]])
              : rng.pick([[], [0.5], [0.5, 0.5, 0.5], [MARK + '1e999', 0]]);
    node[what] = value;
    return `node ${i} ${what} = ${describe(value)}`;
  },
  // A skin: joints out of range, repeated, empty; inverse bind matrices of another accessor; a skeleton root.
  (parts, rng) => {
    const skins = items(parts.json, 'skins');
    if (skins.length === 0) return null;
    const skin = rng.pick(skins);
    const joints = Array.isArray(skin.joints) ? (skin.joints as unknown[]) : (skin.joints = []);
    const what = rng.pick(['outside', 'repeat', 'empty', 'ibm', 'skeleton', 'no-ibm']);
    if (what === 'outside') joints.push(rng.pick([count(parts.json, 'nodes'), -1, 2 ** 32]));
    else if (what === 'repeat' && joints.length > 0) joints.splice(rng.int(0, joints.length), 0, rng.pick(joints));
    else if (what === 'empty') joints.length = 0;
    else if (what === 'ibm') skin.inverseBindMatrices = rng.int(-1, count(parts.json, 'accessors'));
    else if (what === 'skeleton') skin.skeleton = rng.int(-1, count(parts.json, 'nodes'));
    else delete skin.inverseBindMatrices;
    return `skin ${what}`;
  },
  // Names: one item's name that of another (duplicates), empty, mistyped, long, or a property of Object.prototype.
  (parts, rng) => {
    const collection = rng.pick(['nodes', 'nodes', 'animations', 'meshes', 'skins']);
    const list = items(parts.json, collection);
    if (list.length === 0) return null;
    const item = rng.pick(list);
    const other = rng.pick(list).name;
    const value = rng.pick([other, other, '', 'node0', 'joint_0#1', '__proto__', 'constructor', 'toString', 5, null, {}, ['a'], 'n'.repeat(100_000), 'a/b', 'a.b', 'é\u0000\ud800']);
    item.name = value;
    return `${collection} name = ${describe(value)}`;
  },
  // Meshes: morph targets per primitive that disagree, indices or attributes of another accessor, a mode.
  (parts, rng) => {
    const prims = items(parts.json, 'meshes').flatMap((m) => items(m, 'primitives'));
    if (prims.length === 0) return null;
    const p = rng.pick(prims);
    const what = rng.pick(['targets', 'indices', 'attribute', 'mode', 'weights']);
    const accessors = count(parts.json, 'accessors');
    if (what === 'targets') p.targets = rng.pick([[], [{}], [{ POSITION: 0 }, { POSITION: 0 }, { POSITION: 0 }]]);
    else if (what === 'indices') p.indices = rng.int(-1, accessors);
    else if (what === 'attribute') (p.attributes as Json)[rng.pick(['POSITION', 'JOINTS_0', 'WEIGHTS_0', 'JOINTS_1', 'NORMAL', 'TEXCOORD_0'])] = rng.int(-1, accessors);
    else if (what === 'mode') p.mode = rng.int(-1, 7);
    else {
      const mesh = items(parts.json, 'meshes')[0]!;
      mesh.weights = rng.pick([[], [1e39], [0.5]]);
    }
    return `primitive ${what}`;
  },
  // Animations: one repeated, emptied, or its samplers and channels dropped.
  (parts, rng) => {
    const list = parts.json.animations;
    if (!Array.isArray(list) || list.length === 0) return null;
    const i = rng.int(0, list.length - 1);
    const what = rng.pick(['repeat', 'no-channels', 'no-samplers', 'empty-channels']);
    if (what === 'repeat') list.push(structuredClone(list[i]));
    else if (what === 'no-channels') delete (list[i] as Json).channels;
    else if (what === 'no-samplers') (list[i] as Json).samplers = [];
    else (list[i] as Json).channels = [];
    return `animation ${i} ${what}`;
  },
  // Any value: a number near it or at a boundary, another type, or deleted (a required field missing).
  (parts, rng) => {
    const all = paths(parts.json).filter((p) => p.length > 0);
    if (all.length === 0) return null;
    const path = rng.pick(all);
    const old = getAt(parts.json, path);
    const value = typeof old === 'number' && rng.chance(0.7) ? numberNear(old, rng) : rng.chance(0.3) ? undefined : rng.pick(ODD_VALUES);
    setAt(parts.json, path, value);
    return `/${path.join('/')} = ${describe(value)}`;
  },
];

function describe(value: unknown): string {
  if (value === undefined) return 'deleted';
  if (typeof value === 'string') return value.startsWith(MARK) ? value.slice(MARK.length) : value.length > 24 ? `"${value.slice(0, 12)}…" (${value.length} chars)` : JSON.stringify(value);
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** One JSON-level mutation of a glTF file, or null when its JSON does not parse (the caller damages bytes instead). */
export function mutateGltfJson(file: FuzzFile, rng: Rng): { file: FuzzFile; what: string } | null {
  const parts = split(file.bytes);
  if (!parts) return null;
  for (let attempt = 0; attempt < 4; attempt++) {
    const what = rng.pick(MUTATIONS)(parts, rng);
    if (what !== null) return { file: { name: file.name, bytes: join(parts), ...(file.text && { text: true }) }, what: `gltf ${what}` };
  }
  return null;
}
