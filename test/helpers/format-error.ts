import { expect } from 'vitest';
import { FormatError } from '../../src/errors.js';

/** The FormatError that `fn` throws (fails the test when it returns or throws anything else). */
export function catchFormatError(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

/** `code` and `line` of the FormatError that `fn` throws. */
export function errorLine(fn: () => unknown): { code: string; line: number | undefined } {
  const e = catchFormatError(fn);
  return { code: e.code, line: e.line };
}
