import { type AnimClip, isLinearUnityCurve, lanesShareKeyTimes, type UnityCurve } from '../../anim/index.js';
import { UsageError } from '../../errors.js';
import {
  KIND_UNITY,
  UNITY_BOOL,
  UNITY_COUNTS,
  UNITY_CURVE_COUNT,
  UNITY_CURVE_FIRST_LANE,
  UNITY_CURVE_FLAGS,
  UNITY_CURVE_LANES,
  UNITY_CURVE_OUT,
  UNITY_CURVE_SIZE,
  UNITY_CURVE_VALUE,
  UNITY_CURVES,
  UNITY_HEADER_SIZE,
  UNITY_LANE_COUNT,
  UNITY_LANE_IN_TANGENT,
  UNITY_LANE_IN_WEIGHT,
  UNITY_LANE_KEY_COUNT,
  UNITY_LANE_LINEAR,
  UNITY_LANE_MODE,
  UNITY_LANE_OUT_TANGENT,
  UNITY_LANE_OUT_WEIGHT,
  UNITY_LANE_POST,
  UNITY_LANE_PRE,
  UNITY_LANE_SIZE,
  UNITY_LANE_TIME,
  UNITY_LANE_VALUE,
  UNITY_LANES,
  UNITY_LINEAR4,
  UNITY_ROTATION,
  UNITY_SHARED,
  UNITY_STATIC,
} from '../../../assembly/layout.js';
import type { KernelMemory } from '../kernel-memory.js';
import type { KeyEncoding } from './key-encoding.js';

/** Where one lane's arrays go in the arena (word offsets; −1 = not stored). */
interface LanePlan {
  lane: UnityCurve;
  linear: boolean;
  time: number;
  value: number;
  rest: number;
  /**
   * UNITY_LINEAR4: the curve's lanes, which the first lane writes interleaved at `value` as one
   * float4 per key; `[]` for the other lanes (their records point there too, nothing to write).
   */
  interleaved: readonly UnityCurve[] | null;
}

/** One curve record before it is written. */
interface CurvePlan {
  flags: number;
  firstLane: number;
  laneCount: number;
  value: ArrayLike<number>;
}

/**
 * `unity` keys (MRTK: up to 4 Unity AnimationCurves per curve) for `unityClipSample`
 * (assembly/unity-curve.ts), whole clips only (every curve `static` or `unity`): one record per
 * curve (static and inactive curves carry their value: the static value, or each lane's first
 * key), one record per lane, and the key arrays in an arena. Linear lanes store only times and
 * values; lanes of a curve that share key times share one time array.
 */
export const unityEncoding: KeyEncoding = {
  name: 'unity',
  kind: KIND_UNITY,
  raw: true,
  clipHeader: false,
  write(memory: KernelMemory, clip: AnimClip): number {
    const lanes: LanePlan[] = [];
    const curves: CurvePlan[] = [];
    let words = 0;
    clip.curves.forEach((c, i) => {
      const keys = c.keys;
      if (keys.encoding === 'static') {
        curves.push({ flags: UNITY_STATIC, firstLane: 0, laneCount: 0, value: keys.value });
      } else if (keys.encoding !== 'unity') {
        throw new UsageError(`clip "${clip.name}" curve ${i}: ${keys.encoding} keys are not Unity curves`);
      } else if (!c.active) {
        curves.push({ flags: UNITY_STATIC, firstLane: 0, laneCount: 0, value: keys.lanes.map((l) => (l.time.length > 0 ? l.value[0]! : 0)) });
      } else {
        const shared = lanesShareKeyTimes(keys.lanes);
        const linear4 = shared && c.curveType !== 'bool' && keys.lanes.every(isLinearUnityCurve);
        const flags =
          (c.curveType === 'bool' ? UNITY_BOOL : 0) |
          (c.curveType === 'rotation' ? UNITY_ROTATION : 0) |
          (shared ? UNITY_SHARED : 0) |
          (linear4 ? UNITY_LINEAR4 : 0);
        curves.push({ flags, firstLane: lanes.length, laneCount: keys.lanes.length, value: [] });
        if (linear4) {
          // One time array and one float4 per key; every lane record points at them.
          const n = keys.lanes[0]!.time.length;
          const time = words;
          const value = words + n;
          words += 5 * n;
          keys.lanes.forEach((lane, j) => lanes.push({ lane, linear: true, time, value, rest: -1, interleaved: j === 0 ? keys.lanes : [] }));
          return;
        }
        keys.lanes.forEach((lane, j) => {
          const n = lane.time.length;
          const linear = isLinearUnityCurve(lane);
          const time = shared && j > 0 ? lanes[lanes.length - j]!.time : words;
          if (!(shared && j > 0)) words += n;
          const value = words;
          words += n;
          const rest = linear ? -1 : words;
          if (!linear) words += 5 * n;
          lanes.push({ lane, linear, time, value, rest, interleaved: null });
        });
      }
    });

    const { ptr, arrays } = memory.allocBlock(UNITY_HEADER_SIZE, [UNITY_CURVE_SIZE * curves.length, UNITY_LANE_SIZE * lanes.length, curves.length, 4 * words]);
    const [curveRecords, laneRecords, counts, arena] = arrays as [number, number, number, number];
    // Views are taken after the allocation, which may have grown memory.
    const { f32, u32, i32, u8 } = memory;
    u32[(ptr + UNITY_CURVE_COUNT) >>> 2] = curves.length;
    u32[(ptr + UNITY_LANE_COUNT) >>> 2] = lanes.length;
    u32[(ptr + UNITY_CURVES) >>> 2] = curveRecords;
    u32[(ptr + UNITY_LANES) >>> 2] = laneRecords;
    u32[(ptr + UNITY_COUNTS) >>> 2] = counts;
    curves.forEach((r, i) => {
      const at = curveRecords + UNITY_CURVE_SIZE * i;
      u32[(at + UNITY_CURVE_OUT) >>> 2] = 16 * i;
      u32[(at + UNITY_CURVE_FLAGS) >>> 2] = r.flags;
      u32[(at + UNITY_CURVE_FIRST_LANE) >>> 2] = r.firstLane;
      u32[(at + UNITY_CURVE_LANES) >>> 2] = r.laneCount;
      f32.set(r.value, (at + UNITY_CURVE_VALUE) >>> 2);
    });
    const word = (w: number): number => arena + 4 * w;
    lanes.forEach((plan, j) => {
      const { lane } = plan;
      const n = lane.time.length;
      const at = laneRecords + UNITY_LANE_SIZE * j;
      u32[(at + UNITY_LANE_KEY_COUNT) >>> 2] = n;
      i32[(at + UNITY_LANE_PRE) >>> 2] = lane.preWrapMode;
      i32[(at + UNITY_LANE_POST) >>> 2] = lane.postWrapMode;
      u32[(at + UNITY_LANE_LINEAR) >>> 2] = plan.linear ? 1 : 0;
      u32[(at + UNITY_LANE_TIME) >>> 2] = word(plan.time);
      u32[(at + UNITY_LANE_VALUE) >>> 2] = word(plan.value);
      f32.set(lane.time, word(plan.time) >>> 2);
      if (plan.interleaved === null) f32.set(lane.value, word(plan.value) >>> 2);
      else plan.interleaved.forEach((l, i) => l.value.forEach((v, k) => (f32[(word(plan.value) >>> 2) + 4 * k + i] = v)));
      if (plan.rest < 0) return;
      const arrays = [
        [UNITY_LANE_IN_TANGENT, lane.inTangent],
        [UNITY_LANE_OUT_TANGENT, lane.outTangent],
        [UNITY_LANE_IN_WEIGHT, lane.inWeight],
        [UNITY_LANE_OUT_WEIGHT, lane.outWeight],
      ] as const;
      arrays.forEach(([field, a], m) => {
        u32[(at + field) >>> 2] = word(plan.rest + m * n);
        f32.set(a, word(plan.rest + m * n) >>> 2);
      });
      u32[(at + UNITY_LANE_MODE) >>> 2] = word(plan.rest + 4 * n);
      i32.set(lane.weightedMode, word(plan.rest + 4 * n) >>> 2);
    });
    u8.set(
      clip.curves.map((c) => (c.active ? 1 : 0)),
      counts,
    );
    return ptr;
  },
};
