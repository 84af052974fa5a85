import type { AnimClip, CurveKeys } from '../../anim/index.js';
import type { ClipLayout } from '../clip-layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import type { QuantizedCurve } from './quantize.js';

/**
 * The key encodings a kernel samples: every `CurveKeys.encoding` but `static`, and `quantized`,
 * which the core chooses at load (`compression`) for uniform curves.
 */
export type EncodingName = Exclude<CurveKeys['encoding'], 'static'> | 'quantized';

/** What a load decided beyond the clip itself. */
export interface EncodingContext {
  /** Per curve, its quantized keys when the load compresses it (`quantizeClip`), else null; null without `compression`. */
  readonly quantized: readonly (QuantizedCurve | null)[] | null;
}

/**
 * One key encoding as the core sees it: how its curves go into wasm memory and which kernel
 * samples them. Adding an encoding is one module of this shape, its AssemblyScript sampler (and
 * its case in assembly/sample-clip.ts), its twin in src/reference/, and one row of `KEY_ENCODINGS`.
 * Constant curves (static or inactive) hold their model rest value (`restValue`, src/anim) in every
 * encoding.
 */
export interface KeyEncoding {
  readonly name: EncodingName;
  /** The kernel kind that samples its blocks (KIND_* of assembly/layout.ts). */
  readonly kind: number;
  /** Whether its kernel offers `rotation: 'raw'` (the component-wise rotations of MRTK). */
  readonly raw: boolean;
  /**
   * Whether its blocks carry the clip header (assembly/layout.ts CLIP_*), so that a clip may mix it
   * with other such encodings (one block per encoding under a KIND_MIXED header).
   */
  readonly clipHeader: boolean;
  /**
   * Writes a block for `clip` and returns its pointer. Clip-header encodings write the slots of
   * `layout` (curves of this encoding) and the shared tables `layout` lists; the others write the
   * whole clip and ignore `layout`. The clip is not modified.
   * @throws UsageError when the clip holds curves the encoding cannot write
   */
  write(memory: KernelMemory, clip: AnimClip, layout: ClipLayout, context: EncodingContext): number;
}
