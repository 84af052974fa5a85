import type { AafHeader } from './header.js';
import type { AafText } from './text.js';

/**
 * How a scene file's counts are read (spec aaf.md §3.1): `objectCount` counts the root objects
 * (`roots`, the default) or all objects (`total`); a surface's `indexCount` counts indices
 * (`indices`, a multiple of 3, the default) or triangles (`triangles`, then 3 × indexCount u32).
 */
export interface AafSceneVariant {
  readonly objectCount: 'roots' | 'total';
  readonly indexCount: 'indices' | 'triangles';
}

/** The variants in the order a reader tries them; the first is the default the writer writes. */
export const AAF_SCENE_VARIANTS: readonly AafSceneVariant[] = [
  { objectCount: 'roots', indexCount: 'indices' },
  { objectCount: 'total', indexCount: 'indices' },
  { objectCount: 'roots', indexCount: 'triangles' },
  { objectCount: 'total', indexCount: 'triangles' },
];

/** A variant's name in messages and `info`, e.g. `roots/indices`. */
export function sceneVariantLabel(v: AafSceneVariant): string {
  return `${v.objectCount}/${v.indexCount}`;
}

/** Floats per vertex: x y z, u v w, nx ny nz (spec aaf.md §3). */
export const AAF_VERTEX_FLOATS = 9;

/** One surface: vertices and triangle indices (spec aaf.md §3). */
export interface AafSurface {
  /** `9 × vertexCount` floats: x y z, u v w, nx ny nz per vertex. */
  readonly vertices: Float32Array;
  /** Triangle list, 3 per triangle, each `< vertexCount`. */
  readonly indices: Uint32Array;
}

/**
 * One scene object. The file stores a pre-order tree; the document keeps it flat in that order
 * with `parent` indices (a parent always precedes its children, children follow their parent's
 * subtree order).
 */
export interface AafSceneObject {
  readonly name: AafText;
  /** Index of the parent in `objects`, or -1 for a root. */
  readonly parent: number;
  /** Local to the parent: x y z. */
  readonly position: readonly [number, number, number];
  /** Quaternion qx qy qz qw. */
  readonly rotation: readonly [number, number, number, number];
  readonly scale: readonly [number, number, number];
  readonly surfaces: readonly AafSurface[];
}

/** The content of a scene file (spec aaf.md §3), as a writer takes it. */
export interface AafSceneInit {
  readonly header: AafHeader;
  /** Every object in pre-order. */
  readonly objects: readonly AafSceneObject[];
}

/** A scene file as read: its content plus the count variant that fit. */
export interface AafScene extends AafSceneInit {
  readonly variant: AafSceneVariant;
  /** Later variants that read the same bytes too (non-empty means the file is ambiguous). */
  readonly alsoMatches: readonly AafSceneVariant[];
}
