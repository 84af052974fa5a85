import { ByteReader } from '../binary.js';
import { readFittingVariant } from './fitting-variant.js';
import { readAafHeader } from './header.js';
import {
  AAF_SCENE_VARIANTS,
  AAF_VERTEX_FLOATS,
  type AafScene,
  type AafSceneObject,
  type AafSceneVariant,
  type AafSurface,
  sceneVariantLabel,
} from './scene.js';
import { readAafText } from './text.js';

/** The `format` of AAF scene resources and of their `FormatError`s. */
export const AAF_SCENE_FORMAT = 'aaf-scene';

/** Options of `readAafScene`. */
export interface ReadAafSceneOptions {
  /** Read this variant only instead of trying all four (spec aaf.md §3.1). */
  variant?: AafSceneVariant;
}

/** Smallest object: child count, name length, surface count (u16 each) and 10 floats of transform. */
const MIN_OBJECT_BYTES = 46;
/** Smallest surface: the u32 vertex and index counts. */
const MIN_SURFACE_BYTES = 8;

/**
 * Reads an ABTOMAT AAF scene file (spec aaf.md §3): the header, the u16 object count and the
 * pre-order object tree with each object's surfaces. The count variants of §3.1 are tried in
 * order and the first that consumes the file exactly is taken (`variant`; `alsoMatches` lists
 * later variants that fit too). The tree is read without recursion, so deep trees cannot
 * overflow the stack.
 * @throws FormatError with the byte offset: `truncated`, `bad-version`, `bad-count` (a count
 *   promising more than the file holds, an index count that is not a multiple of 3, children
 *   beyond a `total` object count), `bad-index` (an index ≥ the surface's vertex count),
 *   `bad-value` (a transform or vertex value that is not finite or beyond ±1e38; value-range.ts),
 *   `trailing-bytes`; when no variant fits, one error naming where each stopped
 */
export function readAafScene(bytes: Uint8Array, options: ReadAafSceneOptions = {}): AafScene {
  const r = new ByteReader(bytes, AAF_SCENE_FORMAT);
  const header = readAafHeader(r);
  const variants = options.variant ? [options.variant] : AAF_SCENE_VARIANTS;
  const match = readFittingVariant(
    bytes,
    AAF_SCENE_FORMAT,
    r.offset,
    variants.map((variant) => ({ variant, parse: (v: ByteReader) => readObjects(v, variant) })),
    sceneVariantLabel,
  );
  return { header, objects: match.value, variant: match.variant, alsoMatches: match.alsoMatches };
}

function readObjects(r: ByteReader, variant: AafSceneVariant): AafSceneObject[] {
  const countAt = r.offset;
  const count = r.u16('object count');
  r.needItems(count, MIN_OBJECT_BYTES, 'objects');
  const objects: AafSceneObject[] = [];
  /** Open subtrees: the object's index and how many of its children are still to come. */
  const open: { index: number; childrenLeft: number }[] = [];
  let rootsLeft = count;
  for (;;) {
    while (open.length > 0 && open[open.length - 1]!.childrenLeft === 0) open.pop();
    const top = open[open.length - 1];
    let parent = -1;
    if (top) {
      parent = top.index;
      top.childrenLeft--;
      if (variant.objectCount === 'total' && objects.length === count) {
        r.fail('bad-count', `object ${top.index} announces more children than the total object count ${count}`, countAt);
      }
    } else if (variant.objectCount === 'roots') {
      if (rootsLeft === 0) break;
      rootsLeft--;
    } else if (objects.length === count) {
      break;
    }
    const { object, childCount } = readObject(r, variant, objects.length, parent);
    objects.push(object);
    open.push({ index: objects.length - 1, childrenLeft: childCount });
  }
  return objects;
}

function readObject(
  r: ByteReader,
  variant: AafSceneVariant,
  i: number,
  parent: number,
): { object: AafSceneObject; childCount: number } {
  const childCount = r.u16(`object ${i} child count`);
  r.needItems(childCount, MIN_OBJECT_BYTES, `object ${i} children`);
  const name = readAafText(r, `object ${i} name`);
  const surfaceCount = r.u16(`object ${i} surface count`);
  const f = (what: string) => r.value(`object ${i} ${what}`);
  const position = [f('position x'), f('position y'), f('position z')] as const;
  const rotation = [f('rotation qx'), f('rotation qy'), f('rotation qz'), f('rotation qw')] as const;
  const scale = [f('scale x'), f('scale y'), f('scale z')] as const;
  r.needItems(surfaceCount, MIN_SURFACE_BYTES, `object ${i} surfaces`);
  const surfaces: AafSurface[] = [];
  for (let s = 0; s < surfaceCount; s++) surfaces.push(readSurface(r, variant, `object ${i} surface ${s}`));
  return { object: { name, parent, position, rotation, scale, surfaces }, childCount };
}

function readSurface(r: ByteReader, variant: AafSceneVariant, what: string): AafSurface {
  const vertexCount = r.u32(`${what} vertex count`);
  const countAt = r.offset;
  const indexCount = r.u32(`${what} index count`);
  if (variant.indexCount === 'indices' && indexCount % 3 !== 0) {
    r.fail('bad-count', `${what} index count ${indexCount} is not a multiple of 3`, countAt);
  }
  const n = variant.indexCount === 'indices' ? indexCount : 3 * indexCount;
  r.needItems(vertexCount, 4 * AAF_VERTEX_FLOATS, `${what} vertices`);
  const vertices = r.values(AAF_VERTEX_FLOATS * vertexCount, `${what} vertices`);
  r.needItems(n, 4, `${what} indices`);
  const indices = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const at = r.offset;
    const index = r.u32(`${what} index ${k}`);
    if (index >= vertexCount) r.fail('bad-index', `${what} index ${k} is ${index}, not below the vertex count ${vertexCount}`, at);
    indices[k] = index;
  }
  return { vertices, indices };
}
