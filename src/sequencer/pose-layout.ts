import type { AnimCore } from '../core/index.js';
import { type AnimClip, type AnimCurve, AnimResource, bindJoints, type CurveType, JOINT_PROPERTIES, type JointBinding, restValue, type Skeleton, staticKeys } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { checkNumber, describe, member } from './checks.js';

/** One curve of a pose layout: what it drives and its type. */
export interface PoseCurve {
  /** Joint (node) name, or null for a clip-level curve. */
  readonly joint: string | null;
  readonly property: string;
  readonly curveType: CurveType;
}

/** Options of `mask(joints, options)`: which curves of the named joints, and their weight. */
export interface JointMaskOptions {
  /** Also every descendant of the named joints in the skeleton. Default false. */
  children?: boolean;
  /** The weight of the selected curves, in [0, 1]. Default 1. */
  weight?: number;
}

const JOINT_TYPES: Record<(typeof JOINT_PROPERTIES)[number], CurveType> = { translation: 'translation', rotation: 'rotation', scale: 'scale' };
const key = (joint: string | null, property: string): string => JSON.stringify([joint, property]);

/**
 * The curve layout every job of a sequencer samples into, with each curve's rest value (spec
 * sequencer.md §0). Where every clip of the resource has the same targets in the same order
 * (Nebula, Meteor, MRTK, AAF), it is that layout. Otherwise (glTF) it is every skeleton joint in
 * index order × translation, rotation, scale, then the `weights/<k>` curves of each joint with
 * morph targets (`Joint.morphWeights`; joint order, then k), then any other target the clips
 * animate, in order of first appearance.
 *
 * Rest values: the joint's rest transform for translation / rotation / scale where the resource
 * has a skeleton (translation and scale with w = 0); a morph weight `weights/<k>` the joint's
 * `morphWeights[k]` (glTF node weights, else mesh weights, else 0); else the curve's own rest value
 * (static value or first key) in the first clip that animates it.
 */
export class PoseLayout {
  readonly curves: readonly PoseCurve[];
  readonly curveTypes: readonly CurveType[];
  /** `4 × curveCount` rest values (x y z w; quaternions x y z w). */
  readonly rest: Float32Array;
  readonly skeleton: Skeleton | null;
  /** Whether every clip of the resource has this layout as is (no re-laid copies needed). */
  readonly shared: boolean;
  /**
   * The format's rotation interpolation: the one every clip of the resource declares
   * (`AnimClip.rotation`; glTF's slerp, Appendix C), else `nlerp`.
   */
  readonly rotation: 'nlerp' | 'slerp';
  private readonly index = new Map<string, number>();
  private readonly laid = new WeakMap<AnimClip, AnimClip>();

  constructor(resource: AnimResource) {
    const clips = resource.clips;
    this.skeleton = resource.skeleton;
    const first = clips[0]?.curves ?? [];
    this.shared = clips.length > 0 && clips.every((c) => sameTargets(c.curves, first));
    this.rotation = clips.length > 0 && clips.every((c) => c.rotation === 'slerp') ? 'slerp' : 'nlerp';
    const curves: PoseCurve[] = [];
    const add = (joint: string | null, property: string, curveType: CurveType): void => {
      if (this.index.has(key(joint, property))) return;
      this.index.set(key(joint, property), curves.length);
      curves.push({ joint, property, curveType });
    };
    if (this.shared) {
      for (const c of first) add(c.target.joint, c.target.property, c.curveType);
    } else {
      const all = clips.flatMap((c) => c.curves);
      if (this.skeleton) {
        for (const j of this.skeleton.joints) for (const p of JOINT_PROPERTIES) add(j.name, p, JOINT_TYPES[p]);
        for (const j of this.skeleton.joints) {
          // Every morph target of the node's mesh, animated or not, then any weight a clip names beyond them.
          const targets = j.morphWeights?.length ?? 0;
          for (let k = 0; k < targets; k++) add(j.name, `weights/${k}`, 'float');
          const morphs = all.filter((c) => c.target.joint === j.name && /^weights\/\d+$/.test(c.target.property));
          morphs.sort((a, b) => morphIndex(a) - morphIndex(b));
          for (const c of morphs) add(j.name, c.target.property, c.curveType);
        }
      }
      for (const c of all) add(c.target.joint, c.target.property, c.curveType);
    }
    this.curves = curves;
    this.curveTypes = curves.map((c) => c.curveType);
    // The first curve animating each target (an active one first), for rest values.
    const animating = new Map<string, AnimCurve>();
    for (const k of clips.flatMap((clip) => clip.curves)) {
      const t = key(k.target.joint, k.target.property);
      if (!animating.has(t) || (k.active && !animating.get(t)!.active)) animating.set(t, k);
    }
    this.rest = new Float32Array(4 * curves.length);
    curves.forEach((c, i) => this.rest.set(this.restOf(c, animating.get(key(c.joint, c.property))), 4 * i));
  }

  /** Number of curves in the layout (one float4 each in a pose). */
  get curveCount(): number {
    return this.curves.length;
  }

  /**
   * The layout's curves bound to the resource's skeleton (`bindJoints`): what a `LocalToModelJob`
   * of the layout's poses takes.
   * @throws UsageError when the resource has no skeleton
   */
  binding(): JointBinding {
    if (!this.skeleton) throw new UsageError('the resource has no skeleton to bind the pose layout to');
    return bindJoints(this.curves.map((c) => ({ target: { joint: c.joint, property: c.property } })), this.skeleton);
  }

  /** The index of the curve driving `property` of `joint`, or −1. */
  indexOf(joint: string | null, property: string): number {
    return this.index.get(key(joint, property)) ?? -1;
  }

  /**
   * A per-curve mask (spec §5): every curve of the named joints — with `children`, also of their
   * descendants in the skeleton — gets `weight`, every other curve 0.
   * @returns a new `Float32Array` of `curveCount` weights
   * @throws UsageError for an unknown joint, `children` without a skeleton, or a weight outside [0, 1]
   */
  mask(joints: readonly string[], options: JointMaskOptions = {}, path = 'mask'): Float32Array {
    const weight = checkNumber(options.weight, `${path}.weight`, { min: 0, max: 1 }, 1);
    const selected = new Set<string>();
    joints.forEach((name, i) => {
      const inSkeleton = this.skeleton !== null && this.skeleton.indexOf(name) >= 0;
      if (!inSkeleton && !this.curves.some((c) => c.joint === name)) throw new UsageError(`${path}.joints[${i}]: no joint ${describe(name)}`);
      selected.add(name);
    });
    if (options.children) {
      const skeleton = this.skeleton;
      if (!skeleton) throw new UsageError(`${path}.children: the resource has no skeleton, so joints have no children`);
      // Walks each joint's parent chain (no assumption that parents precede children).
      skeleton.joints.forEach((j) => {
        for (let p = j.parent, steps = 0; p >= 0 && steps <= skeleton.size; p = skeleton.joints[p]!.parent, steps++) {
          if (selected.has(skeleton.joints[p]!.name)) {
            selected.add(j.name);
            break;
          }
        }
      });
    }
    return Float32Array.from(this.curves, (c) => (c.joint !== null && selected.has(c.joint) ? weight : 0));
  }

  /**
   * A per-curve mask from `"<joint>.<property>": weight` entries (split at the last dot, as joint
   * names may contain dots); every other curve 0.
   * @throws UsageError for a curve not in the layout or a weight outside [0, 1]
   */
  curveMask(weights: Readonly<Record<string, unknown>>, path = 'curves'): Float32Array {
    const out = new Float32Array(this.curves.length);
    for (const [name, w] of Object.entries(weights)) {
      const dot = name.lastIndexOf('.');
      const i = dot > 0 ? this.indexOf(name.slice(0, dot), name.slice(dot + 1)) : -1;
      if (i < 0) throw new UsageError(`${member(path, name)}: no curve "<joint>.<property>" of that name in the pose layout`);
      out[i] = checkNumber(w, member(path, name), { min: 0, max: 1 }, 0);
    }
    return out;
  }

  /**
   * `clip` with its curves in this layout: the clip itself when the layout is shared, else a copy
   * whose missing curves are inactive and hold their rest value (cached per clip).
   */
  clip(clip: AnimClip): AnimClip {
    if (this.shared) return clip;
    let laid = this.laid.get(clip);
    if (!laid) {
      const own = new Map<string, AnimCurve>();
      for (const c of clip.curves) if (!own.has(key(c.target.joint, c.target.property))) own.set(key(c.target.joint, c.target.property), c);
      const curves = this.curves.map((p, i): AnimCurve => {
        const r = this.rest;
        return (
          own.get(key(p.joint, p.property)) ?? {
            curveType: p.curveType,
            target: { joint: p.joint, property: p.property },
            active: false,
            keys: staticKeys(r[4 * i]!, r[4 * i + 1]!, r[4 * i + 2]!, r[4 * i + 3]!),
          }
        );
      });
      // Every field of the clip (duration, infinity, its default rotation, events, metadata …) but the curves.
      laid = clip.withCurves(curves);
      this.laid.set(clip, laid);
    }
    return laid;
  }

  /**
   * Loads the clips of `resource` (this layout's resource) into `core` as `clip()` lays them out:
   * the resource itself when the layout is shared, else a resource of the re-laid copies.
   * @returns a release function (frees the re-laid copies; the shared resource stays the caller's)
   */
  load(core: AnimCore, resource: AnimResource): () => void {
    if (this.shared) {
      core.load(resource);
      return () => undefined;
    }
    const laid = new AnimResource({ format: resource.format, clips: resource.clips.map((c) => this.clip(c)) });
    core.load(laid);
    return () => laid.dispose();
  }

  private restOf(c: PoseCurve, source: AnimCurve | undefined): ArrayLike<number> {
    const joint = c.joint === null || !this.skeleton ? null : this.skeleton.joints[this.skeleton.indexOf(c.joint)];
    if (joint && c.property === 'translation') return [...joint.rest.translation, 0];
    if (joint && c.property === 'rotation') return joint.rest.rotation;
    if (joint && c.property === 'scale') return [...joint.rest.scale, 0];
    // A morph weight rests at the node's (else the mesh's) weight, else 0 (spec §0; Joint.morphWeights).
    const morph = /^weights\/(\d+)$/.exec(c.property);
    if (joint?.morphWeights && morph) return [joint.morphWeights[Number(morph[1])] ?? 0, 0, 0, 0];
    return source ? restValue(source.keys) : c.curveType === 'rotation' ? [0, 0, 0, 1] : [0, 0, 0, 0];
  }
}

function sameTargets(a: readonly AnimCurve[], b: readonly AnimCurve[]): boolean {
  return (
    a.length === b.length &&
    a.every((c, i) => c.target.joint === b[i]!.target.joint && c.target.property === b[i]!.target.property && c.curveType === b[i]!.curveType)
  );
}

function morphIndex(c: AnimCurve): number {
  return Number(c.target.property.slice('weights/'.length));
}
