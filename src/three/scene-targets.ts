import type { Object3D } from 'three';
import type { GltfLoaderResource } from './from-gltf-loader.js';

/** What a curve writes: a joint's position, quaternion or scale, or one morph target influence. */
export type SceneTarget = { object: Object3D; kind: 'position' | 'quaternion' | 'scale' } | { object: Object3D & { morphTargetInfluences: number[] }; kind: 'morph'; index: number };

const KINDS = { translation: 'position', rotation: 'quaternion', scale: 'scale' } as const;

/**
 * Per curve target (joint and property), what it writes in the scene of `source` (`objects[j]` for
 * skeleton joint j): translation, rotation and scale of the joint's object, `weights/<k>` its
 * morph target influence k; undefined when the object or the property is not there.
 */
export function sceneTargets(source: GltfLoaderResource, targets: readonly { joint: string | null; property: string }[]): (SceneTarget | undefined)[] {
  const skeleton = source.resource.skeleton!;
  return targets.map((target): SceneTarget | undefined => {
    const object = source.objects[skeleton.indexOf(target.joint ?? '')];
    if (object === undefined) return undefined;
    const property = target.property;
    if (property in KINDS) return { object, kind: KINDS[property as keyof typeof KINDS] };
    const morph = /^weights\/(\d+)$/.exec(property);
    const influences = (object as Object3D & { morphTargetInfluences?: number[] }).morphTargetInfluences;
    return morph && influences ? { object: object as Object3D & { morphTargetInfluences: number[] }, kind: 'morph', index: Number(morph[1]) } : undefined;
  });
}

/**
 * Writes samples (float4 per curve) into the scene: every target whose count is not 0 (`counts`
 * null: every target). three.js composes the world matrices as usual afterwards.
 */
export function poseScene(targets: readonly (SceneTarget | undefined)[], samples: Float32Array, counts: Uint8Array | null): void {
  targets.forEach((target, i) => {
    if (target === undefined || counts?.[i] === 0) return;
    const o = 4 * i;
    if (target.kind === 'morph') target.object.morphTargetInfluences[target.index] = samples[o]!;
    else if (target.kind === 'quaternion') target.object.quaternion.set(samples[o]!, samples[o + 1]!, samples[o + 2]!, samples[o + 3]!);
    else target.object[target.kind].set(samples[o]!, samples[o + 1]!, samples[o + 2]!);
  });
}
