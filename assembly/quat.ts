// Quaternion blending of one float4 (x, y, z, w) at `a` and `b` into `out`; `out` may alias
// either input. Shared by the sampler and the mixer so both use one definition of nlerp/slerp.
//
// Zero-length rotations (issue 13 item 4): a blended rotation shorter than 1e-6 has no direction
// worth keeping (rounding noise), so it becomes identity, as Unity's `Quaternion.Normalize` does
// below its epsilon and as the MRTK corrected mode does (spec mrtk.md §8, twin `QUAT_MIN_LENGTH`).
// A zero key therefore samples as identity at its own time and as its neighbour in between.
// Components beyond ~1.8e19 overflow |q|² in f32; such a quaternion is scaled down before it is
// normalised instead of collapsing to zero. Both builds take the same branches with the same
// f32 sums, so they agree bit for bit.

/** |q|² below this (|q| < 1e-6) is a zero rotation. Twin: `QUAT_MIN_LENGTH` in src/reference. */
const MIN_LENGTH_SQ: f32 = 1e-12;

/** Normalised lerp along the shortest arc: b is negated when dot(a, b) < 0. */
// @ts-ignore: decorator
@inline
export function nlerpShortest(a: usize, b: usize, w: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const va = v128.load(a);
    let vb = v128.load(b);
    vb = v128.xor(vb, v128.and(dot4(va, vb), f32x4.splat(-0.0)));
    normalizeStore(f32x4.add(va, f32x4.mul(f32x4.sub(vb, va), f32x4.splat(w))), out);
  } else {
    const ax = load<f32>(a), ay = load<f32>(a, 4), az = load<f32>(a, 8), aw = load<f32>(a, 12);
    let bx = load<f32>(b), by = load<f32>(b, 4), bz = load<f32>(b, 8), bw = load<f32>(b, 12);
    // (xx + yy) + (zz + ww) in f32, the SIMD branch's order, so both builds pick the same side.
    if (ax * bx + ay * by + (az * bz + aw * bw) < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    normalizeStore4(ax + (bx - ax) * w, ay + (by - ay) * w, az + (bz - az) * w, aw + (bw - aw) * w, out);
  }
}

/** Normalised lerp with no sign test: for keys sign-aligned at load time. */
// @ts-ignore: decorator
@inline
export function nlerpAligned(a: usize, b: usize, w: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const va = v128.load(a);
    normalizeStore(f32x4.add(va, f32x4.mul(f32x4.sub(v128.load(b), va), f32x4.splat(w))), out);
  } else {
    const ax = load<f32>(a), ay = load<f32>(a, 4), az = load<f32>(a, 8), aw = load<f32>(a, 12);
    normalizeStore4(
      ax + (load<f32>(b) - ax) * w,
      ay + (load<f32>(b, 4) - ay) * w,
      az + (load<f32>(b, 8) - az) * w,
      aw + (load<f32>(b, 12) - aw) * w,
      out,
    );
  }
}

/**
 * Slerp as DirectXMath `XMQuaternionSlerpV` (spec nebula.md §3.4): shortest arc by negating b's
 * weight when dot < 0, linear weights when cos >= 1 - 1e-5, result not renormalised, except that
 * a result shorter than 1e-6 (only reached from zero keys) is identity, as under nlerp.
 * Computed in f64 so both builds and the TypeScript reference agree closely.
 */
export function slerpShortest(a: usize, b: usize, w: f32, out: usize): void {
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8), aw = <f64>load<f32>(a, 12);
  const bx = <f64>load<f32>(b), by = <f64>load<f32>(b, 4), bz = <f64>load<f32>(b, 8), bw = <f64>load<f32>(b, 12);
  const t = <f64>w;
  let c = ax * bx + ay * by + az * bz + aw * bw;
  let sign: f64 = 1;
  if (c < 0) {
    c = -c;
    sign = -1;
  }
  let s0: f64, s1: f64;
  if (c < 1 - 1e-5) {
    const omega = Math.atan2(Math.sqrt(1 - c * c), c);
    const so = Math.sin(omega);
    s0 = Math.sin((1 - t) * omega) / so;
    s1 = (sign * Math.sin(t * omega)) / so;
  } else {
    s0 = 1 - t;
    s1 = sign * t;
  }
  const x = s0 * ax + s1 * bx, y = s0 * ay + s1 * by, z = s0 * az + s1 * bz, qw = s0 * aw + s1 * bw;
  if (x * x + y * y + z * z + qw * qw < <f64>MIN_LENGTH_SQ) {
    storeIdentity(out);
    return;
  }
  store<f32>(out, <f32>x);
  store<f32>(out, <f32>y, 4);
  store<f32>(out, <f32>z, 8);
  store<f32>(out, <f32>qw, 12);
}

/** The float4 at `src` normalised into `out` (`out` may be `src`); a zero rotation becomes identity, as under nlerp. */
// @ts-ignore: decorator
@inline
export function normalize4(src: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) normalizeStore(v128.load(src), out);
  else normalizeStore4(load<f32>(src), load<f32>(src, 4), load<f32>(src, 8), load<f32>(src, 12), out);
}

/** dot(a, b) in all four lanes. */
// @ts-ignore: decorator
@inline
function dot4(a: v128, b: v128): v128 {
  let d = f32x4.mul(a, b);
  d = f32x4.add(d, v128.shuffle<f32>(d, d, 1, 0, 3, 2));
  return f32x4.add(d, v128.shuffle<f32>(d, d, 2, 3, 0, 1));
}

// @ts-ignore: decorator
@inline
function normalizeStore(q: v128, out: usize): void {
  const d = dot4(q, q);
  const len2 = f32x4.extract_lane(d, 0);
  if (len2 >= MIN_LENGTH_SQ && len2 <= F32.MAX_VALUE) v128.store(out, f32x4.div(q, f32x4.sqrt(d)));
  else normalizeOutOfRange(f32x4.extract_lane(q, 0), f32x4.extract_lane(q, 1), f32x4.extract_lane(q, 2), f32x4.extract_lane(q, 3), len2, out);
}

// @ts-ignore: decorator
@inline
function normalizeStore4(x: f32, y: f32, z: f32, w: f32, out: usize): void {
  // (xx + yy) + (zz + ww): the order of dot4, so both builds round alike.
  const len2 = x * x + y * y + (z * z + w * w);
  if (len2 >= MIN_LENGTH_SQ && len2 <= F32.MAX_VALUE) {
    const len = Mathf.sqrt(len2);
    store<f32>(out, x / len);
    store<f32>(out, y / len, 4);
    store<f32>(out, z / len, 8);
    store<f32>(out, w / len, 12);
  } else {
    normalizeOutOfRange(x, y, z, w, len2, out);
  }
}

/**
 * The rare cases of normalising (x, y, z, w) with |q|² = `len2`: a zero rotation (len2 < 1e-12)
 * becomes identity; an overflowed len2 (+Inf from finite components) is redone after dividing by
 * the largest magnitude; NaN stays NaN. Kept out of line: the hot loops never come here with
 * real data.
 */
function normalizeOutOfRange(x: f32, y: f32, z: f32, w: f32, len2: f32, out: usize): void {
  if (len2 < MIN_LENGTH_SQ) {
    storeIdentity(out);
    return;
  }
  const m = max(max(abs(x), abs(y)), max(abs(z), abs(w)));
  const sx = x / m, sy = y / m, sz = z / m, sw = w / m;
  const len = Mathf.sqrt(sx * sx + sy * sy + (sz * sz + sw * sw));
  store<f32>(out, sx / len);
  store<f32>(out, sy / len, 4);
  store<f32>(out, sz / len, 8);
  store<f32>(out, sw / len, 12);
}

// @ts-ignore: decorator
@inline
function storeIdentity(out: usize): void {
  store<f32>(out, 0);
  store<f32>(out, 0, 4);
  store<f32>(out, 0, 8);
  store<f32>(out, 1, 12);
}

/** out = a + (b - a) * w on all four lanes. */
// @ts-ignore: decorator
@inline
export function lerp4(a: usize, b: usize, w: f32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    const va = v128.load(a);
    v128.store(out, f32x4.add(va, f32x4.mul(f32x4.sub(v128.load(b), va), f32x4.splat(w))));
  } else {
    const ax = load<f32>(a), ay = load<f32>(a, 4), az = load<f32>(a, 8), aw = load<f32>(a, 12);
    store<f32>(out, ax + (load<f32>(b) - ax) * w);
    store<f32>(out, ay + (load<f32>(b, 4) - ay) * w, 4);
    store<f32>(out, az + (load<f32>(b, 8) - az) * w, 8);
    store<f32>(out, aw + (load<f32>(b, 12) - aw) * w, 12);
  }
}

/** Copies one float4. */
// @ts-ignore: decorator
@inline
export function copy4(src: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    v128.store(out, v128.load(src));
  } else {
    store<u64>(out, load<u64>(src));
    store<u64>(out, load<u64>(src, 8), 8);
  }
}
