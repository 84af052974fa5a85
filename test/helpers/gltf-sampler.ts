import type { Accessor, AnimationChannel } from '@gltf-transform/core';

/**
 * A glTF 2.0 animation channel sampled at `time` seconds, written from the spec (§3.11, Appendix
 * "Interpolation"): times clamp to the first and last key; STEP holds key k; LINEAR lerps, and for
 * rotations slerps as the spec's reference implementation does (shortest arc, lerp-and-normalise
 * when the keys are nearly equal). Returns the output value (3 or 4 numbers).
 */
export function sampleGltfChannel(channel: AnimationChannel, time: number): number[] {
  const sampler = channel.getSampler()!;
  const input = sampler.getInput()!.getArray() as Float32Array;
  const output = decoded(sampler.getOutput()!);
  const size = output.length / input.length;
  const key = (k: number) => Array.from(output.subarray(size * k, size * k + size));
  const n = input.length;
  if (n === 1 || time <= input[0]!) return key(0);
  if (time >= input[n - 1]!) return key(n - 1);
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (input[mid]! <= time) lo = mid;
    else hi = mid;
  }
  if (sampler.getInterpolation() === 'STEP') return key(lo);
  const t = (time - input[lo]!) / (input[hi]! - input[lo]!);
  const a = key(lo);
  const b = key(hi);
  return channel.getTargetPath() === 'rotation' ? slerp(a, b, t) : a.map((x, i) => x + (b[i]! - x) * t);
}

/** An output accessor's values as floats: normalized integers decoded as glTF 2.0 §3.11 (Animations) says. */
function decoded(accessor: Accessor): Float32Array {
  const array = accessor.getArray()!;
  if (array instanceof Float32Array) return array;
  if (!accessor.getNormalized()) throw new Error('animation outputs are float or normalized integers (glTF 2.0 §3.11)');
  const scale = array instanceof Int8Array ? 127 : array instanceof Uint8Array ? 255 : array instanceof Int16Array ? 32767 : 65535;
  return Float32Array.from(array as ArrayLike<number>, (c) => Math.max(c / scale, -1));
}

function slerp(a: number[], b: number[], t: number): number[] {
  let d = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!;
  let s = 1;
  if (d < 0) {
    d = -d;
    s = -1;
  }
  if (d > 0.9995) {
    const q = a.map((x, i) => x + (s * b[i]! - x) * t);
    const len = Math.hypot(...q);
    return q.map((x) => x / len);
  }
  const theta0 = Math.acos(d);
  const sin0 = Math.sin(theta0);
  const wa = Math.sin((1 - t) * theta0) / sin0;
  const wb = (s * Math.sin(t * theta0)) / sin0;
  return a.map((x, i) => wa * x + wb * b[i]!);
}

/**
 * Distance from `time` to the nearest key time of `channel` (seconds). STEP samples jump at key
 * times, where float32 key times and float64 sample times may fall on different sides.
 */
export function distanceToKeyTime(channel: AnimationChannel, time: number): number {
  const input = channel.getSampler()!.getInput()!.getArray() as Float32Array;
  let best = Infinity;
  for (const t of input) best = Math.min(best, Math.abs(t - time));
  return best;
}
