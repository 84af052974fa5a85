// Loading packed keys (a glTF VEC3/VEC4 accessor's floats, src/anim/packed-keys.ts) into a keyed
// block: the host copies a few members' floats into a scratch area, one typed-array copy each, and
// this spreads them to their float4 slots of the key-major block, key row by key row (the members
// of a call are neighbours, so each row is one run of writes). A loop in JS doing the same element
// by element was a third of a glTF → glTF bake (issue 15, gltf-resample). It also tests every
// float against the file-value rule on the way, so that a reader need not make a pass of its own
// over the keys before they are loaded (a tenth of the same bake).

/**
 * Float32 bits less the sign above which a value is not a file value: 0x7e967699 is the float32
 * just below 1e38, so NaN, ±Inf and magnitudes beyond ±1e38 are above it — exactly what
 * src/formats/value-range.ts `isFileValue` refuses (as src/formats/float32-check.ts tests it).
 */
const FILE_VALUE_BITS: u32 = 0x7e967699;

/**
 * `members` arrays of `count` keys of `width` floats (3 or 4), one after the other from `from`,
 * written as float4s (zeros after the key's floats): key k of member j to `to + k · stride + 16j`.
 * For width 3 the SIMD build reads 16 bytes per key: the host leaves 4 readable bytes after the
 * last array. Returns 1 when some float is not a file value (`FILE_VALUE_BITS`; all are written
 * anyway), else 0.
 */
export function widenKeys(from: usize, width: u32, count: u32, members: u32, to: usize, stride: usize): u32 {
  if (ASC_FEATURE_SIMD) return widenKeysSimd(from, width, count, members, to, stride);
  const bytes = <usize>(width * count) << 2;
  const step = <usize>width << 2;
  let bad: u32 = 0;
  for (let k: u32 = 0; k < count; k++) {
    let src = from;
    let dst = to;
    for (let j: u32 = 0; j < members; j++) {
      const xy = load<u64>(src);
      const zw = width == 4 ? load<u64>(src, 8) : <u64>load<u32>(src, 8);
      store<u64>(dst, xy);
      store<u64>(dst, zw, 8);
      bad |= notFileValue(<u32>xy) | notFileValue(<u32>(xy >>> 32)) | notFileValue(<u32>zw) | notFileValue(<u32>(zw >>> 32));
      src += bytes;
      dst += 16;
    }
    from += step;
    to += stride;
  }
  return bad;
}

/** 1 when float32 bits `f` are not a file value (`FILE_VALUE_BITS`), else 0. */
@inline
function notFileValue(f: u32): u32 {
  return u32((f & 0x7fffffff) > FILE_VALUE_BITS);
}

/** `widenKeys` a key as one v128: loaded, its lane 3 zeroed for width 3, stored and tested. */
@inline
function widenKeysSimd(from: usize, width: u32, count: u32, members: u32, to: usize, stride: usize): u32 {
  const bytes = <usize>(width * count) << 2;
  const step = <usize>width << 2;
  let bad = i32x4.splat(0);
  for (let k: u32 = 0; k < count; k++) {
    let src = from;
    let dst = to;
    for (let j: u32 = 0; j < members; j++) {
      const v = v128.load(src);
      const key = width == 4 ? v : i32x4.replace_lane(v, 3, 0);
      v128.store(dst, key);
      bad = v128.or(bad, i32x4.gt_u(v128.and(key, i32x4.splat(0x7fffffff)), i32x4.splat(FILE_VALUE_BITS)));
      src += bytes;
      dst += 16;
    }
    from += step;
    to += stride;
  }
  return u32(v128.any_true(bad));
}
