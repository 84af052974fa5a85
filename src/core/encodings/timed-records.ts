import { type AnimClip, type CubicKeys, type CurveKeys, type KeyedKeys, type PackedValues, packedValues } from '../../anim/index.js';
import { sameTimes } from '../../anim/same-times.js';
import {
  CLIP_KEY_COUNT,
  CLIP_SINGLE_COUNT,
  KEYED_FIRST_SLOT,
  KEYED_KEY_COUNT,
  KEYED_LERP_END,
  KEYED_LINEAR_COUNT,
  KEYED_MEMBER_COUNT,
  KEYED_RECORD_SIZE,
  KEYED_TIMES,
  KEYED_VALUES,
} from '../../../assembly/layout.js';
import type { ClipLayout } from '../clip-layout.js';
import { align16, type KernelMemory } from '../kernel-memory.js';
import { writeClipBlock } from './clip-block.js';

/** Slots (curve indices) sharing one array of key times and one interpolation (STEP or not). */
interface TimeGroup {
  readonly times: Float32Array;
  readonly step: boolean;
  readonly linear: number[];
  readonly rotation: number[];
}

/**
 * The slots of `layout` in time groups (assembly/layout.ts KEYED_*): slots whose times are the same
 * array or equal, with the same `step`, form one group; groups in the order of their first slot,
 * each group's non-rotations first, each part in layout order. Equal contents are found through a
 * map keyed by count, first and last time, so a clip of many distinct arrays stays linear.
 */
function timeGroups<K extends KeyedKeys | CubicKeys>(clip: AnimClip, layout: ClipLayout, step: (keys: K) => boolean): TimeGroup[] {
  const groups: TimeGroup[] = [];
  const candidates = new Map<string, TimeGroup[]>();
  let last: TimeGroup | undefined;
  for (const i of layout.slots) {
    const curve = clip.curves[i]!;
    const keys = curve.keys as K;
    const s = step(keys);
    const { times } = keys;
    // The previous slot's times array again (a glTF file's samplers often share one input): its group.
    let group = last !== undefined && last.times === times && last.step === s ? last : undefined;
    if (group === undefined) {
      const id = `${times.length} ${times[0]} ${times[times.length - 1]} ${s}`;
      const list = candidates.get(id) ?? [];
      candidates.set(id, list);
      for (let g = 0; g < list.length && group === undefined; g++) if (sameTimes(list[g]!.times, times)) group = list[g];
      if (group === undefined) {
        group = { times, step: s, linear: [], rotation: [] };
        list.push(group);
        groups.push(group);
      }
    }
    (curve.curveType === 'rotation' ? group.rotation : group.linear).push(i);
    last = group;
  }
  return groups;
}

/**
 * A clip-header block whose slots have their own key times (the keyed and cubic kinds): the slots
 * in time groups (`timeGroups`; groups of one slot first, non-rotations before rotations, then the
 * shared groups; CLIP_SINGLE_COUNT and CLIP_LINEAR_COUNT count the first two), per group a KEYED_* record {keyCount, times (f32 seconds, then two
 * +Inf sentinels that the kernels' cursor reads past the last key), values (every member's keys as
 * stored, `bytesPerKey` per key, key-major), the end of the interpolated keys (0 for STEP), first slot, non-rotation and member counts} at
 * CLIP_KEYS (CLIP_KEY_COUNT groups), its times and values in the same block.
 * @param step whether a slot's keys are held until the next key (glTF STEP)
 * @returns the block pointer
 * @throws the error of a packed member's reader check (`PackedValues.unchecked`), having freed the block
 */
export function writeTimedRecords<K extends KeyedKeys | CubicKeys>(memory: KernelMemory, clip: AnimClip, layout: ClipLayout, bytesPerKey: number, step: (keys: K) => boolean): number {
  // Plain loops and module-level functions, not closures made per call: V8 compiled the per-load
  // closures again after most full garbage collections, and ran them unoptimised meanwhile
  // (--trace-opt; issue 15, gltf-resample: see ARCHITECTURE.md).
  const all = timeGroups(clip, layout, step);
  const singleLinear: TimeGroup[] = [];
  const singleRotation: TimeGroup[] = [];
  const shared: TimeGroup[] = [];
  for (const g of all) (g.linear.length + g.rotation.length > 1 ? shared : g.linear.length === 1 ? singleLinear : singleRotation).push(g);
  const groups = [...singleLinear, ...singleRotation, ...shared];
  const width = bytesPerKey >>> 2;
  const members: number[][] = [];
  const slots: number[] = [];
  let keyBytes = KEYED_RECORD_SIZE * groups.length;
  let widen = false;
  for (const g of groups) {
    const list = [...g.linear, ...g.rotation];
    members.push(list);
    for (const i of list) {
      slots.push(i);
      widen ||= widened(clip.curves[i]!.keys, width) !== undefined;
    }
    keyBytes += align16(4 * (g.times.length + 2)) + bytesPerKey * g.times.length * list.length;
  }
  const { ptr, keys: records } = writeClipBlock(memory, clip, { ...layout, slots, linearCount: singleLinear.length }, clip.duration, keyBytes);
  // Allocated before any view is taken: growing memory detaches them.
  const scratch = widen ? memory.allocBlock(0, [4 * scratchFloats(groups)]).ptr : undefined;
  const { u32 } = memory;
  u32[(ptr + CLIP_KEY_COUNT) >>> 2] = groups.length;
  u32[(ptr + CLIP_SINGLE_COUNT) >>> 2] = singleLinear.length + singleRotation.length;
  let at = records + KEYED_RECORD_SIZE * groups.length;
  let first = 0;
  try {
    for (let g = 0; g < groups.length; g++) {
      at = writeGroup(memory, clip, groups[g]!, members[g]!, records + KEYED_RECORD_SIZE * g, at, first, width, scratch);
      first += members[g]!.length;
    }
  } catch (e) {
    // A reader's check refused a key (`widenRun`): the clip is not loaded.
    memory.free(ptr);
    throw e;
  } finally {
    if (scratch !== undefined) memory.free(scratch);
  }
  return ptr;
}

/** The packed floats of `keys` that `widenKeys` spreads to float4 slots (`width` 4: VEC3/VEC4 ones), else undefined. */
function widened(keys: CurveKeys, width: number): PackedValues | undefined {
  const packed = keys.encoding === 'keyed' ? packedValues(keys) : undefined;
  return packed && width === 4 && (packed.width === 3 || packed.width === 4) ? packed : undefined;
}

/**
 * Group `group`'s KEYED_* record at `r` (its members `list`, the first of them slot `first`) and
 * its times and values from `at`; returns the end of its values.
 */
function writeGroup(memory: KernelMemory, clip: AnimClip, group: TimeGroup, list: readonly number[], r: number, at: number, first: number, width: number, scratch: number | undefined): number {
  const { f32, u32 } = memory;
  const n = group.times.length;
  u32[(r + KEYED_KEY_COUNT) >>> 2] = n;
  u32[(r + KEYED_LERP_END) >>> 2] = group.step ? 0 : n - 1;
  u32[(r + KEYED_FIRST_SLOT) >>> 2] = first;
  u32[(r + KEYED_LINEAR_COUNT) >>> 2] = group.linear.length;
  u32[(r + KEYED_MEMBER_COUNT) >>> 2] = list.length;
  u32[(r + KEYED_TIMES) >>> 2] = at;
  f32.set(group.times, at >>> 2);
  f32[(at >>> 2) + n] = f32[(at >>> 2) + n + 1] = Infinity;
  at += align16(4 * (n + 2));
  u32[(r + KEYED_VALUES) >>> 2] = at;
  const base = at >>> 2;
  // Each member's floats as held: packed keys (`packedKeyedKeys`, a reader's VEC3/VEC4) without
  // making their float4 values; VEC3/VEC4 ones into float4 slots through the kernel's
  // `widenKeys` (one copy into the scratch each), the others here with zeros to `width`.
  const data: Float32Array[] = [];
  const widths: number[] = [];
  const slotsHere: number[] = [];
  // Runs of up to WIDEN_RUN neighbouring members of one packed width go to `widenKeys` together.
  const run: PackedValues[] = [];
  let runStart = 0;
  for (let m = 0; m < list.length; m++) {
    const keys = clip.curves[list[m]!]!.keys as KeyedKeys | CubicKeys;
    const wide = widened(keys, width);
    if (wide) {
      if (run.length === WIDEN_RUN || (run.length > 0 && run[0]!.width !== wide.width)) widenRun(memory, run, n, scratch!, at + 16 * runStart, 16 * list.length);
      if (run.length === 0) runStart = m;
      run.push(wide);
      continue;
    }
    widenRun(memory, run, n, scratch!, at + 16 * runStart, 16 * list.length);
    const packed = keys.encoding === 'keyed' ? packedValues(keys) : undefined;
    packed?.unchecked?.check();
    data.push(packed ? packed.data : keys.values);
    widths.push(packed ? packed.width : width);
    slotsHere.push(base + width * m);
  }
  widenRun(memory, run, n, scratch!, at + 16 * runStart, 16 * list.length);
  const stride = width * list.length;
  // Key-major in both loops, so the writes run through the block in order (member-major writes
  // jump a whole key row each and miss the cache once a group has a hundred members).
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < data.length; j++) {
      const values = data[j]!;
      const w = widths[j]!;
      const from = k * w;
      const to = slotsHere[j]! + k * stride;
      if (w === 4 && width === 4) {
        // Written out for the common float4 keys: a loop over a member's width ran 2.4× slower.
        f32[to] = values[from]!;
        f32[to + 1] = values[from + 1]!;
        f32[to + 2] = values[from + 2]!;
        f32[to + 3] = values[from + 3]!;
      } else {
        let c = 0;
        for (; c < w; c++) f32[to + c] = values[from + c]!;
        for (; c < width; c++) f32[to + c] = 0;
      }
    }
  }
  return at + 4 * width * n * list.length;
}

/**
 * The packed members `run` (n keys each) copied into the scratch and spread by `widenKeys` to their
 * float4 slots from `to`, `stride` bytes a key row; empties `run`. When `widenKeys` found a value
 * that is not a file value, the members' readers test them (`PackedValues.unchecked`: the first
 * bad one throws its `FormatError`); keys no reader left unchecked load as they are.
 */
function widenRun(memory: KernelMemory, run: PackedValues[], n: number, scratch: number, to: number, stride: number): void {
  if (run.length === 0) return;
  const w = run[0]!.width;
  const f32 = memory.f32;
  for (let j = 0; j < run.length; j++) f32.set(run[j]!.data.subarray(0, w * n), (scratch >>> 2) + j * w * n);
  if (memory.kernel.widenKeys(scratch, w, n, run.length, to, stride) !== 0) for (let j = 0; j < run.length; j++) run[j]!.unchecked?.check();
  run.length = 0;
}

/** Members per `widenKeys` call: a key row of eight is two cache lines written at once, and eight members' keys stay in the L2 cache. */
const WIDEN_RUN = 8;

/** Floats of the scratch `widenKeys` reads from: WIDEN_RUN members of the most keys of any group as float4s, and one float more (its width-3 loads read 16 bytes a key). */
function scratchFloats(groups: readonly TimeGroup[]): number {
  return WIDEN_RUN * 4 * groups.reduce((n, g) => Math.max(n, g.times.length), 0) + 1;
}
