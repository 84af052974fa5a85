import { appendFileSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { readInputFile } from './read-input.js';

/**
 * The file in `--out` where animcore records every output it writes (one JSON line: the path
 * relative to `--out` and the SHA-256 of the bytes), so that `--force` replaces only outputs of
 * earlier runs that nobody changed since, never an unrelated file of the same name.
 */
export const OUTPUT_LOG = '.animcore-outputs.jsonl';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The recorded outputs of `out`: absolute path → SHA-256 (the last line of a path wins); empty when there is no log. */
export function readOutputLog(out: string): Map<string, string> {
  const recorded = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(join(out, OUTPUT_LOG), 'utf8');
  } catch {
    return recorded;
  }
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { path?: unknown; sha256?: unknown };
      if (typeof entry.path === 'string' && typeof entry.sha256 === 'string') recorded.set(join(out, entry.path), entry.sha256);
    } catch {
      // a line cut by a crash: that output is not known to be animcore's
    }
  }
  return recorded;
}

/** Appends the outputs just written (one `write` per line: lines of parallel workers do not mix). */
export function recordOutputs(out: string, files: readonly { path: string; bytes: Uint8Array }[]): void {
  for (const f of files) appendFileSync(join(out, OUTPUT_LOG), `${JSON.stringify({ path: relative(out, f.path), sha256: sha256(f.bytes) })}\n`);
}

/** Whether the file at `path` is the output recorded with `recordedSha` (unchanged since animcore wrote it). */
export function isEarlierOutput(path: string, recordedSha: string | undefined): boolean {
  if (recordedSha === undefined) return false;
  try {
    return sha256(readInputFile(path, Number.POSITIVE_INFINITY)) === recordedSha;
  } catch {
    return false;
  }
}
