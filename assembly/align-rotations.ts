// Rotation keys as a glTF writer stores them: each sign-aligned to its predecessor and normalised,
// the kernel twin of src/export/curve-track.ts `AlignedRotations.write`, bit for bit (the same
// float64 operations in the same order). In JS those divisions and square roots were a tenth of a
// glTF → glTF bake (issue 15, gltf-resample); here two quaternion components share a division.

/**
 * Quaternion keys (float4, x y z w) from `from` written to `to`: key k (< count) is key k of the
 * `keyCount` at `from`, or key 0 again for k = keyCount (the closing key of a cycling clip),
 * negated when its float64 dot product with the previous key as written before normalising is
 * below 0 (key 0 as it is), then divided by its float64 length √(((x² + y²) + z²) + w²) and
 * rounded to float32; a zero quaternion becomes 0 0 0 1.
 */
export function alignRotations(from: usize, keyCount: u32, count: u32, to: usize): void {
  let px: f64 = 0;
  let py: f64 = 0;
  let pz: f64 = 0;
  let pw: f64 = 0;
  for (let k: u32 = 0; k < count; k++) {
    const src = from + (k == keyCount ? 0 : <usize>k << 4);
    let x = <f64>load<f32>(src);
    let y = <f64>load<f32>(src, 4);
    let z = <f64>load<f32>(src, 8);
    let w = <f64>load<f32>(src, 12);
    if (k > 0 && px * x + py * y + pz * z + pw * w < 0) {
      x = -x;
      y = -y;
      z = -z;
      w = -w;
    }
    px = x;
    py = y;
    pz = z;
    pw = w;
    const out = to + (<usize>k << 4);
    const len = Math.sqrt(x * x + y * y + z * z + w * w);
    if (len == 0) {
      store<u64>(out, 0);
      store<u64>(out, 0x3f80000000000000, 8);
    } else if (ASC_FEATURE_SIMD) {
      const l = f64x2.splat(len);
      const xy = f32x4.demote_f64x2_zero(f64x2.div(f64x2.replace_lane(f64x2.splat(x), 1, y), l));
      const zw = f32x4.demote_f64x2_zero(f64x2.div(f64x2.replace_lane(f64x2.splat(z), 1, w), l));
      v128.store(out, i32x4.shuffle(xy, zw, 0, 1, 4, 5));
    } else {
      store<f32>(out, <f32>(x / len));
      store<f32>(out, <f32>(y / len), 4);
      store<f32>(out, <f32>(z / len), 8);
      store<f32>(out, <f32>(w / len), 12);
    }
  }
}
