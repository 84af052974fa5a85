import { CommanderError } from 'commander';
import { AnimcoreError, FormatError, UsageError } from '../errors.js';

/** Plain words for the file-system errors a user meets (instead of `ENOENT: no such file or directory, open 'x'`). */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many levels of symbolic links (a link cycle)',
  ENAMETOOLONG: 'the name is too long',
  ENOSPC: 'no space left on the device',
  EFBIG: 'the file is too large to write',
  EROFS: 'the file system is read-only',
  EMFILE: 'too many open files',
  EEXIST: 'already exists',
};

/** Whether `e` is a file-system error (`code` such as `ENOENT`). */
export function isFsError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

/** A short machine-readable code of `e`: a `FormatError`'s code (`truncated`, `bad-magic` …), a file-system code (`ENOENT`), else the error's name. */
export function codeOf(e: unknown): string {
  if (e instanceof FormatError || isFsError(e)) return e.code!;
  return e instanceof Error ? e.name : 'Error';
}

/**
 * Why `e` happened, in one line, for an error met while handling `file`: plain words for
 * file-system errors (prefixed with the path they name when that is not `file`, e.g. a companion),
 * the message for animcore's errors.
 */
export function reasonOf(e: unknown, file?: string): string {
  if (isFsError(e)) {
    const reason = FS_REASONS[e.code!] ?? e.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
    return e.path === undefined || e.path === file ? reason : `${e.path}: ${reason}`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** One line naming the file and saying what went wrong: `<file>: <reason>` (the file once, even when the reason names it). */
export function errorLine(e: unknown, file?: string): string {
  const reason = reasonOf(e, file);
  if (file === undefined) return reason;
  return reason.includes(file) ? reason : `${file}: ${reason}`;
}

/** Exit status of an error: 2 for misuse (usage errors, bad options), 1 for anything else. */
export function exitCodeOf(e: unknown): number {
  return e instanceof UsageError || (e instanceof CommanderError && e.exitCode !== 0) ? 2 : 1;
}

/** Whether `e` is an error the CLI reports in one line (animcore's or the file system's); others are bugs, reported with their stack. */
export function isExpected(e: unknown): boolean {
  return e instanceof AnimcoreError || isFsError(e);
}

/**
 * Reports an error met while handling `file` on stderr (`animcore: <file>: <reason>`) and raises the
 * exit status to its code; errors that are no animcore or file-system error (bugs) are thrown on.
 */
export function reportFileError(e: unknown, file: string): void {
  if (!isExpected(e)) throw e;
  console.error(`animcore: ${errorLine(e, file)}`);
  process.exitCode = Math.max(Number(process.exitCode ?? 0), exitCodeOf(e));
}
