import { AnimClip, type AnimCurve, type AnimEvent, AnimResource, type SkinnedMesh } from '../../anim/index.js';
import { FormatError } from '../../errors.js';
import { type AxisOptions, METEOR_FILE_AXES, METEOR_MIRRORED_AXES, position4, rotation4 } from './axes.js';
import { bncSkeleton } from './bnc-skeleton.js';
import type { LoopWindow } from './loop-time.js';
import { type AmbDocument, readAmb } from './read-amb.js';
import { type BncDocument, readBnc } from './read-bnc.js';
import { type PosPose, readPos } from './read-pos.js';
import { readSkc, type SkcSkin } from './read-skc.js';
import { isFileValue, MAX_FILE_VALUE } from '../value-range.js';
import { poseTimeTable } from './time-table.js';
import { quote } from '../text.js';

/** The files of one Meteor character (bytes). */
export interface MeteorCharacterFiles extends AxisOptions {
  /** `p<N>.amb`: the character's own moves (`source 1`). */
  amb: Uint8Array;
  /** `P<N>.bnc`: the skeleton. */
  bnc: Uint8Array;
  /** `P<N>.pos`: the clip table. */
  pos: Uint8Array;
  /** `p<N>.skc`: the skinned mesh (optional; summarised in `info.skin`, carried in `skins`). */
  skc?: Uint8Array;
  /** `character.amb`: the shared moves (`source 0`). Without it those poses are unavailable. */
  characterAmb?: Uint8Array;
}

/** A pose that has no clip, and why. */
export interface UnavailablePose {
  pose: number;
  reason: string;
}

/**
 * Opens a Meteor character (spec meteor.md §3–§7) as an `AnimResource`:
 * - `skeleton`: every `.bnc` bone and dummy (30 + 6 for P0) with its rest pose (`bncSkeleton`);
 * - one clip per `.pos` pose that can be played, named `pose<N>` (a repeated pose number, which the
 *   game keeps as another entry, `pose<N>#2`, …); a pose without a `source` line plays
 *   `character.amb`, as the game's default of 0 does. Each has, per joint, `keyed`
 *   curves targeting `{ joint, property }`: bone 0's translation, every bone's rotation, every
 *   dummy's translation and rotation (a root dummy's — `d_base`, root motion that the game never
 *   applies to the joint, §7.6 — as properties `root-motion-translation` / `root-motion-rotation`,
 *   so `bindJoints` leaves that joint at its rest pose), keyed at the pose's time table (`poseTimeTable`, §7.1) with
 *   the stored frames `Start … End`. The core's keyed sampler then reproduces §7.2: only adjacent
 *   frames are interpolated, positions lerped, rotations on the shortest arc (keys sign-aligned at
 *   load, §10; pass `{ rotation: 'slerp' }` for the game's slerp), times clamped outside the clip.
 *   Bones 1… keep their `.bnc` pivots (rest pose).
 * - clip `metadata`: `pose`, `source`, `startFrame`, `endFrame`, `fps`, `loop` (a `LoopWindow` in
 *   seconds, or `null`; see `loopTime` for loop playback), `loopFrames`, `link`, `effectId`,
 *   `effectType`, `segments`, `attacks`, `drags`, `nextPoses` (as read, plus `startTime`/`endTime`
 *   in seconds); clip `events` mark the loop, attack, drag and next-pose windows (category
 *   `loop`, `attack`, `drag`, `next-pose`; names `<category> <i> start|end`).
 * - `skins`: the `.skc` static skins as `SkinnedMesh`es (bone indices mapped to joint indices; with
 *   `mirrorYZ`, positions mirrored and triangle winding flipped as SKCLoader.cs L339 does, §5);
 * - `info.unavailablePoses` lists every pose without a clip with its reason (a `source 0` pose
 *   when `characterAmb` is not given, an unknown source, no Start/End, a frame its `.amb` lacks);
 *   `warnings` summarise them
 *   and carry the `.pos` reader's (where the game's parser stops) and the `.amb` readers' warnings. Empty `{}` poses are counted in `info.emptyPoses`.
 * File space (right-handed, Z-up) is kept unless `mirrorYZ` is set (§2).
 * @throws FormatError from the readers, when an `.amb` disagrees with the `.bnc` (bone and
 *   dummy counts, dummy parent tags), and (format `pos`, at the pose's line) when segment speeds
 *   make a pose last beyond 1e38 s
 */
export function openMeteorCharacter(files: MeteorCharacterFiles): AnimResource {
  const mirror = files.mirrorYZ ?? false;
  const bnc = readBnc(files.bnc);
  const pos = readPos(files.pos);
  const amb = checkAgainstBnc(readAmb(files.amb), bnc);
  const shared = files.characterAmb ? checkAgainstBnc(readAmb(files.characterAmb), bnc) : null;
  const { skeleton, boneJoints, dummyJoints } = bncSkeleton(bnc, mirror);
  const targets = {
    bones: boneJoints.map((j) => skeleton.joints[j]!.name),
    dummies: dummyJoints.map((j) => skeleton.joints[j]!.name),
  };
  const clips: AnimClip[] = [];
  const unavailable: UnavailablePose[] = [];
  const names = new Map<number, number>();
  for (const pose of pos.poses) {
    if (pose.empty) continue;
    // The game's Pose.SourceIdx is 0 unless a `source` line sets it (1.07 writes it on the brace line, where it is not read).
    const sourceIdx = pose.source ?? 0;
    const source = sourceIdx === 1 ? amb : sourceIdx === 0 ? shared : undefined;
    if (pose.start === null || pose.end === null || pose.end < pose.start) {
      unavailable.push({ pose: pose.number, reason: `no valid Start/End (line ${pose.line})` });
    } else if (source === undefined) {
      unavailable.push({ pose: pose.number, reason: `unknown source ${sourceIdx} (line ${pose.line})` });
    } else if (source === null) {
      unavailable.push({ pose: pose.number, reason: 'source 0 needs character.amb, which was not given' });
    } else {
      const missing = firstMissingFrame(source, pose.start, pose.end);
      // The game keeps repeated pose numbers as list entries; the clips get distinct names.
      const seen = names.get(pose.number) ?? 0;
      names.set(pose.number, seen + 1);
      const name = seen === 0 ? `pose${pose.number}` : `pose${pose.number}#${seen + 1}`;
      if (missing === null) clips.push(poseClip(pose as PosPose & { start: number; end: number }, source, targets, mirror, name));
      else unavailable.push({ pose: pose.number, reason: `frame ${missing} of ${pose.start}–${pose.end} is not in ${sourceIdx === 1 ? 'the .amb' : 'character.amb'}` });
    }
  }
  const warnings = [...pos.warnings.map((w) => `.pos: ${w}`), ...amb.warnings, ...(shared?.warnings.map((w) => `character.amb: ${w}`) ?? [])];
  const missingShared = unavailable.filter((u) => u.reason.startsWith('source 0'));
  if (missingShared.length > 0) {
    warnings.push(`${missingShared.length} poses use character.amb (source 0), which was not given; they are unavailable (info.unavailablePoses)`);
  }
  for (const u of unavailable) if (!missingShared.includes(u)) warnings.push(`Pose ${u.pose} is unavailable: ${u.reason}`);
  const skin = files.skc ? readSkc(files.skc).skins : undefined;
  return new AnimResource({
    format: 'meteor',
    clips,
    skeleton,
    ...(skin && { skins: skin.map((s) => skinnedMesh(s, boneJoints, mirror)) }),
    warnings,
    axes: mirror ? METEOR_MIRRORED_AXES : METEOR_FILE_AXES,
    info: {
      space: mirror ? 'y↔z mirrored (Unity, Y-up)' : 'file space (right-handed, Z-up)',
      bones: amb.boneCount,
      dummies: amb.dummyCount,
      frames: amb.frameCount,
      fps: amb.fps,
      frameIndices: amb.frameCount > 0 ? [amb.frameIndices[0], amb.frameIndices[amb.frameCount - 1]] : [],
      characterAmb: shared ? { frames: shared.frameCount, fps: shared.fps } : 'not given',
      poses: pos.poses.length,
      emptyPoses: pos.poses.filter((p) => p.empty).length,
      unavailablePoses: unavailable,
      ...(skin && {
        skin: skin.map((s) => ({ name: s.name, vertices: s.vertexCount, triangles: s.indices.length / 3, materials: s.materials.length })),
      }),
    },
  });
}

/** A `.skc` skin on the skeleton: bone indices → joint indices, file space or y↔z mirrored (§2, §5). */
function skinnedMesh(skin: SkcSkin, boneJoints: readonly number[], mirror: boolean): SkinnedMesh {
  const positions = new Float32Array(skin.positions.length);
  for (let i = 0; i < positions.length; i += 3) positions.set(position4(skin.positions, i, mirror).slice(0, 3), i);
  const indices = skin.indices.slice();
  if (mirror) for (let i = 0; i < indices.length; i += 3) [indices[i + 1], indices[i + 2]] = [skin.indices[i + 2]!, skin.indices[i + 1]!];
  const joints = skin.joints.map((bone, i) => {
    const joint = boneJoints[bone];
    if (joint === undefined) throw new FormatError('skc', 'bad-value', { offset: 0 }, `vertex ${Math.floor(i / skin.influences)} names bone ${bone}; the .bnc has ${boneJoints.length} bones`);
    return joint;
  });
  return { name: skin.name, positions, uvs: skin.uvs, influences: skin.influences, joints, weights: skin.weights, indices };
}

/** The first of the stored frames `start … end` that `amb` lacks, or `null`. */
function firstMissingFrame(amb: AmbDocument, start: number, end: number): number | null {
  for (let f = start; f <= end; f++) if (amb.recordOf(f) < 0) return f;
  return null;
}

/** An `.amb` must match the `.bnc`: same bone and dummy counts, dummy parent tags equal to the `.bnc` parents (§3.3). */
function checkAgainstBnc(amb: AmbDocument, bnc: BncDocument): AmbDocument {
  if (amb.boneCount !== bnc.bones.length || amb.dummyCount !== bnc.dummies.length) {
    throw new FormatError('amb', 'skeleton-mismatch', { offset: 5 }, `${amb.boneCount} bones and ${amb.dummyCount} dummies, the .bnc has ${bnc.bones.length} and ${bnc.dummies.length}`);
  }
  bnc.dummies.forEach((d, i) => {
    if (amb.frameCount > 0 && amb.dummyParents[i] !== d.parentRef) {
      throw new FormatError('amb', 'skeleton-mismatch', { offset: amb.dummyParentOffsets[i] }, `dummy ${i} parent tag ${quote(amb.dummyParents[i]!)} differs from the .bnc parent ${quote(d.parentRef)} of ${quote(d.name)}`);
    }
  });
  return amb;
}

function poseClip(pose: PosPose & { start: number; end: number }, amb: AmbDocument, targets: { bones: string[]; dummies: string[] }, mirror: boolean, name: string): AnimClip {
  const { start: S, end: E } = pose;
  const kt = poseTimeTable(pose, amb.fps);
  const n = kt.length;
  if (!isFileValue(kt[n - 1]!)) {
    throw new FormatError('pos', 'bad-value', { line: pose.line }, `Pose ${pose.number} lasts ${kt[n - 1]} s at its segment speeds; expected at most ${MAX_FILE_VALUE} s`);
  }
  const records = Array.from({ length: n }, (_, k) => amb.recordOf(S + k));
  const times = Float32Array.from(kt);
  const B = amb.boneCount;
  const D = amb.dummyCount;
  const curve = (joint: string, curveType: 'translation' | 'rotation', key: (r: number) => number[], property: string = curveType): AnimCurve => {
    const values = new Float32Array(4 * n);
    records.forEach((r, k) => values.set(key(r), 4 * k));
    return { curveType, target: { joint, property }, active: true, keys: { encoding: 'keyed', times, values } };
  };
  const curves: AnimCurve[] = [curve(targets.bones[0]!, 'translation', (r) => position4(amb.rootTranslations, 3 * r, mirror))];
  for (let b = 0; b < B; b++) curves.push(curve(targets.bones[b]!, 'rotation', (r) => rotation4(amb.boneRotations, 4 * (B * r + b), mirror)));
  for (let d = 0; d < D; d++) {
    // A root dummy (d_base) carries root motion; the game never applies it to the joint (§7.6).
    const root = amb.dummyParents[d] === 'NULL';
    const joint = targets.dummies[d]!;
    curves.push(curve(joint, 'translation', (r) => position4(amb.dummyPositions, 3 * (D * r + d), mirror), root ? 'root-motion-translation' : 'translation'));
    curves.push(curve(joint, 'rotation', (r) => rotation4(amb.dummyRotations, 4 * (D * r + d), mirror), root ? 'root-motion-rotation' : 'rotation'));
  }
  const time = (frame: number | null) => kt[Math.min(Math.max((frame ?? S) - S, 0), n - 1)]!;
  const looping = (pose.loopStart ?? 0) !== 0 && (pose.loopEnd ?? 0) !== 0;
  const loopFrames = looping ? [Math.min(Math.max(pose.loopStart!, S), E), Math.min(Math.max(pose.loopEnd!, S), E)] : null;
  const loop: LoopWindow | null = loopFrames ? { start: time(loopFrames[0]!), end: time(loopFrames[1]!) } : null;
  const events: AnimEvent[] = [];
  /** A frame window with its times (frames clamped to the pose, as `IsInKeyFrame` does, §7.7). */
  const span = <W extends { start: number | null; end: number | null }>(w: W) => ({ ...w, startTime: time(w.start), endTime: time(w.end) });
  const window = <W extends { start: number | null; end: number | null }>(category: string, i: number, w: W) => {
    const s = span(w);
    events.push({ name: `${category} ${i} start`, category, time: s.startTime }, { name: `${category} ${i} end`, category, time: s.endTime });
    return s;
  };
  if (loop) window('loop', 0, { start: loopFrames![0]!, end: loopFrames![1]! });
  return new AnimClip({
    name,
    curves,
    duration: kt[n - 1]!,
    events,
    metadata: {
      pose: pose.number,
      source: pose.source ?? 0,
      startFrame: S,
      endFrame: E,
      fps: amb.fps,
      loop,
      loopFrames,
      link: pose.link,
      effectId: pose.effectId,
      effectType: pose.effectType,
      segments: pose.segments.map(span),
      attacks: pose.attacks.map((a, i) => window('attack', i, a)),
      drags: pose.drags.map((d, i) => window('drag', i, d)),
      nextPoses: pose.nextPoses.map((x, i) => window('next-pose', i, x)),
    },
  });
}
