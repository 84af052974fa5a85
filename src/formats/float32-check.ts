// The file-value rule (value-range.ts) for float32 arrays in WebAssembly SIMD: eight floats per
// step instead of one. Checking a glTF file's key floats one by one in JS was a sixth of a glTF →
// glTF bake (7.7 million floats for a 10-clip × 64-joint file; issue 15, gltf-resample). The
// readers do not load the animcore kernel (src/core), so this is a module of its own: a few
// hundred bytes, compiled synchronously on first use, with the JS loop where WebAssembly SIMD is
// missing (Safari before 16.4).

/**
 * The module, as text. `firstBad(n)`: the index of the first of the n float32s at byte 0 whose
 * bits less the sign are above 0x7e967699, the float32 just below 1e38 (so NaN, ±Inf and
 * magnitudes beyond ±1e38: exactly what `isFileValue` refuses), or −1. `FLOAT32_CHECK_BYTES` is
 * this text as binaryen assembles it (test/formats/value-range.test.ts checks that).
 */
export const FLOAT32_CHECK_WAT = `(module
  (memory (export "memory") 4)
  (func (export "firstBad") (param $n i32) (result i32)
    (local $i i32) (local $end i32)
    (local.set $end (i32.and (local.get $n) (i32.const -8)))
    (block $tail
      (loop $eight
        (br_if $tail (i32.ge_u (local.get $i) (local.get $end)))
        (br_if $tail (v128.any_true (v128.or
          (i32x4.gt_u (v128.and (v128.load (i32.shl (local.get $i) (i32.const 2))) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)) (v128.const i32x4 0x7e967699 0x7e967699 0x7e967699 0x7e967699))
          (i32x4.gt_u (v128.and (v128.load offset=16 (i32.shl (local.get $i) (i32.const 2))) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)) (v128.const i32x4 0x7e967699 0x7e967699 0x7e967699 0x7e967699)))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $eight)))
    (loop $one
      (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
      (if (i32.gt_u (i32.and (i32.load (i32.shl (local.get $i) (i32.const 2))) (i32.const 0x7fffffff)) (i32.const 0x7e967699)) (then (return (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $one))
    (unreachable)))`;

/** `FLOAT32_CHECK_WAT` assembled (binaryen, SIMD enabled). */
export const FLOAT32_CHECK_BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00, 0x05, 0x03, 0x01, 0x00,
  0x04, 0x07, 0x15, 0x02, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x08, 0x66, 0x69, 0x72, 0x73, 0x74, 0x42, 0x61, 0x64, 0x00, 0x00,
  0x0a, 0xc1, 0x01, 0x01, 0xbe, 0x01, 0x01, 0x02, 0x7f, 0x20, 0x00, 0x41, 0x78, 0x71, 0x21, 0x02, 0x02, 0x40, 0x03, 0x40, 0x20, 0x01, 0x20, 0x02,
  0x4f, 0x0d, 0x01, 0x20, 0x01, 0x41, 0x02, 0x74, 0xfd, 0x00, 0x04, 0x00, 0xfd, 0x0c, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff,
  0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 0xfd, 0x4e, 0xfd, 0x0c, 0x99, 0x76, 0x96, 0x7e, 0x99, 0x76, 0x96, 0x7e, 0x99, 0x76, 0x96, 0x7e, 0x99, 0x76,
  0x96, 0x7e, 0xfd, 0x3c, 0x20, 0x01, 0x41, 0x02, 0x74, 0xfd, 0x00, 0x04, 0x10, 0xfd, 0x0c, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 0xff,
  0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 0xfd, 0x4e, 0xfd, 0x0c, 0x99, 0x76, 0x96, 0x7e, 0x99, 0x76, 0x96, 0x7e, 0x99, 0x76, 0x96, 0x7e, 0x99,
  0x76, 0x96, 0x7e, 0xfd, 0x3c, 0xfd, 0x50, 0xfd, 0x53, 0x0d, 0x01, 0x20, 0x01, 0x41, 0x08, 0x6a, 0x21, 0x01, 0x0c, 0x00, 0x0b, 0x00, 0x0b, 0x03,
  0x40, 0x20, 0x01, 0x20, 0x00, 0x4f, 0x04, 0x40, 0x41, 0x7f, 0x0f, 0x0b, 0x20, 0x01, 0x41, 0x02, 0x74, 0x28, 0x02, 0x00, 0x41, 0xff, 0xff, 0xff,
  0xff, 0x07, 0x71, 0x41, 0x99, 0xed, 0xd9, 0xf4, 0x07, 0x4b, 0x04, 0x40, 0x20, 0x01, 0x0f, 0x0b, 0x20, 0x01, 0x41, 0x01, 0x6a, 0x21, 0x01, 0x0c,
  0x00, 0x0b, 0x00, 0x0b,
]);

/** Floats per call: the module's four pages (256 KiB), so it never grows and stays in the L2 cache. */
const CHUNK = 65536;

let instance: { view: Float32Array; firstBad: (n: number) => number } | null | undefined;

/** The module's memory as floats and its `firstBad`, or null where WebAssembly SIMD is missing or may not be compiled. */
function checker(): typeof instance {
  if (instance !== undefined) return instance;
  instance = null;
  if (typeof WebAssembly === 'object' && WebAssembly.validate(FLOAT32_CHECK_BYTES)) {
    try {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(FLOAT32_CHECK_BYTES)).exports as { memory: WebAssembly.Memory; firstBad: (n: number) => number };
      instance = { view: new Float32Array(exports.memory.buffer), firstBad: exports.firstBad };
    } catch {
      // A page whose Content-Security-Policy forbids compiling WebAssembly: the readers still read, checking in JS.
    }
  }
  return instance;
}

/**
 * Index of the first float of `values` that `isFileValue` refuses, or −1, checked in WebAssembly
 * SIMD (the floats copied into its memory a chunk at a time); undefined where WebAssembly SIMD is
 * missing or may not be compiled, so the caller checks value by value.
 */
export function firstBadFloat32(values: Float32Array): number | undefined {
  const c = checker();
  if (!c) return undefined;
  for (let at = 0; at < values.length; at += CHUNK) {
    const n = Math.min(CHUNK, values.length - at);
    c.view.set(values.subarray(at, at + n));
    const i = c.firstBad(n);
    if (i >= 0) return at + i;
  }
  return -1;
}
