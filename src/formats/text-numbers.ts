/**
 * Strict number parsing for the text formats (Nebula `.nanim2`, `.n2`, `.constants`; Meteor
 * `.bnc`, `.pos`, `.skc`): the whole token must be a decimal number, `parseFloat`'s habit of
 * accepting `"1.5abc"` is not followed, and a token is scanned once, left to right, so a long run
 * of digits costs linear time (a backtracking regular expression took seconds on 40,000 digits,
 * issue 13). Each function returns `null` for a token it refuses, so the caller can throw a
 * `FormatError` naming the line (see `describeNumber` for the reason).
 */
import { quote } from './text.js';
import { isFileValue, MAX_FILE_VALUE } from './value-range.js';

const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const E_LOWER = 101;
const E_UPPER = 69;

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether `s` is `[+-]?digits` or, with `fraction`, `[+-]?(digits[.digits*] | .digits)([eE][+-]?digits)?`.
 * One pass, no backtracking.
 */
function isDecimal(s: string, fraction: boolean): boolean {
  const n = s.length;
  let i = 0;
  if (i < n && (s.charCodeAt(i) === PLUS || s.charCodeAt(i) === MINUS)) i++;
  let digits = 0;
  while (i < n && isDigit(s.charCodeAt(i))) i++, digits++;
  if (fraction && i < n && s.charCodeAt(i) === DOT) {
    i++;
    while (i < n && isDigit(s.charCodeAt(i))) i++, digits++;
  }
  if (digits === 0) return false;
  if (fraction && i < n && (s.charCodeAt(i) === E_LOWER || s.charCodeAt(i) === E_UPPER)) {
    i++;
    if (i < n && (s.charCodeAt(i) === PLUS || s.charCodeAt(i) === MINUS)) i++;
    let exponent = 0;
    while (i < n && isDigit(s.charCodeAt(i))) i++, exponent++;
    if (exponent === 0) return false;
  }
  return i === n;
}

/** A safe integer written in decimal (leading zeros allowed: `034` is 34), or `null`. */
export function parseIntStrict(token: string | undefined): number | null {
  if (token === undefined || !isDecimal(token, false)) return null;
  const v = Number(token);
  return Number.isSafeInteger(v) ? v : null;
}

/**
 * A decimal number (optionally with an exponent) within ±1e38, the range of file values
 * (`value-range.ts`: every number of these formats is a float32 in the engines that read them and
 * in animcore's memory, and differences of two must stay one), or `null`.
 */
export function parseFloatStrict(token: string | undefined): number | null {
  if (token === undefined || !isDecimal(token, true)) return null;
  const v = Number(token);
  return isFileValue(v) ? v : null;
}

/**
 * Why `token` was refused, for a `FormatError`: `expected an integer, found "12x"`, or the range
 * it breaks (`… is beyond ±2^53`). The token is cut by `quote`.
 */
export function describeNumber(token: string | undefined, kind: 'integer' | 'number'): string {
  if (token === undefined) return `expected ${kind === 'integer' ? 'an integer' : 'a number'}, found nothing`;
  if (kind === 'integer' && isDecimal(token, false)) return `integer ${quote(token)} is beyond ±2^53`;
  if (kind === 'number' && isDecimal(token, true)) return `number ${quote(token)} is beyond ±${MAX_FILE_VALUE}`;
  return `expected ${kind === 'integer' ? 'an integer' : 'a number'}, found ${quote(token)}`;
}
