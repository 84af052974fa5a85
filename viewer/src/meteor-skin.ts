import { bncSkeleton, readBnc, readSkc } from 'animcore';
import * as THREE from 'three';
import type { NamedBytes } from './open-files.js';

/** Bone influences three.js's skinning shader takes per vertex. */
const INFLUENCES = 4;

/**
 * The static skins of a Meteor set's `.skc` (spec meteor.md §5) as skinned geometries for the
 * resource's skeleton: positions in file space (the `.bnc` T-pose, which is the skeleton's rest
 * pose), `skinIndex` mapped from `.bnc` bone order to joint order (`bncSkeleton`), the four largest
 * weights per vertex renormalised. Empty when the set has no `.skc` or no `.bnc`.
 */
export function meteorSkins(files: readonly NamedBytes[]): THREE.BufferGeometry[] {
  const skc = files.find((f) => f.name.toLowerCase().endsWith('.skc'));
  const bnc = files.find((f) => f.name.toLowerCase().endsWith('.bnc'));
  if (skc === undefined || bnc === undefined) return [];
  const { boneJoints } = bncSkeleton(readBnc(bnc.bytes), false);
  return readSkc(skc.bytes).skins.map((skin) => {
    const n = skin.vertexCount;
    const indices = new Uint16Array(INFLUENCES * n);
    const weights = new Float32Array(INFLUENCES * n);
    for (let v = 0; v < n; v++) {
      const order = Array.from({ length: skin.influences }, (_, k) => k).sort(
        (a, b) => skin.weights[v * skin.influences + b]! - skin.weights[v * skin.influences + a]!,
      );
      const kept = order.slice(0, INFLUENCES);
      const sum = kept.reduce((s, k) => s + skin.weights[v * skin.influences + k]!, 0) || 1;
      kept.forEach((k, slot) => {
        indices[INFLUENCES * v + slot] = boneJoints[skin.joints[v * skin.influences + k]!] ?? 0;
        weights[INFLUENCES * v + slot] = skin.weights[v * skin.influences + k]! / sum;
      });
    }
    const geometry = new THREE.BufferGeometry();
    geometry.name = skin.name;
    geometry.setAttribute('position', new THREE.BufferAttribute(skin.positions, 3));
    geometry.setAttribute('skinIndex', new THREE.BufferAttribute(indices, INFLUENCES));
    geometry.setAttribute('skinWeight', new THREE.BufferAttribute(weights, INFLUENCES));
    geometry.setIndex(new THREE.BufferAttribute(skin.indices, 1));
    geometry.computeVertexNormals();
    return geometry;
  });
}
