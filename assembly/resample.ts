// Resampling in one call: one instance samples a clip at every output key time k · keyDuration
// and each listed curve's float4 goes straight to its place in a curve-major key pool, the layout
// a uniform clip's curves want. One instance means the keyed and Unity cursors step forward key
// by key, and the scratch is a single sample buffer, not a batch of them.
import { copy4 } from './quat';
import { sampleClip } from './sample-clip';

/**
 * Samples clip block `clip` of kind `kind` (flags as `sampleClip`) at times k · keyDuration for
 * k < keyCount into the scratch sample buffer (`samples` float4s, `counts` u8s, `cursors`, zeroed
 * by the host), and copies the float4 of curve `curves[j]` (a u32 list of `listCount` entries) to
 * `dst + (j · keyCount + k) · 16`.
 */
export function resampleKeys(
  clip: usize,
  kind: u32,
  flags: u32,
  keyCount: u32,
  keyDuration: f64,
  samples: usize,
  counts: usize,
  cursors: usize,
  curves: usize,
  listCount: u32,
  dst: usize,
): void {
  const stride = <usize>keyCount << 4;
  for (let k: u32 = 0; k < keyCount; k++) {
    sampleClip(clip, kind, <f64>k * keyDuration, samples, counts, cursors, flags, 1);
    let to = dst + (<usize>k << 4);
    for (let j: u32 = 0; j < listCount; j++) {
      copy4(samples + (<usize>load<u32>(curves + (<usize>j << 2)) << 4), to);
      to += stride;
    }
  }
}
