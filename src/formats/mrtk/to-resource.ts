import { AnimClip, type AnimCurve, AnimResource, type CurveType, type SourceAxes, staticKeys, type StaticKeys, type UnityCurve } from '../../anim/index.js';
import type { MrtkPoseCurves, MrtkRecording } from './recording.js';
import { TRACKED_HAND_JOINTS } from './tracked-hand-joint.js';

const HANDS = ['left', 'right'] as const;

/** MRTK records Unity world-space poses (spec mrtk.md §4): Unity is Y-up and left-handed, in metres (§3.1's thresholds). */
export const MRTK_AXES: SourceAxes = { up: 'y', handedness: 'left', basis: 'Unity world space, spec mrtk.md §4' };

function unityCurveOf(curveType: CurveType, joint: string, property: string, lanes: readonly UnityCurve[]): AnimCurve {
  return { curveType, target: { joint, property }, active: true, keys: { encoding: 'unity', lanes } };
}

function staticCurve(curveType: CurveType, joint: string, property: string, keys: StaticKeys): AnimCurve {
  return { curveType, target: { joint, property }, active: true, keys };
}

/** Translation and rotation of a pose, or MRTK's `ZeroIdentity` when absent (spec mrtk.md §4.2). */
function poseCurves(joint: string, pose: MrtkPoseCurves | null): AnimCurve[] {
  if (pose === null) {
    return [staticCurve('translation', joint, 'translation', staticKeys(0, 0, 0, 0)), staticCurve('rotation', joint, 'rotation', staticKeys(0, 0, 0, 1))];
  }
  return [unityCurveOf('translation', joint, 'translation', pose.position), unityCurveOf('rotation', joint, 'rotation', pose.rotation)];
}

/** The largest last-key time over `curves` (MRTK `Duration`, spec mrtk.md §4.4), at least 0. */
function lastKeyTime(curves: readonly AnimCurve[]): number {
  let end = 0;
  for (const c of curves) {
    if (c.keys.encoding !== 'unity') continue;
    for (const l of c.keys.lanes) if (l.time.length > 0) end = Math.max(end, l.time[l.time.length - 1]!);
  }
  return end;
}

/**
 * An MRTK recording as an `AnimResource` with one clip of `unity` curves (spec mrtk.md §4), in
 * this order and with these targets (`joint`, `property`):
 * - `camera` `translation`, `rotation`;
 * - `left` `tracked`, `left` `pinching`, `right` `tracked`, `right` `pinching` — Bool, sampling
 *   `[0|1, 0, 0, 0]`;
 * - per hand (`left`, then `right`) and `TrackedHandJoint` (27, `None` first): `<hand>/<joint>`
 *   (e.g. `left/IndexTip`) `translation`, `rotation`;
 * - `gaze` `origin` (Translation) and `direction` (Float4, xyz; as stored, while MRTK's `Ray`
 *   normalises it).
 * Poses are world space (no skeleton). Parts the file does not hold (flags false; gaze in 1.0)
 * are static curves with MRTK's defaults (§4.2): poses at the origin with identity rotation, hands
 * not tracked and not pinching, gaze from the origin along (0, 0, 1). Joints with empty curves
 * sample 0 (raw rotation (0, 0, 0, 0)), as in MRTK. The clip lasts until the last key of any curve;
 * markers become events of category `marker`.
 */
export function mrtkToResource(recording: MrtkRecording, name = 'recording'): AnimResource {
  const curves: AnimCurve[] = [...poseCurves('camera', recording.camera)];
  const hands = recording.hands;
  for (const hand of HANDS) {
    for (const property of ['tracked', 'pinching'] as const) {
      curves.push(
        hands === null
          ? staticCurve('bool', hand, property, staticKeys(0, 0, 0, 0))
          : unityCurveOf('bool', hand, property, [hands[hand][property]]),
      );
    }
  }
  for (const hand of HANDS) {
    TRACKED_HAND_JOINTS.forEach((joint, j) => curves.push(...poseCurves(`${hand}/${joint}`, hands === null ? null : hands[hand].joints[j]!)));
  }
  const gaze = recording.gaze;
  if (gaze === null) {
    curves.push(staticCurve('translation', 'gaze', 'origin', staticKeys(0, 0, 0, 0)), staticCurve('float4', 'gaze', 'direction', staticKeys(0, 0, 1, 0)));
  } else {
    curves.push(unityCurveOf('translation', 'gaze', 'origin', gaze.origin), unityCurveOf('float4', 'gaze', 'direction', gaze.direction));
  }
  const duration = lastKeyTime(curves);
  const keyCount = curves.reduce((n, c) => n + (c.keys.encoding === 'unity' ? c.keys.lanes.reduce((m, l) => m + l.time.length, 0) : 0), 0);
  const clip = new AnimClip({
    name,
    curves,
    duration,
    events: recording.markers.map((m) => ({ name: m.name, category: 'marker', time: m.time })),
  });
  return new AnimResource({
    format: 'mrtk',
    clips: [clip],
    axes: MRTK_AXES,
    info: {
      version: `${recording.versionMajor}.${recording.versionMinor}`,
      hasCameraPose: recording.camera !== null,
      hasHandData: hands !== null,
      hasEyeGaze: gaze !== null,
      curves: curves.length,
      keys: keyCount,
      markers: recording.markers.length,
      duration,
    },
  });
}
