import { type AnimClip, type UniformKeys, withClosingKey } from '../../anim/index.js';
import { CLIP_KEY_COUNT, CLIP_KEY_DURATION, KIND_UNIFORM } from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';
import type { KeyEncoding } from './key-encoding.js';

/**
 * `uniform` keys (Nebula, Meteor, resampled clips) for `uniformSampleSlots`
 * (assembly/uniform-clip.ts): key-major slices of the slots, rotations sign-aligned, plus the
 * closing slice (key 0 again, `withClosingKey`) that a cycling clip's last interval reads.
 */
export const uniformEncoding: KeyEncoding = {
  name: 'uniform',
  kind: KIND_UNIFORM,
  raw: false,
  clipHeader: true,
  write(memory: KernelMemory, clip: AnimClip, layout: ClipLayout): number {
    const S = layout.slots.length;
    const hasKeys = clip.keyCount > 0 && S > 0;
    const n = hasKeys ? clip.keyCount : 1;
    const { ptr, keys } = writeClipBlock(memory, clip, layout, hasKeys ? clip.duration : 0, 16 * (n + 1) * S);
    memory.u32[(ptr + CLIP_KEY_COUNT) >>> 2] = n;
    memory.f64[(ptr + CLIP_KEY_DURATION) >>> 3] = hasKeys ? clip.keyDuration : 1;
    const f32 = memory.f32;
    layout.slots.forEach((curveIndex, j) => {
      const curve = clip.curves[curveIndex]!;
      const src = withClosingKey((curve.keys as UniformKeys).values, n, curve.curveType === 'rotation');
      // Element copies: a subarray per key made loading a 64-joint, 300-key clip take ~27 ms.
      for (let k = 0, at = (keys >>> 2) + 4 * j; k <= n; k++, at += 4 * S) {
        f32[at] = src[4 * k]!;
        f32[at + 1] = src[4 * k + 1]!;
        f32[at + 2] = src[4 * k + 2]!;
        f32[at + 3] = src[4 * k + 3]!;
      }
    });
    return ptr;
  },
};
