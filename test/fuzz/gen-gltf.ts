// Generators of valid glTF 2.0 assets (glTF 2.0 §3, §5): a node hierarchy with its rest TRS, one
// or two animations (LINEAR, STEP or CUBICSPLINE samplers on translation, rotation, scale), and
// sometimes a skinned mesh and a morph-target mesh with a weights channel, and animcore's
// extras.animcore (events, Bool curves); as a `.glb` (its binary
// chunk's floats are fields for the mutators), as a `.gltf` with a base64 `data:` buffer, or as a
// `.glb` whose views are meshopt-compressed as gltfpack -c writes them.
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { type Field, FieldWriter } from './fields.js';
import type { Generator, Params } from './input.js';

interface Accessor {
  bufferView: number;
  componentType: number;
  count: number;
  type: string;
  normalized?: boolean;
  min?: number[];
  max?: number[];
  sparse?: Record<string, unknown>;
}

/** How an accessor's elements lie in its view. */
type Layout = { kind: 'tight' } | { kind: 'strided'; stride: number } | { kind: 'sparse'; indices: number[] };

/** A glTF JSON document and its one binary buffer, built accessor by accessor. */
class GltfBuilder {
  readonly bin = new FieldWriter(true);
  readonly accessors: Accessor[] = [];
  readonly bufferViews: { buffer: 0; byteOffset: number; byteLength: number; byteStride?: number }[] = [];

  /**
   * Float accessor of `type` over `values` (4-aligned); `minMax` for animation inputs (required
   * there). `layout` `strided`: elements `stride` bytes apart with NaN between them; `sparse`: some
   * elements NaN in the view and their values in a sparse part (glTF 2.0 §3.6.2.3) — so a reader
   * that ignores a stride or the sparse values reads NaN and refuses a valid file.
   */
  floats(values: number[], type: 'SCALAR' | 'VEC3' | 'VEC4' | 'MAT4', role: Field['role'] = 'value', minMax = false, layout: Layout = { kind: 'tight' }): number {
    const size = { SCALAR: 1, VEC3: 3, VEC4: 4, MAT4: 16 }[type];
    const count = values.length / size;
    const accessor = { componentType: 5126, count, type, ...(minMax && { min: [Math.min(...values)], max: [Math.max(...values)] }) };
    const byteOffset = this.bin.length;
    if (layout.kind === 'strided') {
      for (let i = 0; i < count; i++) {
        for (let c = 0; c < size; c++) this.bin.f32(values[i * size + c]!, role);
        for (let pad = 4 * size; pad < layout.stride; pad += 4) this.bin.f32(NaN, 'flag');
      }
      this.bufferViews.push({ buffer: 0, byteOffset, byteLength: this.bin.length - byteOffset, byteStride: layout.stride });
      this.accessors.push({ bufferView: this.bufferViews.length - 1, ...accessor });
      return this.accessors.length - 1;
    }
    if (layout.kind === 'sparse') {
      const replaced = new Set(layout.indices.filter((i) => i < count));
      for (let i = 0; i < count; i++) for (let c = 0; c < size; c++) this.bin.f32(replaced.has(i) ? NaN : values[i * size + c]!, replaced.has(i) ? 'flag' : role);
      const base = this.view(byteOffset, accessor);
      const indices = [...replaced].sort((a, b) => a - b);
      const indexAt = this.bin.length;
      for (const i of indices) this.bin.u32(i, 'index');
      this.bufferViews.push({ buffer: 0, byteOffset: indexAt, byteLength: 4 * indices.length });
      const valueAt = this.bin.length;
      for (const i of indices) for (let c = 0; c < size; c++) this.bin.f32(values[i * size + c]!, role);
      this.bufferViews.push({ buffer: 0, byteOffset: valueAt, byteLength: 4 * size * indices.length });
      const v = this.bufferViews.length;
      if (indices.length > 0) this.accessors[base]!.sparse = { count: indices.length, indices: { bufferView: v - 2, componentType: 5125 }, values: { bufferView: v - 1 } };
      return base;
    }
    for (const v of values) this.bin.f32(v, role);
    return this.view(byteOffset, accessor);
  }

  /** Normalized integer accessor (SHORT, BYTE, or their unsigned forms for values in [0, 1]): glTF 2.0 §3.11 animation outputs. */
  normalized(values: number[], type: 'SCALAR' | 'VEC4', componentType: 5120 | 5121 | 5122 | 5123): number {
    const byteOffset = this.bin.length;
    const max = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 }[componentType];
    for (const v of values) {
      // −1 is written as −max − 1 half the time: both decode to exactly −1 (max(c / max, −1)).
      const c = v === -1 && this.bin.length % 8 === 0 ? -max - 1 : Math.round(v * max);
      if (componentType === 5120 || componentType === 5121) this.bin.u8(c & 0xff, 'value');
      else this.bin.u16(c & 0xffff, 'value');
    }
    while (this.bin.length % 4 !== 0) this.bin.u8(0, 'flag');
    return this.view(byteOffset, { componentType, normalized: true, count: values.length / (type === 'VEC4' ? 4 : 1), type }, values.length * (componentType < 5122 ? 1 : 2));
  }

  /** Unsigned short accessor (joint indices, triangle indices), padded to 4 bytes. */
  shorts(values: number[], type: 'SCALAR' | 'VEC4'): number {
    const byteOffset = this.bin.length;
    for (const v of values) this.bin.u16(v, 'index');
    if (this.bin.length % 4 !== 0) this.bin.u16(0, 'flag');
    return this.view(byteOffset, { componentType: 5123, count: values.length / (type === 'VEC4' ? 4 : 1), type }, values.length * 2);
  }

  private view(byteOffset: number, accessor: Omit<Accessor, 'bufferView'>, byteLength = this.bin.length - byteOffset): number {
    this.bufferViews.push({ buffer: 0, byteOffset, byteLength });
    this.accessors.push({ bufferView: this.bufferViews.length - 1, ...accessor });
    return this.accessors.length - 1;
  }
}

/** The keys of one sampler: times in seconds (increasing), and values per key (3 in/value/out for CUBICSPLINE). */
function sampler(p: Params, g: GltfBuilder, path: 'translation' | 'rotation' | 'scale', interpolation: string): { input: number; output: number; interpolation: string } {
  const n = p.int(1, 5, [1, 200]);
  let t = p.real(0, 0.2, [], 3);
  const times = Array.from({ length: n }, () => (t += p.real(0.01, 0.5, [1e-6, 1e6], 3)));
  const value = () => (path === 'rotation' ? p.quaternion() : path === 'scale' ? [p.real(0.5, 2), p.real(0.5, 2), p.real(0.5, 2)] : [p.real(-5, 5), p.real(-5, 5), p.real(-5, 5)]);
  const values: number[] = [];
  for (let k = 0; k < n; k++) {
    if (interpolation === 'CUBICSPLINE') values.push(...value().map(() => p.real(-1, 1)), ...value(), ...value().map(() => p.real(-1, 1)));
    else values.push(...value());
  }
  const type = path === 'rotation' ? 'VEC4' : 'VEC3';
  const width = type === 'VEC4' ? 4 : 3;
  const input = g.floats(times, 'SCALAR', 'time', true, layout(p, times.length, 1));
  // Rotations as normalized integers (glTF 2.0 §3.11), LINEAR and STEP only here: tangents may leave [−1, 1].
  if (path === 'rotation' && interpolation !== 'CUBICSPLINE' && p.rng.chance(0.25)) {
    return { input, output: g.normalized(values.map((v) => Math.max(-1, Math.min(1, v))), 'VEC4', p.rng.pick([5120, 5122] as const)), interpolation };
  }
  return { input, output: g.floats(values, type, 'value', false, layout(p, values.length / width, width)), interpolation };
}

/** Mostly tightly packed; sometimes strided (stride a multiple of 4 up to 252) or with sparse values over NaN. */
function layout(p: Params, count: number, width: number): Layout {
  const r = p.rng.float();
  if (r < 0.7) return { kind: 'tight' };
  if (r < 0.85) return { kind: 'strided', stride: Math.min(252, 4 * width + 4 * p.rng.int(1, 4)) };
  return { kind: 'sparse', indices: Array.from({ length: p.rng.int(1, Math.min(count, 6)) }, () => p.rng.int(0, count - 1)) };
}

export function gltfAsset(p: Params): { json: Record<string, unknown>; bin: FieldWriter } {
  const g = new GltfBuilder();
  const joints = p.int(1, 5, [1, 30]);
  const nodes: Record<string, unknown>[] = [];
  for (let j = 0; j < joints; j++) {
    nodes.push({ name: `joint_${j}`, translation: [p.real(-1, 1), p.real(0, 1), 0], rotation: p.quaternion(), scale: [1, 1, 1] });
    if (j > 0) {
      const parent = nodes[p.rng.int(0, j - 1)]!;
      parent.children = [...((parent.children as number[] | undefined) ?? []), j];
    }
  }
  const meshes: Record<string, unknown>[] = [];
  const skins: Record<string, unknown>[] = [];
  const roots = [0];
  if (p.rng.chance(0.4)) {
    // A skinned triangle on every joint (inverse bind matrices: identity).
    const positions = g.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], 'VEC3');
    const jointIds = g.shorts([0, 0, 0, 0, Math.min(1, joints - 1), 0, 0, 0, 0, 0, 0, 0], 'VEC4');
    const weights = g.floats([1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0], 'VEC4');
    const indices = g.shorts([0, 1, 2], 'SCALAR');
    const ibm = g.floats(Array.from({ length: joints }, () => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]).flat(), 'MAT4');
    meshes.push({ primitives: [{ attributes: { POSITION: positions, JOINTS_0: jointIds, WEIGHTS_0: weights }, indices }] });
    skins.push({ joints: nodes.map((_, i) => i), inverseBindMatrices: ibm });
    nodes.push({ name: 'skinned', mesh: meshes.length - 1, skin: 0 });
    roots.push(nodes.length - 1);
  }
  const channels: Record<string, unknown>[] = [];
  const samplers: Record<string, unknown>[] = [];
  for (let j = 0; j < joints; j++) {
    for (const path of ['translation', 'rotation', 'scale'] as const) {
      if (!p.rng.chance(0.5)) continue;
      samplers.push(sampler(p, g, path, p.pick(['LINEAR', 'LINEAR', 'STEP', 'CUBICSPLINE'], [])));
      channels.push({ sampler: samplers.length - 1, target: { node: j, path } });
    }
  }
  if (p.rng.chance(0.3)) {
    // Two morph targets on a triangle, and their weights animated.
    const positions = g.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], 'VEC3');
    const targets = [g.floats([0, 0, 1, 0, 0, 1, 0, 0, 1], 'VEC3'), g.floats([1, 0, 0, 1, 0, 0, 1, 0, 0], 'VEC3')];
    meshes.push({ primitives: [{ attributes: { POSITION: positions }, targets: targets.map((t) => ({ POSITION: t })) }], weights: [0, 0] });
    nodes.push({ name: 'morph', mesh: meshes.length - 1 });
    roots.push(nodes.length - 1);
    const n = p.int(1, 4);
    let t = 0;
    const times = Array.from({ length: n }, () => (t += p.real(0.05, 0.5, [], 3)));
    // LINEAR, STEP or CUBICSPLINE (in-tangents, values, out-tangents of both targets per key); floats or normalized unsigned integers.
    const interpolation = p.rng.pick(['LINEAR', 'STEP', 'CUBICSPLINE']);
    const weights = Array.from({ length: (interpolation === 'CUBICSPLINE' ? 6 : 2) * n }, () => p.real(0, 1));
    const output = p.rng.chance(0.3) ? g.normalized(weights, 'SCALAR', p.rng.pick([5121, 5123] as const)) : g.floats(weights, 'SCALAR', 'value', false, layout(p, weights.length, 1));
    samplers.push({ input: g.floats(times, 'SCALAR', 'time', true), output, interpolation });
    channels.push({ sampler: samplers.length - 1, target: { node: nodes.length - 1, path: 'weights' } });
  }
  if (channels.length === 0) {
    samplers.push(sampler(p, g, 'translation', 'LINEAR'));
    channels.push({ sampler: 0, target: { node: 0, path: 'translation' } });
  }
  // Sometimes the events and Bool curves animcore's export keeps in extras.animcore (read back by animcoreExtras).
  const extras = p.rng.chance(0.3) && {
    extras: {
      animcore: {
        events: Array.from({ length: p.int(0, 3) }, (_, i) => ({ name: `event${i}`, category: i % 2 ? 'marker' : '', time: p.real(-1, 3) })),
        bools: Array.from({ length: p.int(0, 2) }, (_, i) => {
          let t = p.real(-1, 1);
          const n = p.int(1, 4);
          return { joint: i % 2 ? null : 'j0', property: 'tracked', times: Array.from({ length: n }, () => (t += p.real(0.05, 0.5))), values: Array.from({ length: n }, (_, k) => k % 2) };
        }),
      },
    },
  };
  const json: Record<string, unknown> = {
    asset: { version: '2.0', generator: 'animcore fuzz' },
    scene: 0,
    scenes: [{ nodes: roots }],
    nodes,
    animations: [{ name: 'take', samplers, channels, ...extras }, ...(p.rng.chance(0.25) ? [secondAnimation(p, samplers, channels)] : [])],
    accessors: g.accessors,
    bufferViews: g.bufferViews,
    buffers: [{ byteLength: g.bin.length }],
    ...(meshes.length > 0 && { meshes }),
    ...(skins.length > 0 && { skins }),
  };
  return { json, bin: g.bin };
}

/** Another animation over the first one's accessors (shared inputs and outputs), some channels left out, its own interpolations where the counts allow. */
function secondAnimation(p: Params, samplers: Record<string, unknown>[], channels: Record<string, unknown>[]): Record<string, unknown> {
  const kept = channels.filter(() => p.rng.chance(0.7));
  const used = kept.length > 0 ? kept : channels.slice(0, 1);
  return {
    name: p.pick(['take', 'second', ''], []),
    samplers: used.map((c) => {
      const s = samplers[c.sampler as number]!;
      const cubic = s.interpolation === 'CUBICSPLINE';
      return { ...s, interpolation: cubic ? 'CUBICSPLINE' : p.rng.pick(['LINEAR', 'STEP']) };
    }),
    channels: used.map((c, k) => ({ ...c, sampler: k })),
  };
}

/** A `.glb`: 12-byte header, the JSON chunk (space-padded), the BIN chunk; field offsets moved into the file. */
export function glb(json: Record<string, unknown>, bin: FieldWriter): { bytes: Uint8Array; fields: Field[] } {
  const text = JSON.stringify(json);
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const w = new FieldWriter(true);
  w.bytes([0x67, 0x6c, 0x54, 0x46]);
  w.u32(2, 'flag');
  w.u32(12 + 8 + jsonLength + 8 + bin.length, 'count');
  w.u32(jsonLength, 'count');
  w.bytes([0x4a, 0x53, 0x4f, 0x4e]);
  w.text(text.padEnd(jsonLength, ' '));
  w.u32(bin.length, 'count');
  w.bytes([0x42, 0x49, 0x4e, 0x00]);
  const at = w.length;
  w.bytes(bin.finish());
  return { bytes: w.finish(), fields: [...w.fields, ...bin.fields.map((f) => ({ ...f, offset: f.offset + at }))] };
}

await MeshoptEncoder.ready;

/**
 * The asset with every buffer view `EXT_meshopt_compression`-compressed (ATTRIBUTES at the view's
 * stride, 4 when tight) into buffer 0, decoded into buffer 1, a fallback buffer without `uri`, as
 * gltfpack -c writes files: the compressed streams are what the mutators then hit (no fields).
 */
function meshoptCompressed(json: Record<string, unknown>, bin: FieldWriter): FieldWriter {
  const data = bin.finish();
  const out = new FieldWriter(true);
  let decoded = 0; // the fallback buffer: the compressed views end to end
  for (const view of json.bufferViews as Record<string, unknown>[]) {
    const stride = (view.byteStride as number | undefined) ?? 4;
    const bytes = data.subarray(view.byteOffset as number, (view.byteOffset as number) + (view.byteLength as number));
    if (bytes.length % stride !== 0) {
      // Not whole 4-byte elements (three SHORT indices): plain bytes in buffer 0, as gltfpack leaves what it does not compress.
      view.byteOffset = out.length;
      out.bytes(bytes);
    } else {
      const stream = MeshoptEncoder.encodeGltfBuffer(bytes, bytes.length / stride, stride, 'ATTRIBUTES');
      view.extensions = { EXT_meshopt_compression: { buffer: 0, byteOffset: out.length, byteLength: stream.length, byteStride: stride, mode: 'ATTRIBUTES', count: bytes.length / stride } };
      view.buffer = 1;
      view.byteOffset = decoded;
      decoded += bytes.length;
      out.bytes(stream);
    }
    out.bytes(new Uint8Array((4 - (out.length % 4)) % 4));
  }
  json.buffers = [{ byteLength: out.length }, { byteLength: decoded, extensions: { EXT_meshopt_compression: { fallback: true } } }];
  json.extensionsUsed = ['EXT_meshopt_compression'];
  json.extensionsRequired = ['EXT_meshopt_compression'];
  return out;
}

const gltfTarget =
  (container: 'glb' | 'gltf' | 'meshopt'): Generator =>
  (p) => {
    const { json, bin } = gltfAsset(p);
    if (container === 'glb') return { main: { name: 'fuzz.glb', ...glb(json, bin) }, companions: {}, mutated: 'main' };
    if (container === 'meshopt') return { main: { name: 'fuzz.glb', ...glb(json, meshoptCompressed(json, bin)) }, companions: {}, mutated: 'main' };
    (json.buffers as Record<string, unknown>[])[0]!.uri = `data:application/octet-stream;base64,${Buffer.from(bin.finish()).toString('base64')}`;
    return { main: { name: 'fuzz.gltf', bytes: new Uint8Array(Buffer.from(JSON.stringify(json, null, 1))), text: true }, companions: {}, mutated: 'main' };
  };

export const GLTF_TARGETS: Record<string, Generator> = {
  'gltf-glb': gltfTarget('glb'),
  'gltf-json': gltfTarget('gltf'),
  'gltf-meshopt': gltfTarget('meshopt'),
};
