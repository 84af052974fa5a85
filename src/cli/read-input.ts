import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import prettyBytes from 'pretty-bytes';
import { AnimcoreError } from '../errors.js';

/** Default of `--max-input-mb`: the largest file read, in MiB. */
export const DEFAULT_MAX_INPUT_MB = 256;

/** An input the CLI refuses before reading it: no regular file, or over the size limit. */
export class InputError extends AnimcoreError {}

/** What a non-regular file is, in words. */
function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'is a folder, not a file';
  if (s.isFIFO()) return 'is a named pipe (FIFO), not a regular file';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'is a device, not a regular file';
  if (s.isSocket()) return 'is a socket, not a regular file';
  return 'is not a regular file';
}

/**
 * Reads a whole input file. Only regular files are read, and only up to `maxBytes`: both are
 * checked on the open descriptor before any byte is read (opened non-blocking, so a FIFO never
 * waits for a writer; `/dev/zero` never streams). A file that shrinks while read gives the bytes
 * there were; one that grows gives its size at the check.
 * @throws InputError for a folder, FIFO, device or socket, or a file over `maxBytes` (naming the
 *   `--max-input-mb` option); the file system's errors (ENOENT, EACCES, ELOOP …)
 */
export function readInputFile(path: string, maxBytes: number): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new InputError(`${path}: ${kindOf(stats)}`);
    if (stats.size > maxBytes) {
      throw new InputError(`${path}: ${prettyBytes(stats.size)}, over the input limit of ${prettyBytes(maxBytes)} (raise it with --max-input-mb)`);
    }
    const bytes = new Uint8Array(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return read === bytes.length ? bytes : bytes.slice(0, read);
  } finally {
    closeSync(fd);
  }
}
