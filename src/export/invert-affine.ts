/**
 * The inverse of an affine 4×4 matrix (column-major, as glTF stores matrices; last row 0 0 0 1):
 * the inverse of the upper 3×3 by cofactors, and −inverse·translation. Returns a new array of 16
 * numbers; a singular matrix gives non-finite entries.
 */
export function invertAffine(m: ArrayLike<number>): number[] {
  const [a, b, c, d, e, f, g, h, i] = [m[0]!, m[1]!, m[2]!, m[4]!, m[5]!, m[6]!, m[8]!, m[9]!, m[10]!];
  // Columns of the 3×3: (a b c), (d e f), (g h i).
  const A = e * i - f * h;
  const B = f * g - d * i;
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const r = [
    A / det, (c * h - b * i) / det, (b * f - c * e) / det,
    B / det, (a * i - c * g) / det, (c * d - a * f) / det,
    C / det, (b * g - a * h) / det, (a * e - b * d) / det,
  ];
  const [tx, ty, tz] = [m[12]!, m[13]!, m[14]!];
  const out = [r[0]!, r[1]!, r[2]!, 0, r[3]!, r[4]!, r[5]!, 0, r[6]!, r[7]!, r[8]!, 0, 0, 0, 0, 1];
  for (let row = 0; row < 3; row++) out[12 + row] = -(out[row]! * tx + out[4 + row]! * ty + out[8 + row]! * tz);
  return out;
}
