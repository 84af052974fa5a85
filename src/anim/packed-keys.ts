import type { KeyedKeys, UniformKeys } from './curve.js';

/** Keys of `width` floats each, one after the other (a tightly packed VEC3 or VEC4 accessor). */
export interface PackedValues {
  /** `width × keys` floats. */
  readonly data: Float32Array;
  readonly width: 1 | 2 | 3 | 4;
  /**
   * The reader's test of `data`, when it left it for later: `check()` throws the reader's error for
   * a value it refuses (a `FormatError` naming where it was read) and otherwise returns (then at
   * no cost when called again). Called before the floats are used: when `values` is first read,
   * and by the loader when its copy into the kernel found a value that is not a file value
   * (`widenKeys`). Why: a pass of its own over every key float was a tenth of a glTF → glTF bake
   * (issue 15, gltf-resample).
   */
  readonly unchecked?: ValueCheck;
}

/** A reader's test of values it read but left unchecked (`PackedValues.unchecked`). */
export interface ValueCheck {
  /** Throws the reader's error (a `FormatError` naming where it read them) for a value it refuses; otherwise returns. */
  check(): void;
}

/**
 * Keys made by `packedKeyedKeys`: plain own properties `encoding`, `times`, `interpolation` and an
 * own enumerable `values` accessor (so `{ ...keys }` and `JSON.stringify` see the float4 values),
 * the packed floats in a private field, which keys spread into new ones (`{ ...keys, values:
 * converted }`) do not carry. A class, not a WeakMap beside plain objects: a file's 1,920
 * WeakMap entries and descriptor objects were a seventh of opening the gltf-resample file.
 */
class PackedKeyedKeys {
  readonly encoding: 'keyed';
  readonly times: Float32Array;
  readonly interpolation: 'linear' | 'step';
  declare readonly values: Float32Array;
  readonly #packed: PackedValues;
  #values: Float32Array | undefined;

  constructor(times: Float32Array, packed: PackedValues, interpolation: 'linear' | 'step') {
    this.encoding = 'keyed';
    this.times = times;
    this.interpolation = interpolation;
    Object.defineProperty(this, 'values', VALUES);
    this.#packed = packed;
  }

  /** The packed floats of `keys`, or undefined for other keys. */
  static packedOf(keys: KeyedKeys): PackedValues | undefined {
    return keys instanceof PackedKeyedKeys ? keys.#packed : undefined;
  }

  /** The `values` getter: one function for every instance, so their hidden classes stay one. */
  static lazyValues(this: PackedKeyedKeys): Float32Array {
    if (this.#values === undefined) {
      this.#packed.unchecked?.check();
      this.#values = widened(this.#packed);
    }
    return this.#values;
  }
}

/** One descriptor for every instance's `values`. */
const VALUES: PropertyDescriptor = { get: PackedKeyedKeys.lazyValues, enumerable: true };

/**
 * Keyed keys held as a reader found them: `packed.width` floats per key (a glTF VEC3 or VEC4
 * accessor), the float4 `values` made only when something reads them (then once, and kept). The
 * loader copies the packed floats straight into the kernel's block (`writeTimedRecords` through
 * `packedValues`), so a batch that only loads and samples never builds a float4 copy of every key:
 * for a 10-clip × 64-joint glTF file that copy was ≈ 37 MB, a fifth of its glTF → glTF resample
 * (issue 15).
 * @param packed `width × times.length` floats; not copied, not modified (`values` is a new array);
 *   checked when first used if `packed.unchecked` says so
 */
export function packedKeyedKeys(times: Float32Array, packed: PackedValues, interpolation: 'linear' | 'step'): KeyedKeys {
  return new PackedKeyedKeys(times, packed, interpolation);
}

/** The packed floats of keys made by `packedKeyedKeys`, or undefined for other keys. */
export function packedValues(keys: KeyedKeys): PackedValues | undefined {
  return PackedKeyedKeys.packedOf(keys);
}

/**
 * Uniform keys held as x y z floats (`packedUniformKeys`), with an own enumerable `values`
 * accessor made once when first read, as `PackedKeyedKeys`.
 */
class PackedUniformKeys {
  readonly encoding: 'uniform';
  declare readonly values: Float32Array;
  readonly #xyz: Float32Array;
  #values: Float32Array | undefined;

  constructor(xyz: Float32Array) {
    this.encoding = 'uniform';
    Object.defineProperty(this, 'values', UNIFORM_VALUES);
    this.#xyz = xyz;
  }

  /** The x y z floats of `keys`, or undefined for other keys. */
  static xyzOf(keys: UniformKeys): Float32Array | undefined {
    return keys instanceof PackedUniformKeys ? keys.#xyz : undefined;
  }

  /** The `values` getter: one function for every instance. */
  static lazyValues(this: PackedUniformKeys): Float32Array {
    this.#values ??= widened({ data: this.#xyz, width: 3 });
    return this.#values;
  }
}

const UNIFORM_VALUES: PropertyDescriptor = { get: PackedUniformKeys.lazyValues, enumerable: true };

/**
 * Uniform keys of three floats each (x y z; `3 × keyCount` floats, not copied, not modified), the
 * float4 `values` (w 0) made only when something reads them: a resampled glTF translation or scale
 * that a glTF writer copies as it is (`resampleClip`; issue 15, gltf-resample).
 */
export function packedUniformKeys(xyz: Float32Array): UniformKeys {
  return new PackedUniformKeys(xyz);
}

/** The x y z floats of keys made by `packedUniformKeys`, or undefined for other keys. */
export function packedXyz(keys: UniformKeys): Float32Array | undefined {
  return PackedUniformKeys.xyzOf(keys);
}

/** The floats of float4 keys uniform keys have (`4 × keyCount`), without making packed keys' `values`. */
export function uniformValueLength(keys: UniformKeys): number {
  const xyz = packedXyz(keys);
  return xyz ? (4 * xyz.length) / 3 : keys.values.length;
}

/** `packed` as float4 keys: each key's floats, then zeros up to four. */
function widened({ data, width }: PackedValues): Float32Array {
  const n = data.length / width;
  if (width === 4) return data.slice(0, 4 * n);
  const out = new Float32Array(4 * n);
  for (let k = 0; k < n; k++) for (let c = 0; c < width; c++) out[4 * k + c] = data[width * k + c]!;
  return out;
}

/** The floats of float4 keys a keyed or cubic curve has (`4` or `12` × keys), without making packed keys' `values`. */
export function timedValueLength(keys: KeyedKeys | { readonly encoding: 'cubic'; readonly values: Float32Array }): number {
  const packed = keys.encoding === 'keyed' ? packedValues(keys) : undefined;
  return packed ? (4 * packed.data.length) / packed.width : keys.values.length;
}
