import type { AnimResource } from '../anim/index.js';
import { FormatError } from '../errors.js';
import { type CompanionUse, companionByName, type Folder, fileName, resolveCompanions } from './companions.js';
import type { FormatHandler } from './handler.js';
import { type Detection, detectFormat, FORMAT_HANDLERS, formatHandler } from './registry.js';

/** A file as bytes with its name or path (from disk, a file picker, a drop or a URL). */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** Options of `openFormatFile`. */
export interface OpenFormatFileOptions {
  /** The files beside the main one, where companions are looked for by name. */
  folder?: Folder;
  /** Companion files given by role (`skeleton`, `bnc`, …), used before any found in `folder`. */
  companions?: Readonly<Record<string, { file: string; bytes: Uint8Array }>>;
  /** A handler id: skip detection and read the file as this format. */
  format?: string;
  /** The file's detection when already done (a folder walk): not detected again. */
  detection?: Detection;
}

/** A file opened with its companions. */
export interface OpenedFormatFile {
  handler: FormatHandler;
  resource: AnimResource;
  /** Which companions were used and where they came from. */
  companions: CompanionUse[];
  /** Companions left out because several files could fill the role (each names them and the option). */
  pairingWarnings: string[];
}

/**
 * Opens `file` with its companions: detects its format by content (`detectFormat`; or takes
 * `options.format`, or `options.detection`), resolves the handler's companions
 * (`resolveCompanions`) and awaits the handler's `open`, handing it what detection parsed.
 * @throws UsageError for an unknown `format` id or a missing required companion; FormatError
 *   (format: the file's name, code `unrecognised`) when no format detects the file, and the
 *   reader's FormatError on bad bytes
 */
export async function openFormatFile(file: NamedBytes, options: OpenFormatFileOptions = {}): Promise<OpenedFormatFile> {
  const detection = options.detection ?? (options.format === undefined ? detectOrFail(file) : forced(formatHandler(options.format), file));
  const { handler, detected } = detection;
  const { companions, uses, warnings } = resolveCompanions(handler, { path: file.name, bytes: file.bytes, detected: detected.parsed }, options.folder, options.companions);
  const names = options.folder?.names() ?? [];
  const self = fileName(file.name).toLowerCase();
  const resource = await handler.open({
    path: file.name,
    bytes: file.bytes,
    ...(detected.parsed !== undefined && { detected: detected.parsed }),
    companions,
    sibling(name) {
      if (/[\\/]/.test(name)) return options.folder?.readPath?.(name);
      const lower = name.toLowerCase();
      const hit = lower === self ? undefined : names.find((n) => n.toLowerCase() === lower);
      return hit === undefined ? undefined : options.folder!.read(hit);
    },
  });
  return { handler, resource, companions: uses, pairingWarnings: warnings };
}

/** `handler` taken for `file` by `--format`: its own detection when it accepts the bytes, else none (`open` reads them and reports why not). */
function forced(handler: FormatHandler, file: NamedBytes): Detection {
  return { handler, detected: handler.detect(file.bytes, file.name) ?? { parsed: undefined } };
}

function detectOrFail(file: NamedBytes): Detection {
  const detection = detectFormat(file.bytes, file.name);
  if (!detection) {
    // An empty file (a failed download, a touch) says so rather than being of no format.
    if (file.bytes.length === 0) throw new FormatError(file.name, 'unrecognised', { offset: 0 }, 'the file is empty (0 bytes)');
    const hint = companionHint(file.name);
    throw new FormatError(file.name, 'unrecognised', { offset: 0 }, `not a file of any supported format (${FORMAT_HANDLERS.map((h) => h.id).join(', ')})${hint ? `; by its name ${hint}` : ''}`);
  }
  return detection;
}

/**
 * For an undetected file whose name ends like a companion role's files and like no main file (a
 * `.bnc` skeleton, a `.n2` script opened alone): what it is and which file to open instead.
 */
function companionHint(name: string): string | undefined {
  const lower = fileName(name).toLowerCase();
  const ends = (extensions: readonly string[]) => extensions.some((e) => lower.endsWith(e.toLowerCase()));
  if (FORMAT_HANDLERS.some((h) => ends(h.extensions))) return undefined;
  for (const handler of FORMAT_HANDLERS) {
    const role = handler.companions.find((r) => ends(r.extensions));
    if (role) return `a ${role.description}, read with the ${handler.extensions.join(' / ')} file it belongs to: open that one`;
  }
  return undefined;
}

/** A file of a set (a folder, a drop) with its detection, or `null` when no format detects it. */
export interface SetMember {
  name: string;
  detection: Detection | null;
}

/** The members of a set split into what opens on its own and the rest. */
export interface SetPlan {
  /** Detected files that are no other member's companion, in opening order (handler priority, rank, name). */
  mains: SetMember[];
  /** Detected files another member takes as a companion by name (an AAF animation beside its scene, `character.amb`). */
  companions: SetMember[];
  /** Files no format detects (skeletons, pose tables and unrelated files among them). */
  undetected: SetMember[];
}

/**
 * Decides which files of one folder or drop open on their own: a detected file that another
 * detected member takes as a companion by name (`companionByName`) is that member's companion,
 * unless it takes that member in turn and comes first in opening order (an AAF scene and its
 * animation claim each other; the scene, rank 1, opens the pair).
 */
export function planSet(members: readonly SetMember[]): SetPlan {
  const detected = members.filter((m): m is SetMember & { detection: Detection } => m.detection !== null);
  const order = [...detected].sort(compareMembers);
  const position = new Map<SetMember, number>(order.map((m, i) => [m, i]));
  const names = members.map((m) => fileName(m.name));
  const lower = new Map<SetMember, string>(members.map((m, i) => [m, names[i]!.toLowerCase()]));
  const claims = new Map<SetMember, Set<string>>();
  const claimers = new Map<string, SetMember[]>(); // lower-case name → the members that claim it (a folder of thousands is walked in linear time)
  for (const m of detected) {
    const h = m.detection.handler;
    const claimed = new Set(h.companions.map((c) => companionByName(h, c.role, m.name, names)?.toLowerCase()).filter((n): n is string => n !== undefined));
    claims.set(m, claimed);
    for (const n of claimed) claimers.set(n, [...(claimers.get(n) ?? []), m]);
  }
  const claimedBy = (f: SetMember, g: SetMember) => claims.get(g)!.has(lower.get(f)!);
  const isCompanion = (f: SetMember) => (claimers.get(lower.get(f)!) ?? []).some((g) => g !== f && !(claimedBy(g, f) && position.get(f)! < position.get(g)!));
  return {
    mains: order.filter((m) => !isCompanion(m)),
    companions: order.filter(isCompanion),
    undetected: members.filter((m) => m.detection === null),
  };
}

function compareMembers(a: SetMember, b: SetMember): number {
  const da = a.detection!, db = b.detection!;
  return db.handler.priority - da.handler.priority || (db.detected.rank ?? 0) - (da.detected.rank ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** An opened file set: the file that opened it, the handler and resource, and how the other files were used. */
export interface OpenedFileSet extends OpenedFormatFile {
  main: string;
  /** Files of the set that the main file names and reads (`FormatHandler.references`: a `.gltf`'s buffers and images). */
  referenced: string[];
  /** Files of the set that were neither opened, nor used as a companion, nor named by the main file. */
  ignored: string[];
}

/**
 * Opens a set of files given together (dropped, picked or fetched), as the CLI opens a file with
 * the files beside it: every file is detected by content; of the files that are no companion of
 * another (`planSet`) the first in opening order is opened, and the set is its folder (companions
 * by name, case-insensitive: `p0.amb` with `P0.bnc`).
 * @throws FormatError (code `unrecognised`) when no file is of a known format; the reader's
 *   FormatError or UsageError otherwise
 */
export async function openFileSet(files: readonly NamedBytes[]): Promise<OpenedFileSet> {
  const members = files.map((f) => ({ name: f.name, detection: detectFormat(f.bytes, f.name) }));
  const main = planSet(members).mains[0];
  if (!main) {
    const hints = files.flatMap((f) => {
      const hint = companionHint(f.name);
      return hint ? [`${fileName(f.name)} is by its name ${hint}`] : [];
    });
    throw new FormatError('unknown', 'unrecognised', { offset: 0 }, `none of ${files.map((f) => f.name).join(', ')} is of a supported format (${FORMAT_HANDLERS.map((h) => h.id).join(', ')})${hints.map((h) => `; ${h}`).join('')}`);
  }
  const file = files[members.indexOf(main)]!;
  const byName = new Map(files.map((f) => [fileName(f.name), f.bytes]));
  const folder: Folder = { names: () => [...byName.keys()], read: (name) => byName.get(name)! };
  const opened = await openFormatFile(file, { folder, detection: main.detection! });
  const named = new Set((main.detection!.handler.references?.(main.detection!.detected.parsed) ?? []).map(fileName));
  const referenced = files.map((f) => f.name).filter((n) => named.has(fileName(n)));
  const used = new Set([fileName(file.name), ...opened.companions.map((c) => c.file), ...referenced.map(fileName)]);
  return { ...opened, main: file.name, referenced, ignored: files.map((f) => f.name).filter((n) => !used.has(fileName(n))) };
}
