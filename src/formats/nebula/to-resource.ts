import { FormatError, type FormatErrorLocation } from '../../errors.js';
import { AnimClip, AnimResource, CurveType, InfinityType, type AnimCurve, type AnimEvent, type SourceAxes } from '../../anim/index.js';
import type { Nax2Document } from './nax2-document.js';
import type { Nax3Clip, Nax3Document } from './nax3-document.js';
import { describeBadValue, firstBadValue, MAX_FILE_VALUE } from '../value-range.js';
import { nax2CurveKind, type Nax2Curves } from './blend-shapes.js';
import { clipNamesOf, toModelSkeleton, type NebulaSkeletonInput } from './skeleton-input.js';

/**
 * Nebula's space: right-handed (Nebula2 `nCamera2::UpdateProjInvProj` and Nebula3
 * `CameraSetting::SetupPerspectiveFovRH` build right-handed projections, `perspFovRh`) and Y-up
 * (the cameras' up vector; the fixtures' characters stand along +Y). The spec does not say.
 */
export const NEBULA_AXES: SourceAxes = { up: 'y', handedness: 'right', basis: 'right-handed projections of Nebula2 nCamera2 and Nebula3 CameraSetting, characters along +Y' };

/** nax2 curve kinds by `curveIndex % 3` (N3's rule, spec nebula.md §1.6, §2.4). */
const NAX2_KINDS: readonly CurveType[] = [CurveType.Translation, CurveType.Rotation, CurveType.Scale];

/** nax3 CurveType codes of the 2009+ SDK (spec §2.2): code 4 is Velocity, as Footman shows. */
export const NAX3_CURVE_TYPES: readonly CurveType[] = [
  CurveType.Translation,
  CurveType.Scale,
  CurveType.Rotation,
  CurveType.Color,
  CurveType.Velocity,
  CurveType.Float4,
];

/** What a user reading weights as transforms is told (once per file). */
const BLEND_SHAPE_HINT =
  "if an nblendshapeanimator plays this file, its curves are morph weights: open it with { curves: 'blend-shape' }, or with the .n2 script that plays it (beside it, or --skeleton <script.n2>)";

/** Options of `nax2ToResource`. */
export interface Nax2ResourceOptions {
  /** What the curves are (`blend-shapes.ts`); decided from the skeleton companion when not given. */
  curves?: Nax2Curves;
  /** The animation's file name, to find the `.n2` blend-shape animator whose `.setanimation` names it. */
  name?: string;
}

/**
 * Turns a `.nax2` / `.nanim2` document into the model (spec nebula.md §1, §2.4 — the rules N3's
 * own nax2 → nax3 converter applies). With `blend-shape` curves (`nax2CurveKind`: the caller's
 * `options.curves`, or an `.n2` companion whose `nblendshapeanimator` plays this file), every curve
 * i of a group is instead a uniform Float curve of morph weight i (its x; sampled linearly, as
 * nBlendShapeAnimator's Linear curves are), target `{ joint: <the nblendshapenode the group's
 * animator drives, else the animator, else "blendshape">, property: 'weights/<i>' }` (what the
 * glTF exporter writes as morph `weights`), the clip named by the group's animator, no skeleton,
 * no ipolType check, and `info.curves = 'blend-shape'` with `info.blendShapeAnimators`; otherwise
 * (transform curves):
 * - one `AnimClip` per group, named by the `.n2` skeleton's clips for that group index, else
 *   `clip0`, `clip1`, …;
 * - curve i is Translation, Rotation or Scale by `i % 3` and targets joint ⌊i/3⌋ (its skeleton
 *   name, else `joint<j>`), never by ipolType (§1.6); when the curves' ipolTypes
 *   contradict the kinds ONE warning says so: the 2/3 swap when T/S say Quat and R say Linear
 *   (kila layout B), else a hint that Linear rotation slots with no Quat curve are what
 *   blend-shape weights look like;
 * - a curve is static when `firstKeyIndex == −1` (value = the collapsed key), else uniform with its
 *   own `Float32Array` of `4 × numKeys` floats gathered from `pool[firstKeyIndex + k·keyStride]`;
 *   `active = isAnimated != 0` (layout A has no field: active);
 * - `keyDuration` (seconds) = `int(keyTime·1000 + 0.5)` ticks / 1000 (N3 `SecondsToTicks`); the raw
 *   float `keyTime`, ticks, `startKey`, `fadeInFrames`, `loopType`, `keyStride` and layout-C
 *   `metadata` go to `clip.metadata`; `duration` = numKeys × ticks / 1000 seconds;
 * - pre = post infinity = `cycle` when `loopType == 1`, else `constant` (other loop types warn).
 *
 * `resource.format` is `nax2` or `nanim2`; `resource.info` holds `layout`, `numGroups`, `numKeys`,
 * `keyDataOffset`, `metadataSize` (and `byteOrder` for binary files). A skeleton whose joint count
 * differs from numCurves / 3 gives a warning. Throws `FormatError` (at the group's offset or line)
 * when a group with animated curves has a key time that rounds to 0 ticks or is not finite, a
 * clip duration beyond ±1e38 s, a key or collapsed value that is not finite or beyond ±1e38
 * (value-range.ts; at its byte, or the curve's line in `.nanim2`), or when the curves claim more
 * keys than the pool holds (overlapping curves; guards the allocation).
 */
export function nax2ToResource(doc: Nax2Document, skeleton?: NebulaSkeletonInput, options: Nax2ResourceOptions = {}): AnimResource {
  const format = doc.layout === 'nanim2' ? 'nanim2' : 'nax2';
  const curveKind = nax2CurveKind(skeleton, options.curves, options.name);
  const blend = curveKind.curves === 'blend-shape';
  const skel = blend ? null : toModelSkeleton(skeleton);
  const names = blend ? null : clipNamesOf(skeleton);
  const warnings = new Set<string>();
  const fail = (where: FormatErrorLocation, delta: number, code: string, message: string): never => {
    throw new FormatError(format, code, shift(where, delta), message);
  };

  let claimed = 0;
  for (const group of doc.groups) {
    const animated = group.curves.filter((c) => c.firstKeyIndex !== -1).length;
    claimed += animated * group.numKeys;
    if (claimed > doc.numKeys) {
      fail(group.source, 0, 'bad-key-index', `the curves claim ${claimed} or more keys but the pool holds ${doc.numKeys}; overlapping curves are not supported`);
    }
  }

  const contradictions = { tq: 0, rl: 0 };
  const clips = doc.groups.map((group, g) => {
    const hasUniform = group.curves.some((c) => c.firstKeyIndex !== -1);
    const ticks = Math.trunc(group.keyTime * 1000 + 0.5);
    const ticksOk = Number.isFinite(ticks) && ticks > 0;
    if (hasUniform && !ticksOk) {
      fail(group.source, 16, 'bad-value', `group ${g}: keyTime ${group.keyTime} s is ${ticks} ticks; animated curves need at least 1 ms per key`);
    }
    if (ticksOk && (group.numKeys * ticks) / 1000 > MAX_FILE_VALUE) {
      fail(group.source, 16, 'bad-value', `group ${g}: keyTime ${group.keyTime} s × ${group.numKeys} keys is beyond ±${MAX_FILE_VALUE} s`);
    }
    if (group.loopType !== 0 && group.loopType !== 1) {
      warnings.add(`${format}: group ${g} has loopType ${group.loopType} (0 clamp, 1 repeat expected); read as clamp (N3's converter would cycle)`);
    }
    if (!blend && group.curves.length % 3 !== 0) {
      warnings.add(`${format}: group ${g} has ${group.curves.length} curves, not 3 per joint; ${BLEND_SHAPE_HINT}`);
    }
    if (skel && skel.size * 3 !== group.curves.length) {
      warnings.add(`${format}: the skeleton has ${skel.size} joints but group ${g} has ${group.curves.length} curves (3 per joint expected)`);
    }
    // Blend shapes: the animator playing this group drives its (first) nblendshapenode's weights.
    const player = curveKind.animators.find((a) => a.group === g) ?? null;
    const someone = player ?? curveKind.animators[0];
    const shapeNode = someone?.targets[0]?.node ?? someone?.name ?? 'blendshape';
    const curves: AnimCurve[] = group.curves.map((c, i) => {
      const kind = blend ? CurveType.Float : NAX2_KINDS[i % 3]!;
      if (!blend && (kind === CurveType.Rotation ? c.ipolType === 3 : c.ipolType === 2)) {
        if (kind === CurveType.Rotation) contradictions.rl++;
        else contradictions.tq++;
      }
      const joint = Math.floor(i / 3);
      const where = `group ${g} curve ${i}`;
      let keys: AnimCurve['keys'];
      if (c.firstKeyIndex === -1) {
        // The collapsed key follows ipolType and firstKeyIndex (and isAnimated, except in layout A).
        checkValues(format, c.collapsedKey, (lane) => shift(c.source, (doc.layout === 'A' ? 6 : 12) + 4 * lane), `${where} collapsed key`);
        keys = { encoding: 'static', value: Float32Array.from(c.collapsedKey) };
      } else {
        const values = gather(doc.pool, c.firstKeyIndex, group.keyStride, group.numKeys);
        checkValues(format, values, (i) => poolLocation(doc.keyDataOffset, c.firstKeyIndex + (i >> 2) * group.keyStride, i & 3, c.source), `${where} keys`);
        keys = { encoding: 'uniform', values };
      }
      return {
        curveType: kind,
        // glTF morph target weight k of the node (`weights/<k>`, as the exporters read it).
        target: blend ? { joint: shapeNode, property: `weights/${i}` } : { joint: skel?.joints[joint]?.name ?? `joint${joint}`, property: kind },
        active: c.isAnimated === null || c.isAnimated !== 0,
        keys,
      };
    });
    const infinity = group.loopType === 1 ? InfinityType.Cycle : InfinityType.Constant;
    return new AnimClip({
      name: names?.get(g) ?? player?.name ?? `clip${g}`,
      curves,
      keyCount: group.numKeys,
      keyDuration: ticksOk ? ticks / 1000 : 0,
      duration: ticksOk ? (group.numKeys * ticks) / 1000 : 0,
      preInfinity: infinity,
      postInfinity: infinity,
      metadata: {
        keyTime: group.keyTime,
        keyDurationTicks: ticksOk ? ticks : 0,
        startKey: group.startKey,
        keyStride: group.keyStride,
        loopType: group.loopType,
        fadeInFrames: group.fadeInFrames,
        ...(group.metadata !== null ? { metadata: group.metadata } : {}),
      },
    });
  });
  if (contradictions.tq > 0 && contradictions.rl > 0) {
    warnings.add(
      `${format}: ipolType contradicts the curve kind on ${contradictions.tq} translation/scale curves tagged Quat(2) and ` +
        `${contradictions.rl} rotation curves tagged Linear(3) — the 2/3 swap of nAnimBuilder::LoadNax2 (spec §1.6); ` +
        'kinds follow the curve index (i % 3), ipolType is ignored',
    );
  } else if (contradictions.rl > 0) {
    // Linear curves in rotation slots and no Quat one elsewhere is no swap: every curve is linear, as morph weights are.
    warnings.add(`${format}: ${contradictions.rl} curves in rotation slots (i % 3 = 1) are tagged Linear(3) and none is tagged Quat(2), so they were read as rotations; ${BLEND_SHAPE_HINT}`);
  } else if (contradictions.tq > 0) {
    warnings.add(`${format}: ${contradictions.tq} translation/scale curves are tagged Quat(2); kinds follow the curve index (i % 3), ipolType is ignored (spec §1.6)`);
  }
  const info: Record<string, unknown> = {
    ...(blend && { curves: 'blend-shape', blendShapeAnimators: curveKind.animators }),
    layout: doc.layout,
    numGroups: doc.groups.length,
    numKeys: doc.numKeys,
    keyDataOffset: doc.keyDataOffset,
    metadataSize: doc.metadataSize,
  };
  if (format === 'nax2') info['byteOrder'] = 'little';
  return new AnimResource({ format, clips, skeleton: skel, info, warnings: [...warnings], axes: NEBULA_AXES });
}

/**
 * Turns a `.nax3` document into the model (spec nebula.md §2.2, §3.3):
 * - one `AnimClip` per clip header, named by it;
 * - curve type from the code (0 Translation, 1 Scale, 2 Rotation, 3 Color, 4 Velocity, 5 Float4);
 *   `isStatic` → static keys (`staticKey`), else uniform keys gathered into a `Float32Array` of
 *   `4 × numKeys` floats from `pool[firstKeyIndex + k·keyStride]`; `active = isActive != 0`;
 * - `keyDuration` = `keyDuration` ticks / 1000 seconds, `duration` = numKeys × ticks / 1000
 *   seconds; pre/post infinity from the stored bytes (0 constant, 1 cycle);
 * - events become `AnimEvent`s at `keyIndex × keyDuration` seconds (sorted by time);
 * - targets: 4 curves per joint when numCurves % 4 == 0 and every 4th curve is Velocity (2009+
 *   character files, §3.6), else 3 when numCurves % 3 == 0 and the codes follow T, R, S, else
 *   joint `null`; the joint is named from the skeleton (warning when its joint count differs), else
 *   `joint<j>`; `property` is the curve type.
 *
 * `resource.format` is `nax3`; `resource.info` holds `byteOrder`, `numClips`, `numKeys`,
 * `keyDataOffset`. Throws `FormatError` (format `nax3`, at the byte of the offending field) for
 * infinity bytes other than 0/1, unknown curve-type codes, a key duration of 0 ticks in a clip with
 * non-static curves, a key or static value that is not finite or beyond ±1e38 (value-range.ts), or
 * curves that claim more keys than the pool holds.
 */
export function nax3ToResource(doc: Nax3Document, skeleton?: NebulaSkeletonInput): AnimResource {
  const skel = toModelSkeleton(skeleton);
  const warnings = new Set<string>();
  const fail = (offset: number, code: string, message: string): never => {
    throw new FormatError('nax3', code, { offset }, message);
  };

  let claimed = 0;
  for (const clip of doc.clips) {
    claimed += clip.curves.filter((c) => c.isStatic === 0).length * clip.numKeys;
    if (claimed > doc.numKeys) {
      fail(clip.offset, 'bad-key-index', `the curves claim ${claimed} or more keys but the pool holds ${doc.numKeys}; overlapping curves are not supported`);
    }
  }

  const clips = doc.clips.map((clip, c) => {
    const what = `clip ${c} ("${clip.name}")`;
    const infinity = (value: number, delta: number, which: string): InfinityType =>
      value === 0 ? InfinityType.Constant : value === 1 ? InfinityType.Cycle : fail(clip.offset + delta, 'bad-value', `${what}: ${which} is ${value}, expected 0 (Constant) or 1 (Cycle)`);
    const preInfinity = infinity(clip.preInfinityType, 10, 'preInfinityType');
    const postInfinity = infinity(clip.postInfinityType, 11, 'postInfinityType');
    const types = clip.curves.map(
      (curve, i) => NAX3_CURVE_TYPES[curve.curveType] ?? fail(curve.offset + 6, 'bad-value', `${what} curve ${i}: unknown curveType code ${curve.curveType}`),
    );
    const hasUniform = clip.curves.some((curve) => curve.isStatic === 0);
    if (hasUniform && clip.keyDuration === 0) fail(clip.offset + 8, 'bad-value', `${what}: keyDuration is 0 ticks but the clip has keys`);

    const perJoint = jointStride(types);
    if (skel && perJoint > 0 && skel.size * perJoint !== types.length) {
      warnings.add(`nax3: the skeleton has ${skel.size} joints but ${what} has ${types.length} curves (${perJoint} per joint expected)`);
    }
    const curves: AnimCurve[] = clip.curves.map((curve, i) => {
      const j = perJoint > 0 ? Math.floor(i / perJoint) : -1;
      let keys: AnimCurve['keys'];
      if (curve.isStatic !== 0) {
        checkValues('nax3', curve.staticKey, (lane) => ({ offset: curve.offset + 8 + 4 * lane }), `${what} curve ${i} static key`);
        keys = { encoding: 'static', value: Float32Array.from(curve.staticKey) };
      } else {
        const values = gather(doc.pool, curve.firstKeyIndex, clip.keyStride, clip.numKeys);
        checkValues('nax3', values, (v) => poolLocation(doc.keyDataOffset, curve.firstKeyIndex + (v >> 2) * clip.keyStride, v & 3, {}), `${what} curve ${i} keys`);
        keys = { encoding: 'uniform', values };
      }
      return {
        curveType: types[i]!,
        target: { joint: j < 0 ? null : (skel?.joints[j]?.name ?? `joint${j}`), property: types[i]! },
        active: curve.isActive !== 0,
        keys,
      };
    });
    const events: AnimEvent[] = clip.events.map((e) => ({ name: e.name, category: e.category, time: (e.keyIndex * clip.keyDuration) / 1000 }));
    return new AnimClip({
      name: clip.name,
      curves,
      keyCount: clip.numKeys,
      keyDuration: clip.keyDuration / 1000,
      duration: (clip.numKeys * clip.keyDuration) / 1000,
      preInfinity,
      postInfinity,
      events,
      metadata: clipMetadata(clip),
    });
  });
  return new AnimResource({
    format: 'nax3',
    clips,
    skeleton: skel,
    info: { byteOrder: doc.byteOrder, numClips: doc.clips.length, numKeys: doc.numKeys, keyDataOffset: doc.keyDataOffset },
    warnings: [...warnings],
    axes: NEBULA_AXES,
  });
}

function clipMetadata(clip: Nax3Clip): Record<string, unknown> {
  return {
    keyDurationTicks: clip.keyDuration,
    startKey: clip.startKeyIndex,
    keyStride: clip.keyStride,
    preInfinityType: clip.preInfinityType,
    postInfinityType: clip.postInfinityType,
  };
}

/** Curves per joint: 4 (T, R, S, Velocity), 3 (T, R, S) or 0 (no joint layout recognised). */
function jointStride(types: readonly CurveType[]): number {
  const n = types.length;
  if (n > 0 && n % 4 === 0 && types.every((t, i) => (i % 4 === 3) === (t === CurveType.Velocity))) return 4;
  if (n > 0 && n % 3 === 0 && types.every((t, i) => t === NAX2_KINDS[i % 3])) return 3;
  return 0;
}

/** Key k of one curve, `pool[first + k·stride]`, copied into `4 × count` floats. */
function gather(pool: Float32Array, first: number, stride: number, count: number): Float32Array {
  const out = new Float32Array(4 * count);
  for (let k = 0; k < count; k++) {
    const src = 4 * (first + k * stride);
    out[4 * k] = pool[src]!;
    out[4 * k + 1] = pool[src + 1]!;
    out[4 * k + 2] = pool[src + 2]!;
    out[4 * k + 3] = pool[src + 3]!;
  }
  return out;
}

/**
 * Refuses a key value that is not finite or beyond ±1e38 (value-range.ts) with a `FormatError` at
 * `where(i)`, the location of value `i`.
 */
function checkValues(format: string, values: Float32Array, where: (i: number) => FormatErrorLocation, what: string): void {
  const i = firstBadValue(values);
  if (i >= 0) throw new FormatError(format, 'bad-value', where(i), `${what}: ${describeBadValue(values[i]!)}`);
}

/** Where lane `lane` of pool key `key` is: its byte offset, or `fallback` (a `.nanim2` line) without a pool offset. */
function poolLocation(keyDataOffset: number | null, key: number, lane: number, fallback: FormatErrorLocation): FormatErrorLocation {
  return keyDataOffset === null ? fallback : { offset: keyDataOffset + 16 * key + 4 * lane };
}

/** A location moved `delta` bytes on (binary) or left as it is (a text line). */
function shift(where: FormatErrorLocation, delta: number): FormatErrorLocation {
  return where.offset !== undefined ? { offset: where.offset + delta } : where;
}

