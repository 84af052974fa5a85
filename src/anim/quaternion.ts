/** A quaternion x y z w (or any float4) as plain numbers. */
export type Float4 = [number, number, number, number];

/** Hamilton product a ⊗ b (x y z w), as three.js `Quaternion.multiplyQuaternionsFlat`. */
export function quatMultiply(a: ArrayLike<number>, b: ArrayLike<number>): Float4 {
  return [
    a[0]! * b[3]! + a[3]! * b[0]! + a[1]! * b[2]! - a[2]! * b[1]!,
    a[1]! * b[3]! + a[3]! * b[1]! + a[2]! * b[0]! - a[0]! * b[2]!,
    a[2]! * b[3]! + a[3]! * b[2]! + a[0]! * b[1]! - a[1]! * b[0]!,
    a[3]! * b[3]! - a[0]! * b[0]! - a[1]! * b[1]! - a[2]! * b[2]!,
  ];
}

/** q⁻¹ = conjugate / |q|² (identity for a zero quaternion). */
export function quatInverse(q: ArrayLike<number>): Float4 {
  const n = q[0]! * q[0]! + q[1]! * q[1]! + q[2]! * q[2]! + q[3]! * q[3]!;
  return n > 0 ? [-q[0]! / n, -q[1]! / n, -q[2]! / n, q[3]! / n] : [0, 0, 0, 1];
}
