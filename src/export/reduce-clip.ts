import { type AnimClip, type AnimCurve, type CurveType, type ReduceTrack } from '../anim/index.js';
import { reduceKeys, type RuntimeOwner } from '../core/index.js';
import { UsageError } from '../errors.js';
import { sameTimes } from '../anim/same-times.js';
import { curveTrack } from './curve-track.js';

/** The largest error keyframe reduction may make, per kind of curve. */
export interface KeyTolerance {
  /** Translations and velocities: a distance in output units (metres in glTF). */
  translation: number;
  /** Rotations: an angle in radians. */
  rotation: number;
  /** Scales: a distance between scale vectors. */
  scale: number;
  /** Every other curve (morph weights, colours, float4): a distance. */
  other: number;
}

/**
 * Defaults: 1e-4 units (0.1 mm in metres; glTF-Transform `resample()`'s tolerance) and 0.1° —
 * gltfpack keeps tracks constant within 1 mm and 0.001 rad (gltf/animation.cpp), so these are
 * ten times tighter for lengths and about as tight for angles.
 */
export const DEFAULT_KEY_TOLERANCE: Readonly<KeyTolerance> = { translation: 1e-4, rotation: Math.PI / 1800, scale: 1e-4, other: 1e-4 };

/**
 * A tolerance as exports take it: `0` bakes every key (no reduction); another number sets the
 * translation, scale and other tolerances (the rotation tolerance stays 0.1°); an object sets
 * any of them (the rest keep `DEFAULT_KEY_TOLERANCE`). Default: `DEFAULT_KEY_TOLERANCE`.
 */
export type ToleranceOption = number | Partial<KeyTolerance>;

/**
 * The tolerances `option` stands for, or null when it asks for no reduction (`0`).
 * @throws UsageError for a value that is not a finite number ≥ 0
 */
export function keyTolerance(option: ToleranceOption | undefined): KeyTolerance | null {
  const finite = (what: string, v: number) => {
    if (!(v >= 0) || !Number.isFinite(v)) throw new UsageError(`${what} tolerance must be a finite number ≥ 0, got ${v}`);
    return v;
  };
  if (option === undefined) return { ...DEFAULT_KEY_TOLERANCE };
  if (typeof option === 'number') {
    const n = finite('the', option);
    return n === 0 ? null : { ...DEFAULT_KEY_TOLERANCE, translation: n, scale: n, other: n };
  }
  const out = { ...DEFAULT_KEY_TOLERANCE, ...option };
  for (const kind of ['translation', 'rotation', 'scale', 'other'] as const) finite(kind, out[kind]);
  return out;
}

/** Which tolerance a curve type takes (Bool curves are not reduced). */
function kindOf(type: CurveType): keyof KeyTolerance {
  return type === 'translation' || type === 'velocity' ? 'translation' : type === 'rotation' || type === 'scale' ? type : 'other';
}

/** What reducing one clip did. */
export interface ClipReduction {
  /** The clip's name. */
  clip: string;
  /** Keys before: every curve's keys as an export without reduction writes them (`curveTrack`). */
  keysIn: number;
  /** Keys kept. */
  keysOut: number;
  /** The largest error per kind of curve (rotations in radians), measured at every source key and, for rotations, halfway between. */
  maxError: KeyTolerance;
}

/**
 * `clip` with its keys reduced (issue 14 item 8): every curve except Bool ones becomes its export
 * track (`curveTrack`: own key times, a cycling clip's closing key, held step keys, rotations
 * normalised), reduced in one wasm call (`reduceKeys`) within the tolerance of its kind, and
 * comes back `keyed` with the kept keys — or `static` when one key is left (a constant curve).
 * The `weights/<k>` curves of one joint with equal key times reduce as a group (one set of kept
 * times, as a glTF morph-weights sampler has).
 * Sampling the result (lerp, slerp for rotations, or held keys for `interpolation: 'step'`)
 * stays within tolerance of the source at every source key (and halfway between, for rotations);
 * the first and last keys are the source's. Duration, infinity, events and metadata are kept.
 * @throws UsageError for Unity curves (resample the clip first, as `exportClip` does)
 */
export function reduceClip(core: RuntimeOwner, clip: AnimClip, tolerance: KeyTolerance, interpolation: 'linear' | 'step' = 'linear'): { clip: AnimClip; reduction: ClipReduction } {
  const reducible = clip.curves.map((c) => c.curveType !== 'bool' && c.keys.encoding !== 'static');
  const tracks = clip.curves.map((c) => curveTrack(clip, c));
  // Jobs in groups: the `weights/<k>` curves of one joint with equal key times reduce together,
  // so they keep one set of key times, as one glTF morph-weights sampler needs.
  const jobs: ReduceTrack[] = [];
  const jobOf = new Map<number, number>();
  const add = (i: number, withPrevious: boolean) => {
    const c = clip.curves[i]!;
    const { times, values } = tracks[i]!;
    jobOf.set(i, jobs.length);
    jobs.push({ times, values, rotation: c.curveType === 'rotation', step: interpolation === 'step', tolerance: tolerance[kindOf(c.curveType)], withPrevious });
  };
  const groups: { times: Float32Array; members: number[] }[] = [];
  const groupsOf = new Map<string, typeof groups>();
  clip.curves.forEach((c, i) => {
    if (!reducible[i]) return;
    if (c.target.joint !== null && /^weights\/\d+$/.test(c.target.property)) {
      const times = tracks[i]!.times;
      const list = groupsOf.get(c.target.joint) ?? [];
      groupsOf.set(c.target.joint, list);
      const group = list.find((g) => sameTimes(g.times, times));
      if (group) group.members.push(i);
      else list.push(groups[groups.push({ times, members: [i] }) - 1]!);
    } else add(i, false);
  });
  for (const group of groups) group.members.forEach((i, m) => add(i, m > 0));
  const reduced = reduceKeys(core, jobs);
  const maxError: KeyTolerance = { translation: 0, rotation: 0, scale: 0, other: 0 };
  let keysIn = 0;
  let keysOut = 0;
  const curves = clip.curves.map((curve, i): AnimCurve => {
    const track = tracks[i]!;
    keysIn += track.times.length;
    if (!reducible[i]) {
      keysOut += track.times.length;
      return curve;
    }
    const { kept, error } = reduced[jobOf.get(i)!]!;
    const kind = kindOf(curve.curveType);
    maxError[kind] = Math.max(maxError[kind], error);
    keysOut += kept.length;
    if (kept.length === 1) return { ...curve, keys: { encoding: 'static', value: track.values.slice(0, 4) } };
    const times = new Float32Array(kept.length);
    const values = new Float32Array(4 * kept.length);
    for (let j = 0; j < kept.length; j++) {
      const k = kept[j]!;
      times[j] = track.times[k]!;
      for (let c = 0; c < 4; c++) values[4 * j + c] = track.values[4 * k + c]!;
    }
    return { ...curve, keys: { encoding: 'keyed', times, values } };
  });
  const out = clip.withCurves(curves);
  return { clip: out, reduction: { clip: clip.name, keysIn, keysOut, maxError } };
}
