/**
 * Strict number parsing for the Nebula text formats (`.nanim2`, `.n2`, `.constants`): the whole
 * token must be a decimal number; `parseFloat`'s habit of accepting `"1.5abc"` is not followed.
 * Each function returns `null` for a token that is not a number, so the caller can throw a
 * `FormatError` naming the line.
 */

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A safe integer written in decimal, or `null`. */
export function parseIntStrict(token: string | undefined): number | null {
  if (token === undefined || !INT.test(token)) return null;
  const v = Number(token);
  return Number.isSafeInteger(v) ? v : null;
}

/** A finite decimal number (optionally with an exponent), or `null`. */
export function parseFloatStrict(token: string | undefined): number | null {
  if (token === undefined || !FLOAT.test(token)) return null;
  const v = Number(token);
  return Number.isFinite(v) ? v : null;
}

/** Splits text into lines on LF, CRLF or CR. Line `i` of the result is line `i + 1` of the file. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}
