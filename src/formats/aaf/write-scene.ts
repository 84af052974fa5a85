import { UsageError } from '../../errors.js';
import { ByteWriter } from '../binary.js';
import { writeAafHeader } from './header.js';
import { AAF_SCENE_VARIANTS, AAF_VERTEX_FLOATS, type AafSceneInit, type AafSceneVariant } from './scene.js';
import { writeAafText } from './text.js';
import { writeU16Count, writeU32Count } from './write-count.js';

/**
 * Writes an ABTOMAT AAF scene file (spec aaf.md §3) in `doc.variant` (default roots/indices,
 * §3.1): the pre-order tree with child counts derived from the `parent` indices. Files read by
 * `readAafScene` are written back byte for byte in the variant they were read in.
 * @throws UsageError when `objects` is not in pre-order (each parent must be the previous object
 *   or one of its ancestors), vertices are not 9 floats each, an index is out of range or the
 *   index list is not whole triangles, or a count does not fit its field
 */
export function writeAafScene(doc: AafSceneInit & { readonly variant?: AafSceneVariant }): Uint8Array {
  const variant = doc.variant ?? AAF_SCENE_VARIANTS[0]!;
  const childCounts = preOrderChildCounts(doc);
  const w = new ByteWriter();
  writeAafHeader(w, doc.header);
  const roots = doc.objects.filter((o) => o.parent === -1).length;
  writeU16Count(w, variant.objectCount === 'roots' ? roots : doc.objects.length, 'object count');
  doc.objects.forEach((o, i) => {
    writeU16Count(w, childCounts[i]!, `object ${i} child count`);
    writeAafText(w, o.name, `object ${i} name`);
    writeU16Count(w, o.surfaces.length, `object ${i} surface count`);
    w.f32Array(o.position);
    w.f32Array(o.rotation);
    w.f32Array(o.scale);
    o.surfaces.forEach((s, j) => {
      const what = `object ${i} surface ${j}`;
      const vertexCount = s.vertices.length / AAF_VERTEX_FLOATS;
      if (!Number.isInteger(vertexCount)) throw new UsageError(`AAF: ${what}: ${s.vertices.length} floats are not 9 per vertex`);
      if (s.indices.length % 3 !== 0) throw new UsageError(`AAF: ${what}: ${s.indices.length} indices are not whole triangles`);
      writeU32Count(w, vertexCount, `${what} vertex count`);
      writeU32Count(w, variant.indexCount === 'indices' ? s.indices.length : s.indices.length / 3, `${what} index count`);
      w.f32Array(s.vertices);
      for (const index of s.indices) {
        if (index >= vertexCount) throw new UsageError(`AAF: ${what}: index ${index} is not below the vertex count ${vertexCount}`);
        w.u32(index);
      }
    });
  });
  return w.finish();
}

/** Child counts of a flat pre-order object list. @throws UsageError when the list is not in pre-order */
function preOrderChildCounts(doc: AafSceneInit): number[] {
  const counts = doc.objects.map(() => 0);
  const path: number[] = [];
  doc.objects.forEach((o, i) => {
    while (path.length > 0 && path[path.length - 1] !== o.parent) path.pop();
    if (o.parent !== -1 && path.length === 0) {
      throw new UsageError(`AAF: object ${i} has parent ${o.parent}, which is not the previous object or one of its ancestors (pre-order)`);
    }
    if (o.parent !== -1) counts[o.parent]!++;
    path.push(i);
  });
  return counts;
}
