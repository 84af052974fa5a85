// Resampling's last step in wasm: `sampleMany` writes one instance per output key, instance-major
// (every curve's float4 for key k together); a uniform clip wants each curve's keys together.
// Gathering here spares the host a per-float copy loop.
import { copy4 } from './quat';

/**
 * For each j < listCount, copies the float4 of curve `curves[j]` (a u32 list) of `count`
 * consecutive instances at `src` (`curveCount` float4s per instance) to keys `first` …
 * `first + count − 1` of list entry j's key array: `dst + (j · keyCount + first + k) · 16`.
 */
export function gatherCurveKeys(
  src: usize,
  count: u32,
  curveCount: u32,
  curves: usize,
  listCount: u32,
  dst: usize,
  keyCount: u32,
  first: u32,
): void {
  const stride = <usize>curveCount << 4;
  for (let j: u32 = 0; j < listCount; j++) {
    let from = src + (<usize>load<u32>(curves + (<usize>j << 2)) << 4);
    let to = dst + ((<usize>j * <usize>keyCount + <usize>first) << 4);
    for (let k: u32 = 0; k < count; k++) {
      copy4(from, to);
      from += stride;
      to += 16;
    }
  }
}
