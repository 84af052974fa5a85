import { quote, shorten } from '../text.js';
import { array, describe, fail, finite, index, integer, type JsonObject, numbers, object, optionalString, string } from './json-fields.js';
import { isMeshoptFallback } from './meshopt.js';

/** Bytes per component of each accessor `componentType` (glTF 2.0 §3.6.2.2). */
export const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
/** Components per element of each accessor `type`. */
export const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
/** Animation channel paths of glTF 2.0 core and the accessor type of their output. */
export const PATH_TYPES: Readonly<Record<string, string>> = { translation: 'VEC3', rotation: 'VEC4', scale: 'VEC3', weights: 'SCALAR' };

/** The collections of the document, each `[]` when absent. */
export interface GltfCollections {
  readonly [name: string]: readonly JsonObject[];
}

const COLLECTIONS = ['accessors', 'animations', 'bufferViews', 'buffers', 'cameras', 'images', 'materials', 'meshes', 'nodes', 'samplers', 'scenes', 'skins', 'textures'];

/**
 * Checks what the reader and glTF-Transform rely on, so that neither meets a wrong type, an index
 * out of range or a byte range outside its buffer (glTF 2.0 §3 and its JSON schema): the asset
 * version; required extensions (`supported` names those that can be read); every collection (items objects, names strings);
 * buffer views and accessors inside their buffers (strides and sparse accessors included, sparse
 * indices increasing and below the count); the indices that nodes, skins, meshes, materials,
 * textures, images, scenes and animations hold; a node tree without cycles or shared children;
 * and per animation channel its path, sampler, interpolation and the output accessor's type and
 * count. Key values are checked when they are decoded (`to-clips.ts`).
 * @param buffers every buffer's bytes (`readBuffers`)
 * @returns the collections, as checked objects
 * @throws FormatError naming the JSON pointer of the first problem
 */
export function checkDocument(json: JsonObject, buffers: readonly Uint8Array[], supported: ReadonlySet<string>): GltfCollections {
  const asset = object(json.asset, '/asset');
  const version = string(asset.version, '/asset/version');
  if (!/^2\.\d+$/.test(version)) fail('/asset/version', `glTF version ${quote(version)}; only glTF 2.x is read`, 'bad-version');
  array(json.extensionsRequired, '/extensionsRequired').forEach((name, i) => {
    if (!supported.has(string(name, `/extensionsRequired/${i}`))) fail(`/extensionsRequired/${i}`, `the file requires extension ${describe(name)}, which animcore cannot read`, 'unsupported');
  });
  const c: Record<string, JsonObject[]> = {};
  for (const name of COLLECTIONS) c[name] = objects(array(json[name], `/${name}`), `/${name}`);
  checkBufferViews(c, buffers);
  for (let i = 0; i < c.accessors!.length; i++) checkAccessor(c.accessors![i]!, `/accessors/${i}`, c, buffers);
  checkNodes(c);
  c.skins!.forEach((skin, i) => {
    const p = `/skins/${i}`;
    const joints = array(skin.joints, `${p}/joints`, true);
    if (joints.length === 0) fail(`${p}/joints`, 'a skin needs at least one joint');
    const listed = new Set<number>();
    joints.forEach((j, k) => {
      // Unique (the schema's uniqueItems): inverse bind matrix k belongs to joint k.
      if (listed.has(index(j, `${p}/joints/${k}`, c.nodes!.length, 'nodes'))) fail(`${p}/joints/${k}`, `node ${String(j)} is listed twice`, 'bad-index');
      listed.add(j as number);
    });
    if (skin.skeleton !== undefined) index(skin.skeleton, `${p}/skeleton`, c.nodes!.length, 'nodes');
    if (skin.inverseBindMatrices !== undefined) {
      const a = c.accessors![index(skin.inverseBindMatrices, `${p}/inverseBindMatrices`, c.accessors!.length, 'accessors')]!;
      if (a.type !== 'MAT4' || a.componentType !== 5126) fail(`${p}/inverseBindMatrices`, 'inverse bind matrices must be a MAT4 FLOAT accessor');
      if ((a.count as number) < joints.length) fail(`${p}/inverseBindMatrices`, `${String(a.count)} matrices for ${joints.length} joints`, 'bad-count');
    }
  });
  c.meshes!.forEach((mesh, i) => checkMesh(mesh, `/meshes/${i}`, c));
  checkViewlessCounts(c, dracoOnlyAccessors(c));
  c.materials!.forEach((m, i) => checkTextureRefs(m, `/materials/${i}`, c));
  c.textures!.forEach((t, i) => {
    if (t.source !== undefined) index(t.source, `/textures/${i}/source`, c.images!.length, 'images');
    if (t.sampler !== undefined) index(t.sampler, `/textures/${i}/sampler`, c.samplers!.length, 'samplers');
  });
  c.images!.forEach((image, i) => {
    if (image.bufferView !== undefined) index(image.bufferView, `/images/${i}/bufferView`, c.bufferViews!.length, 'bufferViews');
    else string(image.uri, `/images/${i}/uri`);
  });
  c.scenes!.forEach((scene, i) => array(scene.nodes, `/scenes/${i}/nodes`).forEach((n, k) => index(n, `/scenes/${i}/nodes/${k}`, c.nodes!.length, 'nodes')));
  if (json.scene !== undefined) index(json.scene, '/scene', c.scenes!.length, 'scenes');
  c.animations!.forEach((a, i) => checkAnimation(a, `/animations/${i}`, c));
  return c;
}

function checkBufferViews(c: Record<string, JsonObject[]>, buffers: readonly Uint8Array[]): void {
  c.bufferViews!.forEach((view, i) => {
    const p = `/bufferViews/${i}`;
    const b = index(view.buffer, `${p}/buffer`, buffers.length, 'buffers');
    const byteLength = integer(view.byteLength, `${p}/byteLength`, 1);
    const byteOffset = integer(view.byteOffset, `${p}/byteOffset`, 0, undefined, 0);
    const bufferLength = c.buffers![b]!.byteLength as number;
    if (byteOffset + byteLength > bufferLength) {
      fail(p, `bytes ${byteOffset} to ${byteOffset + byteLength} lie outside buffer ${b} (${bufferLength} bytes)`, 'out-of-range');
    }
    if (view.byteStride !== undefined && integer(view.byteStride, `${p}/byteStride`, 4, 252) % 4 !== 0) fail(`${p}/byteStride`, 'byteStride must be a multiple of 4');
  });
}

/** Where an accessor's elements lie: view, offset within the view, stride. */
function checkAccessor(a: JsonObject, p: string, c: Record<string, JsonObject[]>, buffers: readonly Uint8Array[]): void {
  const componentBytes = COMPONENT_BYTES[a.componentType as number];
  if (componentBytes === undefined) fail(`${p}/componentType`, `unknown componentType ${describe(a.componentType)} (5120, 5121, 5122, 5123, 5125 or 5126)`);
  const components = TYPE_COMPONENTS[a.type as string];
  if (components === undefined) fail(`${p}/type`, `unknown accessor type ${describe(a.type)}`);
  const count = integer(a.count, `${p}/count`, 1);
  if (a.normalized !== undefined && typeof a.normalized !== 'boolean') fail(`${p}/normalized`, 'normalized must be true or false');
  if (a.normalized === true && (a.componentType === 5126 || a.componentType === 5125)) fail(`${p}/normalized`, 'only BYTE, UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT accessors may be normalized');
  const elementBytes = componentBytes * components;
  if (a.bufferView !== undefined) {
    const v = index(a.bufferView, `${p}/bufferView`, c.bufferViews!.length, 'bufferViews');
    checkRange(p, c.bufferViews![v]!, integer(a.byteOffset, `${p}/byteOffset`, 0, undefined, 0), componentBytes, elementBytes, count);
  } else if (a.byteOffset !== undefined) fail(`${p}/byteOffset`, 'byteOffset without a bufferView');
  if (a.sparse === undefined) return;
  const sp = `${p}/sparse`;
  const sparse = object(a.sparse, sp);
  const n = integer(sparse.count, `${sp}/count`, 1, count);
  const indices = object(sparse.indices, `${sp}/indices`);
  const indexBytes = { 5121: 1, 5123: 2, 5125: 4 }[indices.componentType as number];
  if (indexBytes === undefined) fail(`${sp}/indices/componentType`, 'sparse indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT');
  const iv = c.bufferViews![index(indices.bufferView, `${sp}/indices/bufferView`, c.bufferViews!.length, 'bufferViews')]!;
  const iOffset = integer(indices.byteOffset, `${sp}/indices/byteOffset`, 0, undefined, 0);
  checkRange(`${sp}/indices`, { ...iv, byteStride: undefined }, iOffset, indexBytes, indexBytes, n);
  const values = object(sparse.values, `${sp}/values`);
  const vv = c.bufferViews![index(values.bufferView, `${sp}/values/bufferView`, c.bufferViews!.length, 'bufferViews')]!;
  checkRange(`${sp}/values`, { ...vv, byteStride: undefined }, integer(values.byteOffset, `${sp}/values/byteOffset`, 0, undefined, 0), componentBytes, elementBytes, n);
  const bytes = buffers[iv.buffer as number]!;
  const data = new DataView(bytes.buffer, bytes.byteOffset + ((iv.byteOffset as number | undefined) ?? 0) + iOffset, n * indexBytes);
  let previous = -1;
  for (let k = 0; k < n; k++) {
    const at = indexBytes === 1 ? data.getUint8(k) : indexBytes === 2 ? data.getUint16(2 * k, true) : data.getUint32(4 * k, true);
    if (at <= previous || at >= count) fail(`${sp}/indices`, `sparse index ${k} is ${at}; indices must increase and stay below count ${count}`, 'bad-value');
    previous = at;
  }
}

/**
 * An accessor without a bufferView is zeros (plus its sparse values, glTF 2.0 §3.6.2.3), so its
 * count costs no bytes of the file: a 300-byte file could name 2^29 keys and make every reader
 * allocate gigabytes. Its count may not exceed the largest count of an accessor whose elements
 * the file holds (a sparse morph target has its mesh's vertex count, which POSITION holds) or the
 * bytes of its buffers (glTF-Transform's `sparse()` writes mesh indices and keys that are mostly
 * zeros this way, more of them than any attribute), so an element costs at least a byte of the file
 * (not of a meshopt fallback buffer, which holds decoded bytes). Draco primitives' accessors
 * (`exempt`) are never read.
 */
function checkViewlessCounts(c: Record<string, JsonObject[]>, exempt: ReadonlySet<number>): void {
  const accessors = c.accessors!;
  let held = 0;
  for (const a of accessors) if (a.bufferView !== undefined) held = Math.max(held, a.count as number);
  let bytes = 0;
  for (let i = 0; i < c.buffers!.length; i++) if (!isMeshoptFallback(c.buffers![i]!, `/buffers/${i}`)) bytes += c.buffers![i]!.byteLength as number;
  for (let i = 0; i < accessors.length; i++) {
    const a = accessors[i]!;
    if (a.bufferView === undefined && !exempt.has(i) && (a.count as number) > Math.max(held, bytes)) {
      fail(`/accessors/${i}/count`, `${String(a.count)} elements without a bufferView (zeros), more than any accessor with data holds (${held}) and than the buffers' ${bytes} bytes`, 'bad-count');
    }
  }
}

/**
 * Accessors only `KHR_draco_mesh_compression` primitives use (not animations, skins or other
 * primitives): their elements are in the Draco stream, which animcore does not decode, so nothing
 * reads them and their counts cost nothing.
 */
function dracoOnlyAccessors(c: Record<string, JsonObject[]>): Set<number> {
  const draco = new Set<number>();
  const other = new Set<number>();
  for (const mesh of c.meshes!) {
    for (const prim of mesh.primitives as JsonObject[]) {
      const into = (prim.extensions as JsonObject | undefined)?.KHR_draco_mesh_compression === undefined ? other : draco;
      for (const a of Object.values(prim.attributes as JsonObject)) into.add(a as number);
      if (prim.indices !== undefined) into.add(prim.indices as number);
      for (const t of (prim.targets as JsonObject[] | undefined) ?? []) for (const a of Object.values(t)) other.add(a as number);
    }
  }
  // Animations are checked after this: their samplers may not be objects yet.
  for (const a of c.animations!) for (const s of Array.isArray(a.samplers) ? a.samplers : []) if (typeof s === 'object' && s !== null) other.add(s.input).add(s.output);
  for (const skin of c.skins!) if (skin.inverseBindMatrices !== undefined) other.add(skin.inverseBindMatrices as number);
  for (const a of other) draco.delete(a);
  return draco;
}

/** `count` elements from `byteOffset` with the view's stride fit in the view, aligned to their component size. */
function checkRange(p: string, view: JsonObject, byteOffset: number, componentBytes: number, elementBytes: number, count: number): void {
  if (byteOffset % componentBytes !== 0) fail(`${p}/byteOffset`, `byteOffset ${byteOffset} is not a multiple of the component size ${componentBytes}`);
  const stride = (view.byteStride as number | undefined) ?? elementBytes;
  if (stride < elementBytes) fail(p, `the buffer view's byteStride ${stride} is smaller than one element (${elementBytes} bytes)`, 'out-of-range');
  const end = byteOffset + stride * (count - 1) + elementBytes;
  const viewLength = view.byteLength as number;
  if (end > viewLength) fail(p, `${count} elements end at byte ${end} of a ${viewLength}-byte buffer view`, 'out-of-range');
}

/** Node indices, TRS / matrix / weights values, and a forest: each node has one parent at most and no node is its own ancestor. */
function checkNodes(c: Record<string, JsonObject[]>): void {
  const nodes = c.nodes!;
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    const p = `/nodes/${i}`;
    array(node.children, `${p}/children`).forEach((child, k) => {
      const j = index(child, `${p}/children/${k}`, nodes.length, 'nodes');
      if (parent[j] !== -1 || j === i) fail(`${p}/children/${k}`, `node ${j} is already a child of node ${j === i ? i : parent[j]}`, 'bad-hierarchy');
      parent[j] = i;
    });
    if (node.mesh !== undefined) index(node.mesh, `${p}/mesh`, c.meshes!.length, 'meshes');
    if (node.skin !== undefined) index(node.skin, `${p}/skin`, c.skins!.length, 'skins');
    if (node.camera !== undefined) index(node.camera, `${p}/camera`, c.cameras!.length, 'cameras');
    if (node.matrix !== undefined) numbers(node.matrix, `${p}/matrix`, 16);
    if (node.translation !== undefined) numbers(node.translation, `${p}/translation`, 3);
    if (node.rotation !== undefined) numbers(node.rotation, `${p}/rotation`, 4);
    if (node.scale !== undefined) numbers(node.scale, `${p}/scale`, 3);
    array(node.weights, `${p}/weights`).forEach((w, k) => finite(w, `${p}/weights/${k}`));
  });
  // With one parent per node, a cycle is a loop of parent links: walk up at most n steps.
  for (let i = 0; i < nodes.length; i++) {
    let j = parent[i]!;
    for (let steps = 0; j !== -1; steps++) {
      if (j === i || steps > nodes.length) fail(`/nodes/${i}`, `node ${i} is its own ancestor (the children lists form a cycle)`, 'bad-hierarchy');
      j = parent[j]!;
    }
  }
}

function checkMesh(mesh: JsonObject, p: string, c: Record<string, JsonObject[]>): void {
  const primitives = array(mesh.primitives, `${p}/primitives`, true);
  if (primitives.length === 0) fail(`${p}/primitives`, 'a mesh needs at least one primitive');
  const accessorRefs = (o: JsonObject, q: string) => {
    for (const [name, a] of Object.entries(o)) index(a, `${q}/${name}`, c.accessors!.length, 'accessors');
  };
  primitives.forEach((value, k) => {
    const q = `${p}/primitives/${k}`;
    const prim = object(value, q);
    accessorRefs(object(prim.attributes, `${q}/attributes`), `${q}/attributes`);
    if (prim.indices !== undefined) index(prim.indices, `${q}/indices`, c.accessors!.length, 'accessors');
    if (prim.material !== undefined) index(prim.material, `${q}/material`, c.materials!.length, 'materials');
    if (prim.mode !== undefined) integer(prim.mode, `${q}/mode`, 0, 6);
    // A Draco primitive's view is kept (and renumbered) by rewriteGltf; its stream is not decoded.
    const draco = prim.extensions === undefined ? undefined : object(prim.extensions, `${q}/extensions`).KHR_draco_mesh_compression;
    if (draco !== undefined) index(object(draco, `${q}/extensions/KHR_draco_mesh_compression`).bufferView, `${q}/extensions/KHR_draco_mesh_compression/bufferView`, c.bufferViews!.length, 'bufferViews');
    array(prim.targets, `${q}/targets`).forEach((t, m) => accessorRefs(object(t, `${q}/targets/${m}`), `${q}/targets/${m}`));
  });
  array(mesh.weights, `${p}/weights`).forEach((w, k) => finite(w, `${p}/weights/${k}`));
}

/** The core texture references of a material (extension textures are their readers' business). */
function checkTextureRefs(material: JsonObject, p: string, c: Record<string, JsonObject[]>): void {
  const ref = (owner: unknown, key: string, q: string) => {
    if (owner === undefined) return;
    const info = object(owner, q)[key];
    if (info !== undefined) index(object(info, `${q}/${key}`).index, `${q}/${key}/index`, c.textures!.length, 'textures');
  };
  ref(material.pbrMetallicRoughness, 'baseColorTexture', `${p}/pbrMetallicRoughness`);
  ref(material.pbrMetallicRoughness, 'metallicRoughnessTexture', `${p}/pbrMetallicRoughness`);
  for (const key of ['normalTexture', 'occlusionTexture', 'emissiveTexture']) ref(material, key, p);
}

/** Morph targets of a node's mesh: the first primitive's target count (0 without a mesh). */
export function morphTargetCount(c: GltfCollections, node: JsonObject): number {
  if (node.mesh === undefined) return 0;
  const primitive = (c.meshes![node.mesh as number]!.primitives as JsonObject[])[0]!;
  return (primitive.targets as unknown[] | undefined)?.length ?? 0;
}

/**
 * Samplers: accessor indices, SCALAR FLOAT key times, a known interpolation. Channels: sampler
 * index, target; for a core path on a node, the output's type and component type (§3.11) and its
 * count: one element per key, × morph targets for weights, × 3 (in-tangent, value, out-tangent)
 * for CUBICSPLINE.
 */
function checkAnimation(animation: JsonObject, p: string, c: Record<string, JsonObject[]>): void {
  const samplers = objects(array(animation.samplers, `${p}/samplers`, true), `${p}/samplers`);
  for (let k = 0; k < samplers.length; k++) {
    const s = samplers[k]!;
    const q = `${p}/samplers/${k}`;
    const input = c.accessors![index(s.input, `${q}/input`, c.accessors!.length, 'accessors')]!;
    index(s.output, `${q}/output`, c.accessors!.length, 'accessors');
    if (input.type !== 'SCALAR' || input.componentType !== 5126 || input.normalized === true) fail(`${q}/input`, 'key times must be a SCALAR FLOAT accessor (glTF 2.0 §3.11)');
    if (s.interpolation !== undefined && !['LINEAR', 'STEP', 'CUBICSPLINE'].includes(s.interpolation as string)) {
      fail(`${q}/interpolation`, `interpolation ${describe(s.interpolation)}; expected LINEAR, STEP or CUBICSPLINE`);
    }
  }
  const channels = array(animation.channels, `${p}/channels`, true);
  for (let k = 0; k < channels.length; k++) checkChannel(channels[k], `${p}/channels/${k}`, p, samplers, c);
}

/** A `KHR_animation_pointer` pointer to what a core channel animates: a node's translation, rotation, scale or weights. */
const NODE_POINTER = /^\/nodes\/(\d+)\/(translation|rotation|scale|weights)$/;

/** The node and core path a channel animates, with the JSON pointer of its node index. */
export interface ChannelTarget {
  readonly node: number;
  readonly path: string;
  readonly nodeAt: string;
}

/**
 * What channel target `target` (at `q`) animates when animcore reads it: `node` and a core `path`,
 * or a `KHR_animation_pointer` pointer to a node's translation, rotation, scale or weights (the
 * same property; the extension's other pointers, materials, cameras, lights …, are not model
 * data); else the pointer or path that is not read, for the reader's warning. The node index is
 * not checked here (`checkChannel` does).
 */
export function channelTarget(target: JsonObject, q: string): ChannelTarget | { notRead: string } {
  const path = target.path as string;
  if (target.node !== undefined && PATH_TYPES[path] !== undefined) return { node: target.node as number, path, nodeAt: `${q}/node` };
  const extension = (target.extensions as JsonObject | undefined)?.KHR_animation_pointer;
  if (path !== 'pointer' || typeof extension !== 'object' || extension === null) return { notRead: `a "${path}" channel${target.node === undefined ? ' without a node' : ''} is not a glTF 2.0 core target` };
  const at = `${q}/extensions/KHR_animation_pointer/pointer`;
  const pointer = string((extension as JsonObject).pointer, at);
  const m = NODE_POINTER.exec(pointer);
  if (m === null) return { notRead: `KHR_animation_pointer "${shorten(pointer, 200)}" is not a node's translation, rotation, scale or weights` };
  return { node: Number(m[1]), path: m[2]!, nodeAt: at };
}

/** One channel of `checkAnimation` at pointer `q` (`p`: its animation's). */
function checkChannel(value: unknown, q: string, p: string, samplers: readonly JsonObject[], c: Record<string, JsonObject[]>): void {
  const channel = object(value, q);
  const sampler = samplers[index(channel.sampler, `${q}/sampler`, samplers.length, 'samplers of this animation')]!;
  const target = object(channel.target, `${q}/target`);
  string(target.path, `${q}/target/path`);
  const read = channelTarget(target, `${q}/target`);
  if ('notRead' in read) return; // reported when read
  const { path } = read;
  const node = c.nodes![index(read.node, read.nodeAt, c.nodes!.length, 'nodes')]!;
  const s = `${p}/samplers/${channel.sampler as number}`;
  const input = c.accessors![sampler.input as number]!;
  const output = c.accessors![sampler.output as number]!;
  if (output.type !== PATH_TYPES[path]) fail(`${s}/output`, `a ${path} channel needs a ${PATH_TYPES[path]} output, found ${String(output.type)}`);
  const integerOk = path === 'rotation' || path === 'weights';
  if (output.componentType !== 5126 && !(integerOk && output.normalized === true && output.componentType !== 5125)) {
    fail(`${s}/output`, `a ${path} output must be FLOAT${integerOk ? ' or a normalized BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT' : ''} (glTF 2.0 §3.11)`);
  }
  const targets = path === 'weights' ? morphTargetCount(c, node) : 1;
  if (targets === 0) fail(read.nodeAt, `a weights channel targets node ${read.node}, whose mesh has no morph targets`);
  const perKey = targets * (sampler.interpolation === 'CUBICSPLINE' ? 3 : 1);
  if (output.count !== (input.count as number) * perKey) {
    fail(`${s}/output`, `${String(output.count)} output elements for ${String(input.count)} keys; expected ${(input.count as number) * perKey} (${perKey} per key)`, 'bad-count');
  }
}

/** Each element of `values` as an object (`object`), at pointer `${p}/${i}`; a loop, not a callback made per file (V8 compiled those again per file: issue 15). */
function objects(values: readonly unknown[], p: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (let i = 0; i < values.length; i++) {
    const item = object(values[i], `${p}/${i}`);
    // Names become clip, joint, mesh and skin names (strings everywhere after the reader).
    optionalString(item.name, `${p}/${i}/name`);
    out.push(item);
  }
  return out;
}
