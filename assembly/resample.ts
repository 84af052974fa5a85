// Resampling in one call: one instance samples a clip at every output key time k · keyDuration
// and each listed curve's sample goes straight to its place in a curve-major key pool, the layout
// a uniform clip's curves want: as a float4, or packed as x y z (a glTF writer's VEC3 output, so
// that it copies the pool's bytes as they are; issue 15, gltf-resample). One instance means the
// keyed and Unity cursors step forward key by key, and the scratch is a single sample buffer, not
// a batch of them.
import { copy4 } from './quat';
import { sampleClip } from './sample-clip';

/**
 * Samples clip block `clip` of kind `kind` (flags as `sampleClip`) at times k · keyDuration for
 * k < keyCount into the scratch sample buffer (`samples` float4s, `counts` u8s, `cursors`, zeroed
 * by the host), and copies listed curve j's sample to `dst`: `curves` holds `listCount` entries of
 * three u32s {slot, byte offset of the curve's key 0 from `dst`, width}; width 4 writes the float4
 * at offset + 16k, width 3 its x y z (bits as sampled) at offset + 12k.
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
  for (let k: u32 = 0; k < keyCount; k++) {
    sampleClip(clip, kind, <f64>k * keyDuration, samples, counts, cursors, flags, 1);
    for (let j: u32 = 0; j < listCount; j++) {
      const entry = curves + <usize>j * 12;
      const from = samples + (<usize>load<u32>(entry) << 4);
      const width = load<u32>(entry, 8);
      const to = dst + <usize>load<u32>(entry, 4) + <usize>k * (<usize>width << 2);
      if (width == 4) copy4(from, to);
      else {
        store<u64>(to, load<u64>(from));
        store<u32>(to, load<u32>(from, 8), 8);
      }
    }
  }
}
