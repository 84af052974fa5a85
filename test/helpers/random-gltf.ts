import fc from 'fast-check';
import { concatAligned, f32Bytes, packGlb } from './glb.js';

/** One channel of a random glTF-like animation. */
export interface RandomChannel {
  path: 'translation' | 'rotation' | 'scale' | 'weights';
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Key times, seconds, strictly increasing float32. */
  times: number[];
  /** Output elements as the accessor holds them (decoded floats; quantized outputs already on their grid). */
  values: number[];
  /** Output component type: 5126 FLOAT, or normalized 5120 BYTE / 5122 SHORT (rotation and weights only). */
  componentType: 5126 | 5120 | 5122;
  /** Index of an earlier channel whose input accessor this channel's sampler uses (its `times` are equal). */
  input?: number;
}

/** Morph targets of a weights channel's mesh. */
export const RANDOM_TARGETS = 2;
const WIDTH = { translation: 3, rotation: 4, scale: 3, weights: RANDOM_TARGETS } as const;

const f = (min: number, max: number) => fc.float({ min: Math.fround(min), max: Math.fround(max), noNaN: true, noDefaultInfinity: true });

const times = (n: number) =>
  fc.tuple(f(0, 0.5), fc.array(f(0.01, 1), { minLength: n - 1, maxLength: n - 1 })).map(([start, steps]) => {
    const out = [Math.fround(start)];
    for (const s of steps) out.push(Math.fround(out[out.length - 1]! + s));
    return out;
  }).filter((t) => t.every((x, i) => i === 0 || x > t[i - 1]!));

const unitQuat = fc
  .tuple(f(-1, 1), f(-1, 1), f(-1, 1), f(-1, 1))
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => {
    const l = Math.hypot(...q);
    return q.map((x) => Math.fround(x / l));
  });

/**
 * Random glTF-like channels: every path, all three interpolations, random key times (1–6 keys; 2–6
 * for CUBICSPLINE), unit rotation keys with arbitrary tangents, and rotation or weights outputs
 * quantized to normalized BYTE or SHORT, cubic rotation keys in one hemisphere (never −128 or −32768, where three.js leaves the spec;
 * never two equal neighbouring rotation keys, which three.js holds while the spec's slerp of two
 * equal non-unit quaternions scales them).
 */
/** One random channel (as `arbitraryChannels` describes) on random times of 1–6 keys (CUBICSPLINE at least 2), or on `fixed` times. */
function arbitraryChannel(fixed?: number[]): fc.Arbitrary<RandomChannel> {
  return fc
    .record({
      path: fc.constantFrom('translation', 'rotation', 'scale', 'weights') as fc.Arbitrary<RandomChannel['path']>,
      interpolation: fc.constantFrom('LINEAR', 'STEP', 'CUBICSPLINE') as fc.Arbitrary<RandomChannel['interpolation']>,
      n: fc.integer({ min: 1, max: 6 }),
      quantized: fc.constantFrom(5126, 5126, 5120, 5122) as fc.Arbitrary<5126 | 5120 | 5122>,
    })
    .chain(({ path, interpolation, n, quantized }) => {
      const keys = fixed?.length ?? (interpolation === 'CUBICSPLINE' ? Math.max(2, n) : n);
      const width = WIDTH[path];
      const componentType = path === 'rotation' || path === 'weights' ? quantized : 5126;
      const scale = componentType === 5120 ? 127 : 32767;
      const onGrid = (v: number) => (componentType === 5126 ? v : Math.max(-scale + 1, Math.min(scale, Math.round(v * scale))) / scale);
      const value = path === 'rotation' ? unitQuat : fc.array(path === 'weights' ? f(-1, 1) : f(-10, 10), { minLength: width, maxLength: width });
      const tangent = fc.array(f(-2, 2), { minLength: width, maxLength: width });
      const element = interpolation === 'CUBICSPLINE' ? fc.tuple(tangent, value, tangent).map((parts) => parts.flat()) : value;
      return fc
        .tuple(fixed ? fc.constant(fixed) : times(keys), fc.array(element, { minLength: keys, maxLength: keys }))
        .map(([t, v]) => ({ path, interpolation, times: t, values: (path === 'rotation' && interpolation === 'CUBICSPLINE' ? sameHemisphere(v) : v).flat().map(onGrid), componentType }))
        .filter((c) => c.path !== 'rotation' || c.interpolation !== 'LINEAR' || !equalNeighbours(c.values));
    });
}

/**
 * Random glTF-like channels: every path, all three interpolations, random key times (1–6 keys; 2–6
 * for CUBICSPLINE), unit rotation keys with arbitrary tangents, and rotation or weights outputs
 * quantized to normalized BYTE or SHORT, cubic rotation keys in one hemisphere (never −128 or −32768, where three.js leaves the spec;
 * never two equal neighbouring rotation keys, which three.js holds while the spec's slerp of two
 * equal non-unit quaternions scales them).
 */
export const arbitraryChannels: fc.Arbitrary<RandomChannel[]> = fc.array(arbitraryChannel(), { minLength: 1, maxLength: 4 });

/**
 * Random channels as exporters write them, sharing key times: 2–8 channels (as `arbitraryChannels`)
 * on 1–2 time arrays of 2–6 keys, each channel's sampler using the first such channel's input
 * accessor or an accessor of its own with equal times.
 */
export const arbitrarySharedChannels: fc.Arbitrary<RandomChannel[]> = fc
  .tuple(fc.array(fc.integer({ min: 2, max: 6 }).chain(times), { minLength: 1, maxLength: 2 }), fc.array(fc.tuple(fc.nat(1), fc.boolean()), { minLength: 2, maxLength: 8 }))
  .chain(([arrays, picks]) =>
    fc.tuple(...picks.map(([source]) => arbitraryChannel(arrays[source % arrays.length]!))).map((channels) =>
      channels.map((c, i): RandomChannel => {
        const [source, reuse] = picks[i]!;
        const first = picks.findIndex(([s]) => s % arrays.length === source % arrays.length);
        return reuse && first < i ? { ...c, input: first } : c;
      }),
    ),
  );

/**
 * Cubic rotation keys (in-tangent, value, out-tangent) with each value in its predecessor's
 * hemisphere, as exporters write them: a spline from q to −q passes near zero, where the
 * normalised direction is rounding noise.
 */
function sameHemisphere(keys: number[][]): number[][] {
  const out = keys.map((k) => [...k]);
  for (let k = 1; k < out.length; k++) {
    const p = out[k - 1]!;
    const q = out[k]!;
    if (p[4]! * q[4]! + p[5]! * q[5]! + p[6]! * q[6]! + p[7]! * q[7]! < 0) for (let c = 4; c < 8; c++) q[c] = -q[c]!;
  }
  return out;
}

/** Whether two neighbouring float4 keys of `values` are equal. */
function equalNeighbours(values: readonly number[]): boolean {
  for (let k = 4; k < values.length; k += 4) if ([0, 1, 2, 3].every((c) => values[k + c] === values[k - 4 + c])) return true;
  return false;
}

/**
 * A `.glb` with one animation of `channels`, channel i driving node `n<i>` (a node with a
 * two-target morph mesh for weights). Quantized outputs are written as normalized integers.
 */
export function randomGlb(channels: readonly RandomChannel[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const accessors: object[] = [];
  const add = (bytes: Uint8Array, accessor: object) => {
    parts.push(bytes);
    accessors.push({ ...accessor, bufferView: parts.length - 1 });
    return accessors.length - 1;
  };
  const positions = add(f32Bytes([0, 0, 0, 1, 0, 0, 0, 1, 0]), { componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] });
  const inputs: number[] = [];
  const samplers = channels.map((c) => {
    const input = c.input !== undefined ? inputs[c.input]! : add(f32Bytes(c.times), { componentType: 5126, count: c.times.length, type: 'SCALAR', min: [c.times[0]], max: [c.times[c.times.length - 1]] });
    const type = { translation: 'VEC3', rotation: 'VEC4', scale: 'VEC3', weights: 'SCALAR' }[c.path];
    const perElement = c.path === 'weights' ? 1 : WIDTH[c.path];
    const count = c.values.length / perElement;
    const data =
      c.componentType === 5126
        ? f32Bytes(c.values)
        : c.componentType === 5120
          ? new Uint8Array(Int8Array.from(c.values, (v) => Math.round(v * 127)).buffer)
          : new Uint8Array(Int16Array.from(c.values, (v) => Math.round(v * 32767)).buffer);
    const output = add(data, { componentType: c.componentType, normalized: c.componentType !== 5126 || undefined, count, type });
    inputs.push(input);
    return { input, output, interpolation: c.interpolation };
  });
  const { bin, offsets } = concatAligned(parts);
  const json = {
    asset: { version: '2.0' },
    buffers: [{ byteLength: bin.length }],
    bufferViews: parts.map((p, i) => ({ buffer: 0, byteOffset: offsets[i], byteLength: p.length })),
    accessors,
    meshes: [{ primitives: [{ attributes: { POSITION: positions }, targets: Array.from({ length: RANDOM_TARGETS }, () => ({ POSITION: positions })) }] }],
    nodes: channels.map((c, i) => (c.path === 'weights' ? { name: `n${i}`, mesh: 0 } : { name: `n${i}` })),
    scenes: [{ nodes: channels.map((_, i) => i) }],
    animations: [{ name: 'random', samplers, channels: channels.map((c, i) => ({ sampler: i, target: { node: i, path: c.path } })) }],
  };
  return packGlb(json, bin);
}
