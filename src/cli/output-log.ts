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

/** A file and the SHA-256 of its bytes: an output as the log, `--report` and `--resume` know it, or an input read. */
export interface HashedFile {
  path: string;
  sha256: string;
}

/** The SHA-256 of the file at `path` now, or undefined when it cannot be read (gone, no regular file). */
export function currentSha256(path: string): string | undefined {
  try {
    return sha256(readInputFile(path, Number.POSITIVE_INFINITY));
  } catch {
    return undefined;
  }
}

/**
 * The recorded outputs of `out`: absolute path → every SHA-256 recorded for it (a path is
 * recorded once per write, before the file is put in place); empty when there is no log.
 */
export function readOutputLog(out: string): Map<string, string[]> {
  const recorded = new Map<string, string[]>();
  let text: string;
  try {
    text = readFileSync(join(out, OUTPUT_LOG), 'utf8');
  } catch {
    return recorded;
  }
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { path?: unknown; sha256?: unknown };
      if (typeof entry.path !== 'string' || typeof entry.sha256 !== 'string') continue;
      const path = join(out, entry.path);
      const shas = recorded.get(path);
      if (shas === undefined) recorded.set(path, [entry.sha256]);
      else if (!shas.includes(entry.sha256)) shas.push(entry.sha256);
    } catch {
      // a line cut by a crash: that output is not known to be animcore's
    }
  }
  return recorded;
}

/**
 * Appends outputs about to be put in place (one `write` per line: lines of parallel workers and
 * shards do not mix). Recorded before the files are placed, so a kill between the two never
 * leaves an output of animcore's that the log does not know (a line without its file is harmless:
 * only a file whose bytes match a recorded SHA-256 is taken as animcore's).
 */
export function recordOutputs(out: string, files: readonly HashedFile[]): void {
  for (const f of files) appendFileSync(join(out, OUTPUT_LOG), `${JSON.stringify({ path: relative(out, f.path), sha256: f.sha256 })}\n`);
}

/** Whether the file at `path` is an output recorded with one of `recordedShas` (unchanged since animcore wrote it). */
export function isEarlierOutput(path: string, recordedShas: readonly string[] | undefined): boolean {
  if (recordedShas === undefined) return false;
  const now = currentSha256(path);
  return now !== undefined && recordedShas.includes(now);
}
