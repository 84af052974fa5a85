import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** A sequence file's text. @throws UsageError naming the file when it cannot be read */
export function readSequenceFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--sequence ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Runs `f`, naming the sequence file in its `UsageError`s (which name the JSON path inside it). */
export function inSequenceFile<T>(path: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof UsageError ? new UsageError(`${path}: ${e.message}`) : e;
  }
}
