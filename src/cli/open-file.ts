import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AnimResource } from '../anim/index.js';
import type { CompanionUse, Folder } from '../formats/companions.js';
import type { FormatHandler } from '../formats/handler.js';
import { openFormatFile } from '../formats/open-files.js';
import type { Detection } from '../formats/registry.js';

/** A file opened by the CLI: the handler that read it, the resource and the companions used. */
export interface OpenedFile {
  path: string;
  handler: FormatHandler;
  resource: AnimResource;
  /** Bytes read from the named file. */
  bytes: number;
  companions: CompanionUse[];
}

/** The folder of `path` on disk, listed once and only when a companion is looked for. */
export function folderOf(path: string): Folder {
  const dir = dirname(path);
  let names: string[] | null = null;
  return {
    names: () => (names ??= readdirSync(dir)),
    read: (name) => new Uint8Array(readFileSync(join(dir, name))),
  };
}

/**
 * Reads `path` and opens it with `openFormatFile`: its format detected by content (or `formatId`,
 * or the `detection` a folder walk made), companions named by role in `companions` (paths) or found
 * beside it by name, case-insensitively.
 * @throws the reader's FormatError on bad bytes, UsageError for an unknown format id or a missing
 *   required companion, and the file system's errors
 */
export async function openFile(path: string, companions: Readonly<Record<string, string>> = {}, formatId?: string, detection?: Detection): Promise<OpenedFile> {
  const bytes = new Uint8Array(readFileSync(path));
  const given = Object.fromEntries(Object.entries(companions).map(([role, file]) => [role, { file, bytes: new Uint8Array(readFileSync(file)) }]));
  const opened = await openFormatFile(
    { name: path, bytes },
    { folder: folderOf(path), companions: given, ...(formatId !== undefined && { format: formatId }), ...(detection && { detection }) },
  );
  return { path, ...opened, bytes: bytes.byteLength };
}
