import { UsageError } from '../errors.js';
import type { CompanionRole, FormatHandler } from './handler.js';

/**
 * The files beside a main file, by name: a folder on disk (CLI), files dropped together (viewer).
 * Names are file names without folders.
 */
export interface Folder {
  /** File names in the folder (no folders), in any order. */
  names(): readonly string[];
  /** Bytes of `name`, one of `names()`. */
  read(name: string): Uint8Array;
  /**
   * Bytes of a file by a relative path with folders (`textures/skin.png`, `../shared.bin`: a glTF
   * names its buffers and images so), undefined when there is none, or why it is not read (a path
   * out of `openFile`'s `root`). Absent where files have no folders (a drop): such names are then
   * not found.
   */
  readPath?(path: string): ResourceRead;
}

/** A file another one names, as a reader gives it: the bytes, undefined (no such file), or why it will not read it (after the name, e.g. "is outside …"). */
export type ResourceRead = Uint8Array | undefined | { refused: string };

/** How a companion was found: given by the caller, beside the main file by name, or paired by content. */
export interface CompanionUse {
  role: string;
  /** The given path or the file name beside the main file. */
  file: string;
  how: 'given' | 'name' | 'content';
  /** For `content`: why this file, in words ("the only .n2/.constants file beside it"). */
  why?: string;
}

/** What `resolveCompanions` found. */
export interface ResolvedCompanions {
  companions: Record<string, Uint8Array>;
  uses: CompanionUse[];
  /** Roles left without a companion although several files could fill them: one sentence each, naming them and the option. */
  warnings: string[];
}

/** The file name of a path (either separator). */
export function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/**
 * The main file's name without its format extension (the longest of `handler.extensions` it ends
 * with, case-insensitively; else its last extension): `p0.amb` → `p0`, `walk.scene.aaf` → `walk`.
 */
export function baseName(handler: FormatHandler, path: string): string {
  const name = fileName(path);
  const lower = name.toLowerCase();
  const ext = handler.extensions.filter((e) => lower.endsWith(e.toLowerCase()) && lower.length > e.length).sort((a, b) => b.length - a.length)[0];
  if (ext !== undefined) return name.slice(0, name.length - ext.length);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The name of the file in `names` that fills `role` for the main file `path` by name: the first of
 * `<base><extension>` for the role's extensions, then its fixed `names`, compared
 * case-insensitively (game files mix cases: `p0.amb` goes with `P0.bnc`); never the main file.
 */
export function companionByName(handler: FormatHandler, role: string, path: string, names: readonly string[]): string | undefined {
  const spec = handler.companions.find((c) => c.role === role);
  if (!spec) return undefined;
  const self = fileName(path).toLowerCase();
  const base = baseName(handler, path);
  const wanted = [...spec.extensions.map((e) => base + e), ...(spec.names ?? [])].map((n) => n.toLowerCase());
  const byLowerCase = lowerCaseIndex(names);
  for (const want of wanted) {
    if (want === self) continue;
    const hit = byLowerCase.get(want);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Lower-case name → the first name of `names` that has it, made once per list (a folder walk asks for every file of a large folder). */
const lowerCaseIndexes = new WeakMap<readonly string[], Map<string, string>>();

function lowerCaseIndex(names: readonly string[]): Map<string, string> {
  let index = lowerCaseIndexes.get(names);
  if (index === undefined) {
    index = new Map();
    for (const n of names) if (!index.has(n.toLowerCase())) index.set(n.toLowerCase(), n);
    lowerCaseIndexes.set(names, index);
  }
  return index;
}

/**
 * The companions of the main file `path` for `handler`: each role given in `given` (bytes by role;
 * roles the format does not have are ignored), else found in `folder` by name
 * (`companionByName`), else — for `byContent` roles — paired by content (`pairByContent`), with a
 * record of where each came from.
 * @throws UsageError when a required companion is neither given nor found, naming the file
 *   looked for and the role
 */
export function resolveCompanions(
  handler: FormatHandler,
  main: { path: string; bytes: Uint8Array; detected?: unknown },
  folder: Folder | undefined,
  given: Readonly<Record<string, { file: string; bytes: Uint8Array }>> = {},
): ResolvedCompanions {
  const { path } = main;
  const companions: Record<string, Uint8Array> = {};
  const uses: CompanionUse[] = [];
  const warnings: string[] = [];
  const names = folder?.names() ?? [];
  for (const spec of handler.companions) {
    const explicit = given[spec.role];
    if (explicit) {
      companions[spec.role] = explicit.bytes;
      uses.push({ role: spec.role, file: explicit.file, how: 'given' });
      continue;
    }
    const name = folder && companionByName(handler, spec.role, path, names);
    if (name !== undefined && folder) {
      companions[spec.role] = folder.read(name);
      uses.push({ role: spec.role, file: name, how: 'name' });
      continue;
    }
    const paired = spec.byContent && folder ? pairByContent(handler, spec, main, folder) : undefined;
    if (paired && 'file' in paired) {
      companions[spec.role] = paired.bytes;
      uses.push({ role: spec.role, file: paired.file, how: 'content', why: paired.why });
      continue;
    }
    if (paired) warnings.push(paired.warning);
    if (spec.required) {
      const looked = [...spec.extensions.map((e) => baseName(handler, path) + e), ...(spec.names ?? [])].join(' or ');
      throw new UsageError(`${path}: no ${looked} beside it${paired ? ` (${paired.warning})` : ''}; name the ${spec.description} with the "${spec.role}" companion (--${kebab(spec.role)})`);
    }
  }
  return { companions, uses, warnings };
}

/**
 * Pairs a companion by content (issue 14: `kila.n2` beside `kila_layoutA.nax2`): the files beside
 * the main one that end with one of the role's extensions are the candidates; a lone candidate is
 * taken; among several, the only one the handler's `companionFits` accepts (a skeleton whose joint
 * count matches the curves) is taken; otherwise none, and a warning names the candidates and the
 * option. Undefined when there is no candidate.
 */
function pairByContent(
  handler: FormatHandler,
  spec: CompanionRole,
  main: { path: string; bytes: Uint8Array; detected?: unknown },
  folder: Folder,
): { file: string; bytes: Uint8Array; why: string } | { warning: string } | undefined {
  const self = fileName(main.path).toLowerCase();
  const exts = spec.extensions.map((e) => e.toLowerCase());
  const candidates = folder.names().filter((n) => n.toLowerCase() !== self && exts.some((e) => n.toLowerCase().endsWith(e))).sort();
  if (candidates.length === 0) return undefined;
  const kinds = spec.extensions.join('/');
  if (candidates.length === 1) {
    const file = candidates[0]!;
    return { file, bytes: folder.read(file), why: `the only ${kinds} file beside it` };
  }
  const fitting = handler.companionFits
    ? candidates.flatMap((file) => {
        const bytes = folder.read(file);
        return handler.companionFits!(spec.role, main, bytes) ? [{ file, bytes }] : [];
      })
    : [];
  if (fitting.length === 1) return { ...fitting[0]!, why: `the only one of ${candidates.length} ${kinds} files beside it that fits (${candidates.join(', ')})` };
  const which = !handler.companionFits ? 'could each be' : fitting.length === 0 ? 'none fits as' : `${fitting.length} fit as`;
  return { warning: `of the ${candidates.length} ${kinds} files beside ${fileName(main.path)} (${candidates.join(', ')}) ${which} its ${spec.role}, so none was used: name one with --${kebab(spec.role)}` };
}

/** `characterAmb` → `character-amb`: a role as a CLI option name. */
export function kebab(role: string): string {
  return role.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
