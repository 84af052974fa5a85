import type { JsonObject } from './json-fields.js';

/**
 * Where a glTF document refers to accessors outside its animations (glTF 2.0 §3.7, §3.8): primitive
 * attributes, indices and morph targets, skins' inverse bind matrices, and the attributes of
 * `EXT_mesh_gpu_instancing` (the one extension animcore reads that refers to accessors). The one
 * list of them, for readers and writers that separate animation data from the rest.
 */

/** Accessors only animation samplers use (inputs and outputs no mesh, skin or instancing refers to). */
export function animationOnlyAccessors(json: JsonObject): Set<number> {
  const out = new Set<number>();
  for (const animation of (json.animations as JsonObject[] | undefined) ?? []) {
    for (const s of animation.samplers as JsonObject[]) out.add(s.input as number).add(s.output as number);
  }
  if (out.size === 0) return out;
  renumberAccessorRefs(json, (i) => {
    out.delete(i);
    return i;
  });
  return out;
}

/**
 * A shallow copy of `json` whose meshes, skins and nodes refer to accessor `to(i)` instead of `i`
 * (the objects on the way copied, the others shared). `to` sees every reference, in document order.
 */
export function renumberAccessorRefs(json: JsonObject, to: (i: number) => number): JsonObject {
  const map = (o: JsonObject) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, to(v as number)]));
  const out: JsonObject = { ...json };
  if (json.meshes !== undefined) {
    out.meshes = (json.meshes as JsonObject[]).map((mesh) => ({
      ...mesh,
      primitives: (mesh.primitives as JsonObject[]).map((p) => {
        const copy: JsonObject = { ...p, attributes: map(p.attributes as JsonObject) };
        if (p.indices !== undefined) copy.indices = to(p.indices as number);
        if (p.targets !== undefined) copy.targets = (p.targets as JsonObject[]).map(map);
        return copy;
      }),
    }));
  }
  if (json.skins !== undefined) out.skins = (json.skins as JsonObject[]).map((s) => (s.inverseBindMatrices === undefined ? s : { ...s, inverseBindMatrices: to(s.inverseBindMatrices as number) }));
  if (json.nodes !== undefined) {
    out.nodes = (json.nodes as JsonObject[]).map((n) => {
      const extensions = n.extensions as JsonObject | undefined;
      const instancing = extensions?.EXT_mesh_gpu_instancing as JsonObject | undefined;
      const attributes = instancing?.attributes as JsonObject | undefined;
      if (attributes === undefined) return n;
      const numeric = Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, typeof v === 'number' ? to(v) : v]));
      return { ...n, extensions: { ...extensions, EXT_mesh_gpu_instancing: { ...instancing, attributes: numeric } } };
    });
  }
  return out;
}
