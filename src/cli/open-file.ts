import { type OpenedFile, type OpenFileOptions, openFile as openLibraryFile } from '../formats/open-file.js';
import { DEFAULT_MAX_INPUT_MB, readInputFile } from './read-input.js';

/** How the CLI opens a file: the library's options, less the reader, plus the size limit. */
export interface CliOpenOptions extends Omit<OpenFileOptions, 'read'> {
  /** Largest file read, in bytes (`--max-input-mb`); default `DEFAULT_MAX_INPUT_MB` MiB. */
  maxInputBytes?: number;
}

/**
 * The library's `openFile` with the CLI's reading: regular files only, each up to the size limit
 * (`readInputFile`), for the main file, the companions and the files found beside it; `bytes` is
 * the size of the main file.
 * @throws as `openFile`, and InputError for a file that is not read
 */
export async function openFile(path: string, options: CliOpenOptions = {}): Promise<OpenedFile & { bytes: number }> {
  const { maxInputBytes = DEFAULT_MAX_INPUT_MB * 1024 * 1024, ...rest } = options;
  let bytes = 0;
  const opened = await openLibraryFile(path, {
    ...rest,
    read: (p) => {
      const b = readInputFile(p, maxInputBytes);
      if (p === path) bytes = b.byteLength;
      return b;
    },
  });
  return { ...opened, bytes };
}
