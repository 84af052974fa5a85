import type { UnityCurve } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import { ByteWriter } from '../binary.js';
import { MRTK_JOINT_COUNT, MRTK_MAGIC, type MrtkHand, type MrtkPoseCurves, type MrtkRecording } from './recording.js';

/** Options of `writeMrtk`. */
export interface WriteMrtkOptions {
  /** Minor version to write, 0 or 1; default the recording's own `versionMinor`. */
  versionMinor?: number;
}

/** Curve header, then full (28-byte) or time-and-value (8-byte) keys (spec mrtk.md §2.5). */
function writeCurve(w: ByteWriter, c: UnityCurve, full: boolean): void {
  w.i32(c.preWrapMode);
  w.i32(c.postWrapMode);
  const n = c.time.length;
  w.i32(n);
  for (let k = 0; k < n; k++) {
    w.f32(c.time[k]!);
    w.f32(c.value[k]!);
    if (full) {
      w.f32(c.inTangent[k]!);
      w.f32(c.outTangent[k]!);
      w.f32(c.inWeight[k]!);
      w.f32(c.outWeight[k]!);
      w.i32(c.weightedMode[k]!);
    }
  }
}

function writePose(w: ByteWriter, pose: MrtkPoseCurves, full: boolean): void {
  for (const c of pose.position) writeCurve(w, c, full);
  for (const c of pose.rotation) writeCurve(w, c, full);
}

function writeHands(w: ByteWriter, left: MrtkHand, right: MrtkHand, full: boolean): void {
  for (const c of [left.tracked, right.tracked, left.pinching, right.pinching]) writeCurve(w, c, false);
  for (const hand of [left, right]) {
    if (hand.joints.length !== MRTK_JOINT_COUNT) {
      throw new UsageError(`a hand has ${MRTK_JOINT_COUNT} joint poses, got ${hand.joints.length}`);
    }
    for (const pose of hand.joints) writePose(w, pose, full);
  }
}

/** .NET `BinaryWriter.Write(string)`: 7-bit encoded UTF-8 byte count, then the bytes. */
function writeString(w: ByteWriter, s: string): void {
  const bytes = new TextEncoder().encode(s);
  let n = bytes.length;
  while (n >= 0x80) {
    w.u8((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  w.u8(n);
  w.bytes(bytes);
}

/**
 * Writes an MRTK2 input-animation recording (spec mrtk.md §2) as version 1.0 or 1.1. Version 1.1
 * writes the three flags and pose/ray curves as "simple" time-and-value keys, as MRTK's final
 * writer does, so converting 1.0 → 1.1 keeps times and values and drops tangents, weights and
 * modes (MRTK's own keys have none that matter: every segment is linear, §6.7). Boolean curves
 * are always time and value. A recording read from a file is written back byte for byte in its
 * own version. Returns the file bytes.
 * @throws UsageError when writing 1.0 from a recording without camera or hands, or with eye gaze
 *   (1.0 has no flags and no gaze), for another minor version, or for a hand without 27 joints
 */
export function writeMrtk(recording: MrtkRecording, options: WriteMrtkOptions = {}): Uint8Array {
  const minor = options.versionMinor ?? recording.versionMinor;
  if (minor !== 0 && minor !== 1) throw new UsageError(`MRTK input animation version 1.${minor} cannot be written; use 1.0 or 1.1`);
  const w = new ByteWriter(true, 1 << 16);
  w.u32(Number(MRTK_MAGIC & 0xffffffffn));
  w.u32(Number(MRTK_MAGIC >> 32n));
  w.i32(1);
  w.i32(minor);
  const { camera, hands, gaze } = recording;
  if (minor === 0) {
    if (camera === null || hands === null || gaze !== null) {
      throw new UsageError('version 1.0 always holds camera and hand curves and never eye gaze; write this recording as 1.1');
    }
    writePose(w, camera, true);
    writeHands(w, hands.left, hands.right, true);
  } else {
    w.u8(camera !== null ? 1 : 0);
    w.u8(hands !== null ? 1 : 0);
    w.u8(gaze !== null ? 1 : 0);
    if (camera !== null) writePose(w, camera, false);
    if (hands !== null) writeHands(w, hands.left, hands.right, false);
    if (gaze !== null) for (const c of [...gaze.origin, ...gaze.direction]) writeCurve(w, c, false);
  }
  w.i32(recording.markers.length);
  for (const m of recording.markers) {
    w.f32(m.time);
    writeString(w, m.name);
  }
  return w.finish();
}
