import { UsageError } from '../errors.js';
import type { AnimCurve, CubicKeys, KeyedKeys } from './curve.js';
import { timedValueLength, uniformValueLength } from './packed-keys.js';
import type { AnimEvent } from './event.js';
import { InfinityType } from './infinity-type.js';
import type { RotationMode } from './sample-options.js';

/** What `new AnimClip(init)` takes. */
export interface AnimClipInit {
  name: string;
  curves: AnimCurve[];
  /** Keys per uniform curve; required when any curve is `uniform`. */
  keyCount?: number;
  /** Seconds between uniform keys; required when any curve is `uniform`. */
  keyDuration?: number;
  /**
   * Seconds; defaults to `keyCount × keyDuration` (Nebula3 clip duration) when the clip has a key
   * grid, else to the latest key time (at least 0), as for keyed clips.
   */
  duration?: number;
  preInfinity?: InfinityType;
  postInfinity?: InfinityType;
  /**
   * How rotations interpolate when a sampling call does not say (`SampleOptions.rotation`):
   * default `nlerp` (the fast mode); `slerp` for formats whose rule is slerp (glTF 2.0 Appendix C).
   */
  rotation?: Exclude<RotationMode, 'raw'>;
  events?: AnimEvent[];
  /** Format facts that belong to this clip (e.g. Nebula `startKey`, `fadeInFrames`). */
  metadata?: Record<string, unknown>;
}

/**
 * A set of curves sampled together at one time (after Nebula3 `CoreAnimation::AnimClip`).
 * Constructing a clip checks that its uniform curves agree with `keyCount`; a mismatch is a
 * `UsageError`. Clips are immutable plain data: no wasm, no I/O.
 */
export class AnimClip {
  readonly name: string;
  readonly curves: readonly AnimCurve[];
  readonly keyCount: number;
  /** Seconds between uniform keys (0 for clips without uniform curves). */
  readonly keyDuration: number;
  /** Seconds. */
  readonly duration: number;
  readonly preInfinity: InfinityType;
  readonly postInfinity: InfinityType;
  /** Rotation interpolation when a sampling call does not choose one. */
  readonly rotation: Exclude<RotationMode, 'raw'>;
  /** Sorted by time. */
  readonly events: readonly AnimEvent[];
  readonly metadata: Readonly<Record<string, unknown>>;

  constructor(init: AnimClipInit) {
    this.name = init.name;
    this.curves = init.curves;
    this.keyCount = init.keyCount ?? 0;
    this.keyDuration = init.keyDuration ?? 0;
    // Loops, not callbacks made per clip (V8 compiled those again for most clips read: issue 15).
    let hasUniform = false;
    for (const c of init.curves) if (c.keys.encoding === 'uniform') hasUniform = true;
    if (hasUniform) {
      if (!Number.isInteger(this.keyCount) || this.keyCount < 1) {
        throw new UsageError(`clip "${init.name}": keyCount must be a positive integer, got ${init.keyCount}`);
      }
      if (!(this.keyDuration > 0) || !Number.isFinite(this.keyDuration)) {
        throw new UsageError(`clip "${init.name}": keyDuration must be a positive number of seconds, got ${init.keyDuration}`);
      }
    }
    // Curves sharing one times array (a glTF sampler input; 1,920 curves of a 64-joint rig) have it checked once.
    const checkedTimes = new Set<Float32Array>();
    for (let i = 0; i < init.curves.length; i++) {
      const c = init.curves[i]!;
      if (c.keys.encoding === 'uniform' && uniformValueLength(c.keys) !== 4 * this.keyCount) {
        throw new UsageError(
          `clip "${init.name}" curve ${i}: ${uniformValueLength(c.keys)} floats, expected 4 × keyCount = ${4 * this.keyCount}`,
        );
      }
      if (c.keys.encoding === 'keyed' || c.keys.encoding === 'cubic') checkTimed(init.name, i, c.keys, checkedTimes);
      if (c.keys.encoding === 'static' && c.keys.value.length !== 4) {
        throw new UsageError(`clip "${init.name}" curve ${i}: a static value has 4 floats, got ${c.keys.value.length}`);
      }
      if (c.keys.encoding === 'unity' && (c.keys.lanes.length < 1 || c.keys.lanes.length > 4)) {
        throw new UsageError(`clip "${init.name}" curve ${i}: unity keys have 1–4 lanes, got ${c.keys.lanes.length}`);
      }
    }
    const hasKeyGrid = this.keyCount > 0 && this.keyDuration > 0;
    this.duration = init.duration ?? (hasKeyGrid ? this.keyCount * this.keyDuration : lastKeyTime(init.curves));
    if (!(this.duration >= 0) || !Number.isFinite(this.duration)) {
      throw new UsageError(`clip "${init.name}": duration must be a finite number of seconds >= 0, got ${init.duration}`);
    }
    this.preInfinity = init.preInfinity ?? InfinityType.Constant;
    this.postInfinity = init.postInfinity ?? InfinityType.Constant;
    this.rotation = init.rotation ?? 'nlerp';
    if (this.rotation !== 'nlerp' && this.rotation !== 'slerp') {
      throw new UsageError(`clip "${init.name}": rotation must be 'nlerp' or 'slerp', got ${JSON.stringify(init.rotation)}`);
    }
    this.events = [...(init.events ?? [])].sort((a, b) => a.time - b.time);
    this.metadata = init.metadata ?? {};
  }

  /**
   * This clip (name, key grid, duration, infinity, rotation, events, metadata) over other curves,
   * as a conversion of its keys makes it.
   * @throws UsageError as the constructor does
   */
  withCurves(curves: AnimCurve[]): AnimClip {
    const { name, keyCount, keyDuration, duration, preInfinity, postInfinity, rotation, metadata } = this;
    return new AnimClip({ name, curves, keyCount, keyDuration, duration, preInfinity, postInfinity, rotation, events: [...this.events], metadata });
  }

  private storedKeys: number | undefined;

  /**
   * Number of stored keys over all curves (static curves count one; cubic keys one each, tangents
   * included; unity curves their keys over all lanes). Counted once: it stays readable after the
   * key arrays are dropped (`dropKeys`).
   */
  get storedKeyCount(): number {
    if (this.storedKeys === undefined) {
      let n = 0;
      for (const c of this.curves) {
        if (c.keys.encoding === 'uniform') n += this.keyCount;
        else if (c.keys.encoding === 'keyed' || c.keys.encoding === 'cubic') n += c.keys.times.length;
        else if (c.keys.encoding === 'unity') for (const l of c.keys.lanes) n += l.time.length;
        else n += 1;
      }
      this.storedKeys = n;
    }
    return this.storedKeys;
  }
}

function lastKeyTime(curves: readonly AnimCurve[]): number {
  let t = 0;
  for (const c of curves) {
    if (c.keys.encoding === 'keyed' || c.keys.encoding === 'cubic') t = Math.max(t, c.keys.times[c.keys.times.length - 1]!);
  }
  return t;
}

/** Checks a keyed or cubic curve's counts and interpolation, and its times unless `checked` holds them (then adds them). */
function checkTimed(clip: string, i: number, keys: KeyedKeys | CubicKeys, checked: Set<Float32Array>): void {
  const n = keys.times.length;
  const perKey = keys.encoding === 'cubic' ? 12 : 4;
  const floats = timedValueLength(keys);
  if (n < 1 || floats !== perKey * n) {
    throw new UsageError(`clip "${clip}" curve ${i}: ${n} key times and ${floats} floats; need ≥ 1 key and ${perKey} floats per key`);
  }
  if (keys.encoding === 'keyed' && keys.interpolation !== undefined && keys.interpolation !== 'linear' && keys.interpolation !== 'step') {
    throw new UsageError(`clip "${clip}" curve ${i}: interpolation must be 'linear' or 'step', got ${JSON.stringify(keys.interpolation)}`);
  }
  if (checked.has(keys.times)) return;
  checked.add(keys.times);
  for (let k = 0; k < n; k++) {
    if (!Number.isFinite(keys.times[k]!) || (k > 0 && keys.times[k]! < keys.times[k - 1]!)) {
      throw new UsageError(`clip "${clip}" curve ${i}: key time ${k} (${keys.times[k]}) is not finite or decreases`);
    }
  }
}
