// Resampling in one call: one instance samples a clip at every output key time k · keyDuration
// and each listed curve's sample goes straight to its place in a curve-major key pool, the layout
// a uniform clip's curves want: as a float4, or packed as x y z (a glTF writer's VEC3 output, so
// that it copies the pool's bytes as they are; issue 15, gltf-resample). One instance means the
// keyed and Unity cursors step forward key by key. The scratch holds RESAMPLE_BATCH sample
// buffers: that many consecutive key times are sampled, then each curve's keys are copied out as
// one run (key by key, the copies had gone to a different cache line of the pool for every curve).
import { RESAMPLE_BATCH } from './layout';
import { copy4 } from './quat';
import { sampleClip } from './sample-clip';

const BATCH: u32 = RESAMPLE_BATCH;

/**
 * Samples clip block `clip` of kind `kind` (flags as `sampleClip`) at times k · keyDuration for
 * k < keyCount into the scratch sample buffers (RESAMPLE_BATCH of `sampleBytes` float4 bytes each
 * from `samples`, one `counts` of u8s, `cursors`, zeroed by the host), and copies listed curve j's
 * samples to `dst`: `curves` holds `listCount` entries of three u32s {slot, byte offset of the
 * curve's key 0 from `dst`, width}; width 4 writes key k's float4 at offset + 16k, width 3 its
 * x y z (bits as sampled) at offset + 12k. The entries are scratch: they are rewritten here.
 */
export function resampleKeys(
  clip: usize,
  kind: u32,
  flags: u32,
  keyCount: u32,
  keyDuration: f64,
  samples: usize,
  sampleBytes: usize,
  counts: usize,
  cursors: usize,
  curves: usize,
  listCount: u32,
  dst: usize,
): void {
  // Each entry becomes {its sample's address in the first buffer, the address of its key 0, bytes
  // per key}: the copy loop then has no branch on the width.
  const end = curves + <usize>listCount * 12;
  for (let e = curves; e < end; e += 12) {
    store<u32>(e, samples + (<usize>load<u32>(e) << 4));
    store<u32>(e, dst + <usize>load<u32>(e, 4), 4);
    store<u32>(e, load<u32>(e, 8) << 2, 8);
  }
  for (let k: u32 = 0; k < keyCount; k += BATCH) {
    const batch = min<u32>(BATCH, keyCount - k);
    for (let b: u32 = 0; b < batch; b++) sampleClip(clip, kind, <f64>(k + b) * keyDuration, samples + <usize>b * sampleBytes, counts, cursors, flags, 1);
    if (k + BATCH < keyCount) {
      // Whole float4s: an x y z key's fourth float lands where the curve's next key goes, which
      // that key then overwrites (each curve's keys are written in key order); only the last key
      // of all needs its width.
      for (let e = curves; e < end; e += 12) {
        const from = load<u32>(e);
        const step = load<u32>(e, 8);
        const to = load<u32>(e, 4) + k * step;
        for (let b: u32 = 0; b < BATCH; b++) copy4(from + <usize>b * sampleBytes, to + <usize>(b * step));
      }
    } else {
      for (let e = curves; e < end; e += 12) {
        const from = load<u32>(e);
        const step = load<u32>(e, 8);
        const to = load<u32>(e, 4) + k * step;
        for (let b: u32 = 0; b + 1 < batch; b++) copy4(from + <usize>b * sampleBytes, to + <usize>(b * step));
        const last = from + <usize>(batch - 1) * sampleBytes;
        const at = to + <usize>((batch - 1) * step);
        if (step == 16) copy4(last, at);
        else {
          store<u64>(at, load<u64>(last));
          store<u32>(at, load<u32>(last, 8), 8);
        }
      }
    }
  }
}
