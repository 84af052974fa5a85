import type { AnimClip } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import { CLIP_KEY_COUNT, KIND_MIXED, MIXED_BLOCK, MIXED_KIND, MIXED_RECORD_SIZE } from '../../../assembly/layout.js';
import { clipLayout, isSlot, rotationsLast } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';
import type { EncodingContext, EncodingName, KeyEncoding } from './key-encoding.js';
import { cubicEncoding } from './cubic.js';
import { keyedEncoding } from './keyed.js';
import { type CompressionOptions, quantizeClip } from './quantize.js';
import { quantizedEncoding } from './quantized.js';
import { uniformEncoding } from './uniform.js';
import { unityEncoding } from './unity.js';

export type { EncodingContext, EncodingName, KeyEncoding } from './key-encoding.js';
export { type CompressionOptions, DEFAULT_COMPRESSION_TOLERANCE, quantizeClip, type QuantizedCurve } from './quantize.js';

/** Every key encoding the core samples, by `CurveKeys.encoding` (and `quantized`, chosen at load): the one table. */
export const KEY_ENCODINGS: Readonly<Record<EncodingName, KeyEncoding>> = {
  uniform: uniformEncoding,
  keyed: keyedEncoding,
  unity: unityEncoding,
  cubic: cubicEncoding,
  quantized: quantizedEncoding,
};

/** A clip copied into wasm memory: the kernel kind and block that sample it, and what to free. */
export interface LoadedClip {
  /** KIND_* of assembly/layout.ts. */
  kind: number;
  /** The encoding's name, or `mixed` (for messages). */
  name: EncodingName | 'mixed';
  ptr: number;
  /** Every block of the clip (a mixed clip has one per encoding besides its header). */
  blocks: number[];
  /** Whether `rotation: 'raw'` applies: Unity-curve clips, and clips with nothing to sample. */
  raw: boolean;
  /** Whether the block at `ptr` starts with the clip header (CLIP_*): every kind but Unity curves. */
  clipHeader: boolean;
}

/**
 * Copies `clip` into wasm memory: its animated curves' encoding (looked up in `KEY_ENCODINGS`)
 * writes the block; with `compression`, the uniform T/R/S curves that `quantizeClip` holds within
 * its bounds are `quantized` instead. A clip whose curves use several clip-header encodings gets
 * one block per encoding (its slots only) under a KIND_MIXED header holding the shared tables; a
 * clip of static curves only is a uniform block without slots. The clip is not modified.
 * @throws UsageError when a clip mixes an encoding without the clip header (Unity curves) with
 *   others, or for compression bounds that are not finite numbers > 0
 */
export function writeClip(memory: KernelMemory, clip: AnimClip, compression?: CompressionOptions): LoadedClip {
  const context: EncodingContext = { quantized: compression ? quantizeClip(clip, compression) : null };
  // Loops, not callbacks made per clip (V8 compiled those again for most clips loaded: issue 15).
  const encodings: (EncodingName | 'static')[] = [];
  for (let i = 0; i < clip.curves.length; i++) encodings.push(context.quantized?.[i] ? 'quantized' : clip.curves[i]!.keys.encoding);
  const names = new Set<EncodingName>();
  for (const e of encodings) if (e !== 'static') names.add(e);
  const used = [...names].map((e) => KEY_ENCODINGS[e]);
  const layout = clipLayout(clip);
  if (used.length <= 1) {
    const encoding = used[0] ?? uniformEncoding;
    const ptr = encoding.write(memory, clip, layout, context);
    return { kind: encoding.kind, name: encoding.name, ptr, blocks: [ptr], raw: used.length === 0 || encoding.raw, clipHeader: encoding.clipHeader };
  }
  const foreign = used.find((e) => !e.clipHeader);
  if (foreign !== undefined) {
    throw new UsageError(`clip "${clip.name}" mixes ${used.map((e) => e.name).join(' and ')} curves; ${foreign.name} curves cannot share a clip (resample it first)`);
  }
  const types = clip.curves.map((c) => c.curveType);
  const blocks: number[] = [];
  try {
    const parts = used.map((encoding) => {
      const { order, linearCount } = rotationsLast(types, types.map((_, i) => isSlot(clip, i) && encodings[i] === encoding.name));
      const ptr = encoding.write(memory, clip, { slots: order, linearCount, constant: [], velocity: [] }, context);
      blocks.push(ptr);
      return { kind: encoding.kind, ptr };
    });
    const { ptr, keys } = writeClipBlock(memory, clip, { ...layout, slots: [], linearCount: 0 }, clip.duration, MIXED_RECORD_SIZE * parts.length);
    blocks.push(ptr);
    const u32 = memory.u32;
    u32[(ptr + CLIP_KEY_COUNT) >>> 2] = parts.length;
    parts.forEach((part, i) => {
      u32[(keys + MIXED_RECORD_SIZE * i + MIXED_KIND) >>> 2] = part.kind;
      u32[(keys + MIXED_RECORD_SIZE * i + MIXED_BLOCK) >>> 2] = part.ptr;
    });
    return { kind: KIND_MIXED, name: 'mixed', ptr, blocks, raw: false, clipHeader: true };
  } catch (e) {
    for (const b of blocks) memory.free(b);
    throw e;
  }
}
