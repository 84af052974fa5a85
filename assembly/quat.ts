// Quaternion blending of one float4 (x, y, z, w) at `a` and `b` into `out`; `out` may alias
// either input. Shared by the sampler and the mixer so both use one definition of nlerp/slerp.

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
 * weight when dot < 0, linear weights when cos >= 1 - 1e-5, result not renormalised.
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
  store<f32>(out, <f32>(s0 * ax + s1 * bx));
  store<f32>(out, <f32>(s0 * ay + s1 * by), 4);
  store<f32>(out, <f32>(s0 * az + s1 * bz), 8);
  store<f32>(out, <f32>(s0 * aw + s1 * bw), 12);
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
  v128.store(out, f32x4.div(q, f32x4.sqrt(dot4(q, q))));
}

// @ts-ignore: decorator
@inline
function normalizeStore4(x: f32, y: f32, z: f32, w: f32, out: usize): void {
  const len = Mathf.sqrt(x * x + y * y + z * z + w * w);
  store<f32>(out, x / len);
  store<f32>(out, y / len, 4);
  store<f32>(out, z / len, 8);
  store<f32>(out, w / len, 12);
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
