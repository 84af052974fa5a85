import { FormatError } from '../../errors.js';
import { describeBadValue, isFileValue } from '../value-range.js';

/**
 * Typed reads of an untrusted glTF JSON document. Each takes the value and its JSON pointer and
 * throws a `FormatError` (format `gltf`, code `bad-json-value`) naming the pointer when the value
 * is not what the glTF 2.0 schema allows, so later code never meets a wrong type.
 */

export type JsonObject = Record<string, unknown>;

export function fail(pointer: string, message: string, code = 'bad-json-value'): never {
  throw new FormatError('gltf', code, { pointer }, message);
}

export function object(value: unknown, pointer: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(pointer, `expected a JSON object, found ${describe(value)}`);
  return value as JsonObject;
}

/** The array at `pointer`; `undefined` gives `[]` unless `required`. */
export function array(value: unknown, pointer: string, required = false): unknown[] {
  if (value === undefined && !required) return [];
  if (!Array.isArray(value)) fail(pointer, `expected a JSON array, found ${describe(value)}`);
  return value;
}

/** An integer in [min, max]; `undefined` gives `fallback` when one is given. */
export function integer(value: unknown, pointer: string, min: number, max = Number.MAX_SAFE_INTEGER, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(pointer, `expected an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}, found ${describe(value)}`);
  }
  return value;
}

/** An index into a collection of `length` items named `what` (e.g. `accessors`). */
export function index(value: unknown, pointer: string, length: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= length) {
    fail(pointer, `expected an index into the ${length} ${what}, found ${describe(value)}`, 'bad-index');
  }
  return value;
}

/**
 * A model value (node TRS, matrix, morph weights): a number within ±1e38 (value-range.ts, so it
 * stays a float32 and so do differences of two); `undefined` gives `fallback` when one is given.
 */
export function finite(value: unknown, pointer: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number') fail(pointer, `expected a finite number, found ${describe(value)}`);
  if (!isFileValue(value)) fail(pointer, describeBadValue(value));
  return value;
}

/** `n` finite numbers, or `fallback` when the value is absent. */
export function numbers(value: unknown, pointer: string, n: number, fallback?: readonly number[]): number[] {
  if (value === undefined && fallback !== undefined) return [...fallback];
  const a = array(value, pointer, true);
  if (a.length !== n) fail(pointer, `expected ${n} numbers, found ${a.length}`);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(finite(a[i], `${pointer}/${i}`));
  return out;
}

export function string(value: unknown, pointer: string): string {
  if (typeof value !== 'string') fail(pointer, `expected a string, found ${describe(value)}`);
  return value;
}

export function optionalString(value: unknown, pointer: string): string | undefined {
  return value === undefined ? undefined : string(value, pointer);
}

/** A JSON value for a message: `nothing`, or its JSON cut to 40 characters. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
