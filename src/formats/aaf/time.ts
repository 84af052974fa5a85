import { UsageError } from '../../errors.js';

/**
 * How AAF time values (the u16 `animLength` and the f32 key times, same unit) map to seconds
 * (spec aaf.md §2.2). The post does not name the unit; the default is frames at 30 fps.
 */
export interface AafTimeOptions {
  /** Unit of the file's times. Default `frames`. */
  timeUnit?: 'frames' | 'seconds' | 'milliseconds';
  /** Frames per second when the unit is `frames`. Default 30. */
  fps?: number;
}

/** Frames per second assumed when the caller gives none (spec aaf.md §2.2, a decision). */
export const AAF_DEFAULT_FPS = 30;

/**
 * Seconds per file time unit.
 * @throws UsageError when `fps` is not a positive finite number or is given with a unit other
 *   than `frames`, or `timeUnit` is unknown
 */
export function aafSecondsPerUnit(options: AafTimeOptions = {}): number {
  const unit = options.timeUnit ?? 'frames';
  if (options.fps !== undefined) {
    if (unit !== 'frames') throw new UsageError(`AAF: fps is only meaningful with timeUnit 'frames', not '${unit}'`);
    if (!(options.fps > 0) || !Number.isFinite(options.fps)) throw new UsageError(`AAF: fps must be a positive number, got ${options.fps}`);
  }
  switch (unit) {
    case 'frames':
      return 1 / (options.fps ?? AAF_DEFAULT_FPS);
    case 'seconds':
      return 1;
    case 'milliseconds':
      return 0.001;
    default:
      throw new UsageError(`AAF: unknown timeUnit '${String(unit)}' (frames, seconds, milliseconds)`);
  }
}
