import { type UnityCurve, UnityWeightedMode } from '../../anim/index.js';
import { ByteReader } from '../binary.js';
import { UNITY_DEFAULT_WEIGHT } from '../../reference/unity-curve.js';
import { describeBadValue, isFileValue, MAX_FILE_VALUE } from '../value-range.js';
import {
  MRTK_BOOL_OUT_WEIGHT,
  MRTK_JOINT_COUNT,
  MRTK_MAGIC,
  type MrtkHand,
  type MrtkMarker,
  type MrtkPoseCurves,
  type MrtkRayCurves,
  type MrtkRecording,
} from './recording.js';

const FORMAT = 'mrtk';

/** How a curve's keys are stored (spec mrtk.md §2.5). */
type KeyLayout = 'full' | 'simple' | 'bool';

const KEY_BYTES: Record<KeyLayout, number> = { full: 28, simple: 8, bool: 8 };

/**
 * One curve: preWrapMode, postWrapMode and count (Int32 each), then `count` keys. Full keys are
 * time, value, inTangent, outTangent, inWeight, outWeight (Float32) and weightedMode (Int32);
 * simple and boolean keys are time and value, the rest reconstructed as MRTK's reader does.
 * The count is checked against the remaining bytes before anything is allocated.
 */
function readCurve(r: ByteReader, layout: KeyLayout, what: string): UnityCurve {
  const preWrapMode = r.i32(`${what} preWrapMode`);
  const postWrapMode = r.i32(`${what} postWrapMode`);
  const countAt = r.offset;
  const n = r.i32(`${what} key count`);
  const stride = KEY_BYTES[layout];
  if (n < 0 || n * stride > r.remaining) {
    r.fail('bad-count', `${what}: ${n} keys of ${stride} bytes do not fit in the ${r.remaining} bytes left`, countAt);
  }
  const time = new Float32Array(n);
  const value = new Float32Array(n);
  const inTangent = new Float32Array(n);
  const outTangent = new Float32Array(n);
  const inWeight = new Float32Array(n);
  const outWeight = new Float32Array(n);
  const weightedMode = new Int32Array(n).fill(UnityWeightedMode.Both);
  const view = r.view;
  let at = r.offset;
  const f32 = (offset: number, what: string, tangent = false): number => {
    const v = view.getFloat32(offset, true);
    // Unity marks a stepped key with an infinite tangent (spec mrtk.md §6.2); NaN and finite
    // magnitudes beyond ±1e38 have no use.
    if (!isFileValue(v) && !(tangent && Math.abs(v) === Infinity)) r.fail('bad-value', `${what}: ${describeBadValue(v)}`, offset);
    return v;
  };
  for (let k = 0; k < n; k++, at += stride) {
    const key = `${what} key ${k}`;
    time[k] = f32(at, `${key} time`);
    if (k > 0 && time[k]! < time[k - 1]!) r.fail('decreasing-time', `${key} time ${time[k]} is before the previous key's ${time[k - 1]}; Unity keeps keys sorted`, at);
    value[k] = f32(at + 4, `${key} value`);
    if (layout === 'full') {
      inTangent[k] = f32(at + 8, `${key} inTangent`, true);
      outTangent[k] = f32(at + 12, `${key} outTangent`, true);
      inWeight[k] = f32(at + 16, `${key} inWeight`);
      outWeight[k] = f32(at + 20, `${key} outWeight`);
      weightedMode[k] = view.getInt32(at + 24, true);
    }
  }
  if (layout === 'bool') outWeight.fill(MRTK_BOOL_OUT_WEIGHT);
  const curve = { time, value, inTangent, outTangent, inWeight, outWeight, weightedMode, preWrapMode, postWrapMode };
  if (layout === 'full') checkSegmentReach(r, curve, r.offset, stride, what);
  r.offset = at;
  return curve;
}

/**
 * Refuses a segment that can sample beyond ±1e38 (issue 13: no finite key samples as Inf). A
 * weighted Bézier segment (spec mrtk.md §6.2) lies within the hull of its control values v0,
 * v0 + w_out·outTangent·Δt, v1 − w_in·inTangent·Δt and v1, and a Hermite one (§6.3) is the Bézier
 * with weights 1/3, so with all four within ±1e38 (value-range.ts) every sample is a float32. A
 * stepped segment (an infinite tangent) samples key values only. Hemisphere alignment negates v1
 * and its inTangent together, which keeps the magnitudes.
 */
function checkSegmentReach(r: ByteReader, c: UnityCurve, keysAt: number, stride: number, what: string): void {
  for (let k = 0; k + 1 < c.time.length; k++) {
    const outTangent = c.outTangent[k]!;
    const inTangent = c.inTangent[k + 1]!;
    if (Math.abs(outTangent) === Infinity || Math.abs(inTangent) === Infinity) continue;
    const dx = c.time[k + 1]! - c.time[k]!;
    const wOut = (c.weightedMode[k]! & 2) !== 0 ? c.outWeight[k]! : UNITY_DEFAULT_WEIGHT;
    const wIn = (c.weightedMode[k + 1]! & 1) !== 0 ? c.inWeight[k + 1]! : UNITY_DEFAULT_WEIGHT;
    const controls = [
      { v: c.value[k]! + wOut * outTangent * dx, key: k, field: 'outTangent', at: keysAt + k * stride + 12 },
      { v: c.value[k + 1]! - wIn * inTangent * dx, key: k + 1, field: 'inTangent', at: keysAt + (k + 1) * stride + 8 },
    ];
    for (const { v, key, field, at } of controls) {
      if (!(Math.abs(v) <= MAX_FILE_VALUE)) {
        r.fail('bad-value', `${what} key ${key} ${field}: over the ${dx} s to the ${field === 'outTangent' ? 'next' : 'previous'} key the curve reaches ${v.toPrecision(3)}; expected a segment within ±${MAX_FILE_VALUE}`, at);
      }
    }
  }
}

function readPose(r: ByteReader, layout: KeyLayout, what: string): MrtkPoseCurves {
  const c = (name: string) => readCurve(r, layout, `${what} ${name}`);
  return {
    position: [c('PositionX'), c('PositionY'), c('PositionZ')],
    rotation: [c('RotationX'), c('RotationY'), c('RotationZ'), c('RotationW')],
  };
}

function readJoints(r: ByteReader, layout: KeyLayout, hand: string): MrtkPoseCurves[] {
  const joints: MrtkPoseCurves[] = [];
  for (let j = 0; j < MRTK_JOINT_COUNT; j++) joints.push(readPose(r, layout, `${hand} joint ${j}`));
  return joints;
}

/** Tracked L, tracked R, pinch L, pinch R, then 27 left and 27 right joint poses (spec mrtk.md §2.3–§2.4). */
function readHands(r: ByteReader, layout: KeyLayout): { left: MrtkHand; right: MrtkHand } {
  const trackedLeft = readCurve(r, 'bool', 'tracked left');
  const trackedRight = readCurve(r, 'bool', 'tracked right');
  const pinchingLeft = readCurve(r, 'bool', 'pinching left');
  const pinchingRight = readCurve(r, 'bool', 'pinching right');
  const left = readJoints(r, layout, 'left');
  const right = readJoints(r, layout, 'right');
  return {
    left: { tracked: trackedLeft, pinching: pinchingLeft, joints: left },
    right: { tracked: trackedRight, pinching: pinchingRight, joints: right },
  };
}

function readRay(r: ByteReader): MrtkRayCurves {
  const c = (name: string) => readCurve(r, 'simple', `eye gaze ${name}`);
  return {
    origin: [c('OriginX'), c('OriginY'), c('OriginZ')],
    direction: [c('DirectionX'), c('DirectionY'), c('DirectionZ')],
  };
}

/** .NET `BinaryReader.Read7BitEncodedInt`: at most 5 bytes, low 7 bits first (spec mrtk.md §2.1). */
function read7BitInt(r: ByteReader, what: string): number {
  const start = r.offset;
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const b = r.u8(what);
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) {
      if (value > 0x7fffffff) r.fail('bad-value', `${what}: ${value} is larger than an Int32`, start);
      return value;
    }
  }
  return r.fail('bad-value', `${what}: a 7-bit encoded Int32 has at most 5 bytes`, start);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Int32 count, then per marker a Float32 time and a length-prefixed UTF-8 name (spec mrtk.md §2.7). */
function readMarkers(r: ByteReader): MrtkMarker[] {
  const countAt = r.offset;
  const count = r.i32('marker count');
  // A marker takes at least 5 bytes (time and a one-byte length).
  if (count < 0 || count * 5 > r.remaining) {
    r.fail('bad-count', `marker count ${count} does not fit in the ${r.remaining} bytes left`, countAt);
  }
  const markers: MrtkMarker[] = [];
  for (let i = 0; i < count; i++) {
    const time = r.value(`marker ${i} time`);
    const length = read7BitInt(r, `marker ${i} name length`);
    const at = r.offset;
    const bytes = r.raw(length, `marker ${i} name`);
    let name: string;
    try {
      name = utf8.decode(bytes);
    } catch {
      return r.fail('bad-value', `marker ${i} name is not valid UTF-8`, at);
    }
    markers.push({ time, name });
  }
  return markers;
}

/**
 * Reads an MRTK2 input-animation recording, versions 1.0 and 1.1 (spec mrtk.md §2): header,
 * v1.1 flags (one byte each; non-zero is true, as .NET reads them), camera pose, hand booleans and
 * 2 × 27 joint poses, v1.1 eye gaze, markers. v1.0 pose curves have 28-byte keys, v1.1 pose and
 * ray curves 8-byte "simple" keys (§2.5). The parse must end exactly at the end of the file.
 * Key times, values, weights and marker times must be finite and within ±1e38 (value-range.ts;
 * tangents may also be ±Infinity, Unity's stepped keys), and key times must not decrease.
 * @throws FormatError (`bad-magic`, `unsupported-version`, `truncated`, `bad-count`, `bad-value`,
 *   `decreasing-time`, `trailing-bytes`) with the byte offset and what was expected
 */
export function readMrtk(bytes: Uint8Array): MrtkRecording {
  const r = new ByteReader(bytes, FORMAT);
  r.need(8, 'the magic number');
  const magic = r.view.getBigUint64(0, true);
  if (magic !== MRTK_MAGIC) {
    r.fail('bad-magic', `expected the input animation magic 0x${MRTK_MAGIC.toString(16)}, found 0x${magic.toString(16)}`);
  }
  r.offset = 8;
  const versionMajor = r.i32('major version');
  const versionMinor = r.i32('minor version');
  if (versionMajor !== 1 || (versionMinor !== 0 && versionMinor !== 1)) {
    r.fail('unsupported-version', `expected version 1.0 or 1.1, found ${versionMajor}.${versionMinor}`, 8);
  }
  let hasCamera = true;
  let hasHands = true;
  let hasGaze = false;
  if (versionMinor === 1) {
    hasCamera = r.u8('hasCameraPose flag') !== 0;
    hasHands = r.u8('hasHandData flag') !== 0;
    hasGaze = r.u8('hasEyeGaze flag') !== 0;
  }
  const layout: KeyLayout = versionMinor === 1 ? 'simple' : 'full';
  const camera = hasCamera ? readPose(r, layout, 'camera') : null;
  const hands = hasHands ? readHands(r, layout) : null;
  const gaze = hasGaze ? readRay(r) : null;
  const markers = readMarkers(r);
  r.expectEnd('the marker list');
  return { versionMajor, versionMinor, camera, hands, gaze, markers };
}
