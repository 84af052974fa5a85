import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AnimResource } from '../anim/index.js';
import type { FormatHandler, OpenInput } from '../formats/handler.js';
import { findHandler } from '../formats/registry.js';

/** A file opened by the CLI: the handler that read it and the resource. */
export interface OpenedFile {
  path: string;
  handler: FormatHandler;
  resource: AnimResource;
  /** Bytes read from the named file. */
  bytes: number;
}

/**
 * Reads `path`, detects its format by content (or takes `formatId`), and opens it with its
 * companions: files named by role in `companions` (paths) and siblings found next to it by name,
 * matched case-insensitively. Throws the reader's `FormatError` on bad bytes.
 */
export function openFile(path: string, companions: Record<string, string> = {}, formatId?: string): OpenedFile {
  const bytes = new Uint8Array(readFileSync(path));
  const dir = dirname(path);
  let entries: string[] | null = null;
  const input: OpenInput = {
    path,
    bytes,
    sibling(name: string) {
      entries ??= readdirSync(dir);
      const lower = name.toLowerCase();
      const hit = entries.find((e) => e.toLowerCase() === lower && e !== basename(path));
      return hit === undefined ? undefined : new Uint8Array(readFileSync(join(dir, hit)));
    },
    companions: Object.fromEntries(Object.entries(companions).map(([role, p]) => [role, new Uint8Array(readFileSync(p))])),
  };
  const handler = findHandler(bytes, path, formatId);
  return { path, handler, resource: handler.open(input), bytes: bytes.byteLength };
}
