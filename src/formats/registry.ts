import { UsageError } from '../errors.js';
import { aafHandler } from './aaf/handler.js';
import { fileName } from './companions.js';
import { gltfHandler } from './gltf/handler.js';
import type { CompanionRole, Detected, FormatHandler } from './handler.js';
import { meteorHandler } from './meteor/handler.js';
import { mrtkHandler } from './mrtk/handler.js';
import { nebulaHandler } from './nebula/handler.js';

/**
 * Every format animcore opens: one row per `src/formats/<fmt>/` folder, in detection order
 * (`priority`, highest first). The CLI's `--format` ids and companion options and the viewer's
 * file-set opening all come from this table.
 */
export const FORMAT_HANDLERS: readonly FormatHandler[] = [gltfHandler, nebulaHandler, meteorHandler, mrtkHandler, aafHandler].sort((a, b) => b.priority - a.priority);

/** A file's format as detection found it: the handler and what it parsed (handed to `open`). */
export interface Detection {
  handler: FormatHandler;
  detected: Detected;
}

/**
 * The handler with `id` (`--format`).
 * @throws UsageError naming the known ids when there is none
 */
export function formatHandler(id: string): FormatHandler {
  const handler = FORMAT_HANDLERS.find((h) => h.id === id);
  if (!handler) throw new UsageError(`unknown format "${id}"; known formats: ${FORMAT_HANDLERS.map((h) => h.id).join(', ')}`);
  return handler;
}

/** The first handler (by priority) whose `detect` accepts the bytes, with what it parsed; `null` when none does. Never throws for bad bytes. */
export function detectFormat(bytes: Uint8Array, path: string): Detection | null {
  for (const handler of FORMAT_HANDLERS) {
    const detected = handler.detect(bytes, path);
    if (detected) return { handler, detected };
  }
  return null;
}

/**
 * The companion roles of every format, one per role name (descriptions of formats sharing a role
 * joined with `; `), in registry order: the CLI's companion options.
 */
export function companionRoles(): CompanionRole[] {
  const byRole = new Map<string, CompanionRole>();
  for (const c of FORMAT_HANDLERS.flatMap((h) => h.companions)) {
    const seen = byRole.get(c.role);
    byRole.set(c.role, seen ? { ...seen, description: `${seen.description}; ${c.description}` } : c);
  }
  return [...byRole.values()];
}

/** Whether the file name `name` ends with `ending` (case-insensitively) and has more before it. */
function endsWithName(name: string, ending: string): boolean {
  return name.length > ending.length && name.toLowerCase().endsWith(ending.toLowerCase());
}

/**
 * The format whose own extensions `path` ends with (case-insensitively; the longest match), or
 * undefined: what a file's name says it is, for a file that detection by content did not accept.
 */
export function formatOfExtension(path: string): FormatHandler | undefined {
  const name = fileName(path);
  let best: { handler: FormatHandler; length: number } | undefined;
  for (const handler of FORMAT_HANDLERS) {
    for (const e of handler.extensions) if (endsWithName(name, e) && e.length > (best?.length ?? 0)) best = { handler, length: e.length };
  }
  return best?.handler;
}

/** The companion role (`companionRoles`) whose extensions or fixed names `path`'s file name has, or undefined. */
export function companionRoleOfName(path: string): CompanionRole | undefined {
  const name = fileName(path);
  return companionRoles().find((r) => r.extensions.some((e) => endsWithName(name, e)) || (r.names ?? []).some((n) => n.toLowerCase() === name.toLowerCase()));
}
