import { unityCurve, type UnityCurve } from '../anim/index.js';
import { MRTK_JOINT_COUNT, type MrtkHand, type MrtkPoseCurves, writeMrtk } from '../formats/mrtk/index.js';

/** 10 keys per second for 1.5 s. */
const KEYS = 16;
const STEP = 0.1;
const TIMES = Array.from({ length: KEYS }, (_, k) => k * STEP);

function curve(value: (t: number) => number): UnityCurve {
  return unityCurve({ time: TIMES, value: TIMES.map(value) });
}

/** A pose whose position and rotation (about Z, radians) follow the given functions of time. */
function pose(position: (t: number) => [number, number, number], angle: (t: number) => number): MrtkPoseCurves {
  return {
    position: [curve((t) => position(t)[0]), curve((t) => position(t)[1]), curve((t) => position(t)[2])],
    rotation: [curve(() => 0), curve(() => 0), curve((t) => Math.sin(angle(t) / 2)), curve((t) => Math.cos(angle(t) / 2))],
  };
}

const empty = (): UnityCurve => unityCurve({ time: [], value: [] });
const emptyPose = (): MrtkPoseCurves => ({ position: [empty(), empty(), empty()], rotation: [empty(), empty(), empty(), empty()] });

/**
 * An MRTK2 input-animation recording (v1.1) of a right hand waving for 1.5 s at 10 keys/s, written
 * by the project's own `writeMrtk`: the camera drifts forward; the right hand is tracked from
 * 0.2 s, pinches between 0.6 s and 1.0 s, and its 27 joints swing about the wrist (joint j sits
 * 1.5 cm·j above it); the left hand is never tracked (empty curves); a `wave` marker at 0.7 s.
 */
export function makeMrtkHandWave(): Uint8Array {
  const swing = (t: number) => 0.5 * Math.sin(2 * Math.PI * t);
  const wrist: [number, number, number] = [0.2, -0.1, 0.5];
  const joints = Array.from({ length: MRTK_JOINT_COUNT }, (_, j) =>
    pose(
      (t) => [wrist[0] - 0.015 * j * Math.sin(swing(t)), wrist[1] + 0.015 * j * Math.cos(swing(t)), wrist[2]],
      swing,
    ),
  );
  const right: MrtkHand = {
    tracked: unityCurve({ time: [0, 0.2], value: [0, 1] }),
    pinching: unityCurve({ time: [0, 0.6, 1.0], value: [0, 1, 0] }),
    joints,
  };
  const left: MrtkHand = {
    tracked: unityCurve({ time: [0], value: [0] }),
    pinching: unityCurve({ time: [0], value: [0] }),
    joints: Array.from({ length: MRTK_JOINT_COUNT }, emptyPose),
  };
  return writeMrtk({
    versionMajor: 1,
    versionMinor: 1,
    camera: pose((t) => [0, 0, 0.1 * t], () => 0),
    hands: { left, right },
    gaze: null,
    markers: [{ time: 0.7, name: 'wave' }],
  });
}
