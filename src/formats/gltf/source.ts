import type { AnimResource, Skeleton } from '../../anim/index.js';

/**
 * A glTF file as `openGltf` read it, for writers that keep everything but the animations
 * (`rewriteGltf`): its JSON document (checked by `checkDocument`; never modified), every buffer's
 * bytes, the external images found, and the skeleton read from its nodes (node i is joint i).
 */
export interface GltfSource {
  readonly container: 'glb' | 'gltf';
  readonly json: Record<string, unknown>;
  /** Each top-level collection (`accessors`, `nodes` …) as `checkDocument` returns it, `[]` when absent. */
  readonly collections: { readonly [name: string]: readonly Record<string, unknown>[] };
  /** Every buffer's bytes, in buffer order (`readBuffers`). */
  readonly buffers: readonly Uint8Array[];
  /** Bytes of the external images found, by `uri` as the file writes it. */
  readonly images: ReadonlyMap<string, Uint8Array>;
  readonly skeleton: Skeleton;
}

const sources = new WeakMap<AnimResource, GltfSource>();

/** Records the file `resource` was read from (`openGltf`). */
export function keepGltfSource(resource: AnimResource, source: GltfSource): void {
  sources.set(resource, source);
}

/**
 * The glTF file `openGltf` read `resource` from, or undefined for resources of other origins
 * (and for resources derived from it, such as a baked sequence: pass the input's).
 */
export function gltfSource(resource: AnimResource): GltfSource | undefined {
  return sources.get(resource);
}
