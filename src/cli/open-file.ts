import { dirname } from 'node:path';
import { type OpenedFile, type OpenFileOptions, openFile as openLibraryFile } from '../formats/open-file.js';
import { DEFAULT_MAX_INPUT_MB, readInputFile } from './read-input.js';

/** How the CLI opens a file: the library's options, less the reader, plus the size limit; `root` defaults to the file's own folder. */
export interface CliOpenOptions extends Omit<OpenFileOptions, 'read'> {
  /** Largest file read, in bytes (`--max-input-mb`); default `DEFAULT_MAX_INPUT_MB` MiB. */
  maxInputBytes?: number;
}

/** A file the CLI read while opening an input: the path as it was read and its bytes. */
export interface ReadFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The library's `openFile` with the CLI's reading: regular files only, each up to the size limit
 * (`readInputFile`), for the main file, the companions and the files found beside it; `bytes` is
 * the size of the main file; `read` every file read, in order (the main file, companions given or
 * found, candidates weighed for pairing by content, files the input names such as buffers):
 * what the conversion depends on, for `--report` and `--resume`.
 * @throws as `openFile`, and InputError for a file that is not read
 */
export async function openFile(path: string, options: CliOpenOptions = {}): Promise<OpenedFile & { bytes: number; read: ReadFile[] }> {
  const { maxInputBytes = DEFAULT_MAX_INPUT_MB * 1024 * 1024, ...rest } = options;
  let bytes = 0;
  const read: ReadFile[] = [];
  const opened = await openLibraryFile(path, {
    root: dirname(path),
    ...rest,
    read: (p) => {
      const b = readInputFile(p, maxInputBytes);
      if (p === path) bytes = b.byteLength;
      read.push({ path: p, bytes: b });
      return b;
    },
  });
  return { ...opened, bytes, read };
}
