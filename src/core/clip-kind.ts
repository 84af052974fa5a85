import type { AnimClip } from '../anim/index.js';
import { UsageError } from '../errors.js';

/**
 * Which kernel samples a clip, decided by its curves' key encoding: every non-static curve of a
 * clip must share one encoding (static-only clips are `uniform`). `uniform`: Nebula-style keys
 * (assembly/uniform-clip.ts); `unity`: Unity AnimationCurves (assembly/unity-curve.ts).
 */
export type ClipKind = 'uniform' | 'keyed' | 'unity';

/** A clip copied into wasm memory: its kind and its block. */
export interface LoadedClip {
  kind: ClipKind;
  ptr: number;
}

/** @throws UsageError when a clip mixes key encodings */
export function clipKind(clip: AnimClip): ClipKind {
  const kinds = new Set(clip.curves.map((c) => c.keys.encoding).filter((e) => e !== 'static'));
  if (kinds.size > 1) {
    throw new UsageError(`clip "${clip.name}" mixes ${[...kinds].join(' and ')} curves; resample it first`);
  }
  const [kind = 'uniform'] = kinds;
  return kind as ClipKind;
}
