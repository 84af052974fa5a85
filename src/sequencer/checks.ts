import { UsageError } from '../errors.js';
import { quote, shorten } from '../formats/text.js';

// Checks of user-given values (API objects and sequence files alike). Each error names the value
// by its path (`jobs[2].fadeIn`) and says what was expected.

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

/** `value` as a plain object with only `known` keys. */
export function checkObject(value: unknown, known: readonly string[], path: string): Record<string, unknown> {
  if (!isRecord(value)) throw new UsageError(`${path}: expected an object, got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new UsageError(`${member(path, key)}: unknown key; known keys: ${known.join(', ')}`);
  }
  return value;
}

export interface NumberRule {
  /** Inclusive lower bound. */
  min?: number;
  /** Inclusive upper bound. */
  max?: number;
  integer?: boolean;
}

/** A finite number within the rule (absent → `fallback`). */
export function checkNumber(value: unknown, path: string, rule: NumberRule, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new UsageError(`${path}: expected a finite number, got ${describe(value)}`);
  if (rule.integer && !Number.isInteger(value)) throw new UsageError(`${path}: expected an integer, got ${value}`);
  if (rule.min !== undefined && value < rule.min) throw new UsageError(`${path}: must be ≥ ${rule.min}, got ${value}`);
  if (rule.max !== undefined && value > rule.max) throw new UsageError(`${path}: must be ≤ ${rule.max}, got ${value}`);
  return value;
}

/** One of `choices` (absent → `fallback`). */
export function checkChoice<T extends string>(value: unknown, path: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new UsageError(`${path}: expected one of ${choices.map((c) => `'${c}'`).join(', ')}, got ${describe(value)}`);
  }
  return value as T;
}

export function checkBoolean(value: unknown, path: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new UsageError(`${path}: expected true or false, got ${describe(value)}`);
  return value;
}

/** A per-curve weight array of `length` values in [0, 1]. */
export function checkMaskArray(value: Float32Array, path: string, length: number): Float32Array {
  if (value.length !== length) throw new UsageError(`${path}: a mask has one weight per curve of the pose layout (${length}), got ${value.length}`);
  const bad = value.findIndex((w) => !(w >= 0 && w <= 1));
  if (bad >= 0) throw new UsageError(`${path}[${bad}]: mask weights lie in [0, 1], got ${value[bad]}`);
  return value;
}

/**
 * The path of `key` in the object at `path`: `path.key`, or `path["…"]` (quoted, cut to 40
 * characters) when the key is long or not a plain name, so that an error stays one short line
 * whatever a file's keys hold.
 */
export function member(path: string, key: string): string {
  return key.length <= 40 && /^[^\s"[\]\\\x00-\x1f]+$/.test(key) ? `${path}.${key}` : `${path}[${quote(key)}]`;
}

/** Names (clips, masks) for an error message: comma-separated, cut to one line. */
export function nameList(names: readonly string[]): string {
  return names.length === 0 ? 'none' : shorten(names.join(', '), 200);
}

export function describe(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number') return String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}
