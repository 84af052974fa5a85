// Loading packed keys (a glTF VEC3/VEC4 accessor's floats, src/anim/packed-keys.ts) into a keyed
// block: the host copies a few members' floats into a scratch area, one typed-array copy each, and
// this spreads them to their float4 slots of the key-major block, key row by key row (the members
// of a call are neighbours, so each row is one run of writes). A loop in JS doing the same element
// by element was a third of a glTF → glTF bake (issue 15, gltf-resample).

/**
 * `members` arrays of `count` keys of `width` floats (3 or 4), one after the other from `from`,
 * written as float4s (zeros after the key's floats): key k of member j to `to + k · stride + 16j`.
 * For width 3 the SIMD build reads 16 bytes per key: the host leaves 4 readable bytes after the
 * last array.
 */
export function widenKeys(from: usize, width: u32, count: u32, members: u32, to: usize, stride: usize): void {
  const bytes = <usize>(width * count) << 2;
  const step = <usize>width << 2;
  for (let k: u32 = 0; k < count; k++) {
    let src = from;
    let dst = to;
    for (let j: u32 = 0; j < members; j++) {
      if (ASC_FEATURE_SIMD) {
        const v = v128.load(src);
        v128.store(dst, width == 4 ? v : i32x4.replace_lane(v, 3, 0));
      } else {
        store<u64>(dst, load<u64>(src));
        store<u64>(dst, width == 4 ? load<u64>(src, 8) : <u64>load<u32>(src, 8), 8);
      }
      src += bytes;
      dst += 16;
    }
    from += step;
    to += stride;
  }
}
