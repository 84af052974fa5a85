import { type AnimClip, isLinearUnityCurve, lanesShareKeyTimes, type UnityCurve } from '../anim/index.js';
import { UsageError } from '../errors.js';
import { type KernelExports, UNITY_BOOL, UNITY_ROTATION, UNITY_SHARED, UNITY_STATIC } from './kernel-exports.js';
import type { MemoryViews } from './memory-views.js';

const CURVE_WORDS = 8;
const LANE_WORDS = 12;

/** Where one lane's arrays go in the arena (word offsets; −1 = not stored). */
interface LanePlan {
  lane: UnityCurve;
  linear: boolean;
  time: number;
  value: number;
  rest: number;
}

/**
 * Copies a clip whose curves are all `static` or `unity` into one wasm block laid out for
 * `unityClipSample` (assembly/unity-curve.ts): one record per curve (static and inactive curves
 * carry their value: the static value, or each lane's first key), one record per lane, and the key
 * arrays in an arena. Linear lanes store only times and values; lanes of a curve that share key
 * times share one time array. Returns the block pointer. The clip is not modified.
 */
export function writeUnityClip(kernel: KernelExports, views: MemoryViews, clip: AnimClip): number {
  const plans: LanePlan[] = [];
  const records: { flags: number; firstLane: number; laneCount: number; value: ArrayLike<number> }[] = [];
  let words = 0;
  clip.curves.forEach((c, i) => {
    const keys = c.keys;
    if (keys.encoding === 'static') {
      records.push({ flags: UNITY_STATIC, firstLane: 0, laneCount: 0, value: keys.value });
    } else if (keys.encoding !== 'unity') {
      throw new UsageError(`clip "${clip.name}" curve ${i}: ${keys.encoding} keys are not Unity curves`);
    } else if (!c.active) {
      records.push({ flags: UNITY_STATIC, firstLane: 0, laneCount: 0, value: keys.lanes.map((l) => (l.time.length > 0 ? l.value[0]! : 0)) });
    } else {
      const shared = lanesShareKeyTimes(keys.lanes);
      const flags =
        (c.curveType === 'bool' ? UNITY_BOOL : 0) | (c.curveType === 'rotation' ? UNITY_ROTATION : 0) | (shared ? UNITY_SHARED : 0);
      records.push({ flags, firstLane: plans.length, laneCount: keys.lanes.length, value: [] });
      keys.lanes.forEach((lane, j) => {
        const n = lane.time.length;
        const linear = isLinearUnityCurve(lane);
        const time = shared && j > 0 ? plans[plans.length - j]!.time : words;
        if (!(shared && j > 0)) words += n;
        const value = words;
        words += n;
        const rest = linear ? -1 : words;
        if (!linear) words += 5 * n;
        plans.push({ lane, linear, time, value, rest });
      });
    }
  });

  const p = kernel.unityClipCreate(clip.curves.length, plans.length, words);
  // Views are taken after the allocation, which may have grown memory.
  const f32 = views.f32;
  const u32 = views.u32;
  const i32 = new Int32Array(f32.buffer);
  const arena = kernel.unityClipArena(p);
  const arenaWord = arena >>> 2;
  const curves = kernel.unityClipCurves(p) >>> 2;
  records.forEach((r, i) => {
    const at = curves + CURVE_WORDS * i;
    u32[at] = 16 * i;
    u32[at + 1] = r.flags;
    u32[at + 2] = r.firstLane;
    u32[at + 3] = r.laneCount;
    f32.set(r.value, at + 4);
  });
  const lanes = kernel.unityClipLanes(p) >>> 2;
  const ptr = (word: number): number => arena + 4 * word;
  plans.forEach((plan, j) => {
    const { lane } = plan;
    const n = lane.time.length;
    const at = lanes + LANE_WORDS * j;
    u32[at] = n;
    i32[at + 1] = lane.preWrapMode;
    i32[at + 2] = lane.postWrapMode;
    u32[at + 3] = plan.linear ? 1 : 0;
    u32[at + 4] = ptr(plan.time);
    u32[at + 5] = ptr(plan.value);
    f32.set(lane.time, arenaWord + plan.time);
    f32.set(lane.value, arenaWord + plan.value);
    if (plan.rest >= 0) {
      const arrays = [lane.inTangent, lane.outTangent, lane.inWeight, lane.outWeight];
      arrays.forEach((a, m) => {
        u32[at + 6 + m] = ptr(plan.rest + m * n);
        f32.set(a, arenaWord + plan.rest + m * n);
      });
      u32[at + 10] = ptr(plan.rest + 4 * n);
      i32.set(lane.weightedMode, arenaWord + plan.rest + 4 * n);
    }
  });
  views.u8.set(
    clip.curves.map((c) => (c.active ? 1 : 0)),
    kernel.unityClipCounts(p),
  );
  return p;
}
