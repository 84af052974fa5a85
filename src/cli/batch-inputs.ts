import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { UsageError } from '../errors.js';
import { companionByName, fileName } from '../formats/companions.js';
import type { FormatHandler } from '../formats/handler.js';
import { planSet, type SetMember } from '../formats/open-files.js';
import { companionRoleOfName, type Detection, detectFormat, formatOfExtension } from '../formats/registry.js';
import { codeOf, isExpected, isFsError, reasonOf } from './errors.js';
import { readInputFile } from './read-input.js';

/** One file of a batch: where it is and the sub-folder of `--out` its outputs go to. */
export interface BatchInput {
  path: string;
  /** Folder relative to the output folder (`''` for files named directly). */
  subfolder: string;
  /** The path relative to its walk root, `/`-separated (`--shard` hashes it): see `WalkRecord.key`. */
  key: string;
  /** The folder the files it names must lie in (`openFile`'s `root`): the walked folder or a glob's fixed prefix; undefined for a file named directly (its own folder). */
  root?: string;
  /** The format the folder walk detected, handed to the conversion so the file is not detected (parsed) again. */
  detection?: Detection;
  /** A walked file no format detects, whose extension is this format's: it is read as this format (and fails with the reader's reason). */
  byExtension?: string;
}

/** A path of the batch that is no input: a problem or a skipped file. */
interface WalkRecord {
  path: string;
  /**
   * The path relative to the root it was reached from, `/`-separated: below a walked folder its
   * path in the folder, below a glob's literal prefix its path there, for a path named directly
   * its file name. The same path its outputs get under `--out`; `--shard` hashes it.
   */
  key: string;
  reason: string;
}

/** A path of the batch that cannot be an input (a FIFO, a link cycle, an empty folder …), and why. */
export interface BatchProblem extends WalkRecord {
  /** The error's name or file-system code. */
  errorName: string;
  /** Machine-readable: `codeOf` the error. */
  code: string;
}

/** A file met in a walked folder that is no input of its own, and why (`SkipCode`). */
export interface BatchSkip extends WalkRecord {
  code: 'companion' | 'unused-companion' | 'unknown-extension';
}

/** What the paths of a batch expand to. */
export interface BatchInputs {
  inputs: BatchInput[];
  /** Paths reported as failed without being converted. */
  problems: BatchProblem[];
  /** Files in the given folders that are no input: companions, companion files no animation takes, files of no format animcore reads. */
  skipped: BatchSkip[];
  /** Absolute paths of every file met while expanding (inputs, companions, other files): never written. */
  protectedPaths: Set<string>;
}

const GLOB_CHARS = /[*?[\]{}]/;

/** `path` relative to `root`, `/`-separated on every OS. */
function keyOf(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/**
 * Expands the paths of `animcore resample`: a file is taken as named (its format is checked when
 * it is opened); a folder is walked recursively in name order (`classifyFolder` decides which of
 * its files are inputs), their sub-folders mirrored; a path that does not exist but holds glob
 * characters is expanded with `tinyglobby` (files only, as named: no companion filtering), the
 * matches' sub-folders below the pattern's literal prefix mirrored. A file reached twice is
 * processed once. Files are read for detection with `readInputFile` (regular files up to
 * `maxInputBytes`). What cannot be an input is reported for its path in `problems` and the walk
 * goes on: a FIFO or device, a file over the limit, a broken or self-referencing link, a link back
 * to a folder already walked (a cycle), a given folder without any file of a supported format.
 * `companions` (roles given with options) are taken by every input, so files beside them are not.
 * @throws UsageError for a path that does not exist, or a glob that matches no file
 */
export async function expandInputs(paths: readonly string[], maxInputBytes: number, companions: Readonly<Record<string, string>> = {}): Promise<BatchInputs> {
  const inputs: BatchInput[] = [];
  const problems: BatchProblem[] = [];
  const skipped: BatchSkip[] = [];
  const seen = new Set<string>();
  const walked = new Set<string>();
  const protectedPaths = new Set<string>();
  const problem = (path: string, key: string, e: unknown) => {
    if (!isExpected(e)) throw e;
    problems.push({ path, key, reason: reasonOf(e, path), errorName: isFsError(e) ? e.code! : (e as Error).name, code: codeOf(e) });
  };
  const add = (input: BatchInput) => {
    const abs = resolve(input.path);
    protectedPaths.add(abs);
    if (seen.has(abs)) return;
    seen.add(abs);
    inputs.push(input);
  };
  /**
   * Lists and detects `dir` and its sub-folders (first pass): what is found is classified only
   * once every walked folder is known, because a file's document may name files anywhere
   * (a glTF's `textures/skin.png`, `../shared.bin`).
   */
  const list = (root: string, dir: string): WalkedFolder | undefined => {
    const real = realpathSync(dir);
    if (walked.has(real)) {
      problems.push({ path: dir, key: keyOf(root, dir), reason: `a folder already walked (a symbolic link cycle, to ${real})`, errorName: 'ELOOP', code: 'ELOOP' });
      return undefined;
    }
    walked.add(real);
    let entries: string[];
    try {
      entries = readdirSync(dir).sort().map((e) => join(dir, e));
    } catch (e) {
      problem(dir, keyOf(root, dir), e);
      return undefined;
    }
    const folders = new Map<string, WalkedFolder | undefined>();
    const members: SetMember[] = [];
    for (const path of entries) {
      try {
        if (statSync(path).isDirectory()) {
          folders.set(path, list(root, path));
          continue;
        }
        protectedPaths.add(resolve(path));
        members.push({ name: path, detection: detectFormat(readInputFile(path, maxInputBytes), path) });
      } catch (e) {
        problem(path, keyOf(root, path), e);
      }
    }
    return { root, dir, entries, folders, members };
  };
  /** Classifies a listed folder and its sub-folders in name order (second pass); returns how many inputs they gave. */
  const classify = (folder: WalkedFolder, named: ReadonlyMap<string, NamedFile>): number => {
    const { root, dir } = folder;
    const before = inputs.length;
    const kinds = classifyFolder(folder.members, companions, named);
    for (const path of folder.entries) {
      const kind = kinds.get(path);
      const sub = folder.folders.get(path);
      if (sub) classify(sub, named);
      else if (kind?.input) add({ path, subfolder: relative(root, dir), key: keyOf(root, path), root, ...kind.input });
      else if (kind?.skip) skipped.push({ path, key: keyOf(root, path), ...kind.skip });
    }
    return inputs.length - before;
  };
  // In the order given (a file reached twice keeps its first place and sub-folder), folders classified once all are listed.
  const steps: ({ input: BatchInput } | { root: string; folder: WalkedFolder | undefined })[] = [];
  for (const p of paths) {
    let exists = true;
    try {
      lstatSync(p);
    } catch {
      exists = false;
    }
    if (exists) {
      let isFolder = false;
      try {
        isFolder = statSync(p).isDirectory();
      } catch (e) {
        problem(p, basename(p), e); // a broken or self-referencing link exists, but is no file
        continue;
      }
      steps.push(isFolder ? { root: p, folder: list(p, p) } : { input: { path: p, subfolder: '', key: basename(p) } });
      continue;
    }
    if (!GLOB_CHARS.test(p)) throw new UsageError(`${p}: no such file or folder`);
    const base = literalPrefix(p);
    const matches = await glob(p, { onlyFiles: true, expandDirectories: false });
    if (matches.length === 0) throw new UsageError(`${p}: no file matches`);
    for (const m of matches.sort()) steps.push({ input: { path: m, subfolder: relative(base, dirname(m)), key: keyOf(base, m), root: base } });
  }
  const named = namedFiles(steps.flatMap((step) => ('folder' in step && step.folder ? [step.folder] : [])));
  for (const step of steps) {
    if ('input' in step) {
      add(step.input);
      continue;
    }
    const p = step.root;
    if ((step.folder ? classify(step.folder, named) : 0) === 0 && !problems.some((x) => x.path.startsWith(p))) {
      problems.push({ path: p, key: basename(resolve(p)), reason: 'a folder with no file of a supported format (files are detected by content)', errorName: 'UsageError', code: 'UsageError' });
    }
  }
  return { inputs, problems, skipped, protectedPaths };
}

/** What `classifyFolder` decides for one file: an input (detected, or read by its extension) or a skip. */
interface FileKind {
  input?: Pick<BatchInput, 'detection' | 'byExtension'>;
  skip?: Pick<BatchSkip, 'code' | 'reason'>;
}

/**
 * Which files of one folder are inputs, so that none is lost silently (issue 20):
 * - inputs: the detected files that are no other's companion (`planSet`: an AAF animation beside
 *   its scene, Meteor's `character.amb`), then the files no format detects whose extension is a
 *   format's own (`formatOfExtension`: a garbage, truncated or empty `x.nax3`), which are read as
 *   that format and so end converted or failed with the reader's reason — unless an input takes
 *   them as a companion by name (a broken `x.anim.aaf` beside `x.scene.aaf` fails its scene);
 * - skipped `companion`: a file a walked document names in its content, in any folder (`named`,
 *   from `namedFiles`: a `.gltf`'s `.bin` buffers and images — even a buffer MRTK's detection would
 *   take for a recording; `x.bin` beside an `x.gltf` whose JSON does not parse), a file an input takes by name (`companionByName`), or a file of a
 *   companion kind (`companionRoleOfName`: `.n2`, `.bnc` …) when an input of the folder finds none
 *   of its name for that role and pairs it by content when it opens (its notes say which file);
 * - skipped `unused-companion`: a file of a companion kind that no input of the folder takes;
 * - skipped `unknown-extension`: any other file (no format animcore reads has its extension).
 * Roles given with options (`given`) are filled for every input, so no file of the folder fills
 * them, and a detected file that `planSet` took for a companion of that role is an input itself.
 */
function classifyFolder(members: readonly SetMember[], given: Readonly<Record<string, string>>, named: ReadonlyMap<string, NamedFile>): Map<string, FileKind> {
  const kinds = new Map<string, FileKind>();
  const namer = (m: SetMember) => named.get(resolve(m.name).toLowerCase());
  const names = members.map((m) => fileName(m.name));
  const claims = new Map<string, { by: string; role: string }>(); // lower-case file name → the input that takes it by name
  const byContent = new Set<string>(); // roles an input pairs by content (none of its name beside it)
  const claim = (path: string, handler: FormatHandler) => {
    for (const c of handler.companions) {
      if (given[c.role] !== undefined) continue;
      const name = companionByName(handler, c.role, path, names)?.toLowerCase();
      if (name === undefined) {
        if (c.byContent) byContent.add(c.role);
      } else if (!claims.has(name)) claims.set(name, { by: fileName(path), role: c.role });
    }
  };
  // A file a document names is that document's, whatever its own content says (an MRTK-like glTF buffer).
  for (const m of members) {
    const by = namer(m);
    if (by !== undefined) kinds.set(m.name, { skip: { code: 'companion', reason: `companion of ${relative(dirname(resolve(m.name)), by.document)} (${by.how})` } });
  }
  const plan = planSet(members.filter((m) => !kinds.has(m.name)));
  for (const m of plan.mains) {
    kinds.set(m.name, { input: { detection: m.detection! } });
    claim(m.name, m.detection!.handler);
  }
  // A detected file planSet left as a companion that no input takes (its role given with an option) is an input of its own.
  const rest = [...plan.companions, ...plan.undetected].filter((m) => !claims.has(fileName(m.name).toLowerCase()));
  for (const m of rest) {
    const handler = m.detection?.handler ?? formatOfExtension(m.name);
    if (handler !== undefined) kinds.set(m.name, { input: m.detection ? { detection: m.detection } : { byExtension: handler.id } });
  }
  for (const m of rest) if (kinds.has(m.name)) claim(m.name, m.detection?.handler ?? formatOfExtension(m.name)!);
  for (const m of members) {
    if (kinds.has(m.name)) continue;
    const taken = claims.get(fileName(m.name).toLowerCase());
    const role = companionRoleOfName(m.name);
    if (taken) kinds.set(m.name, { skip: { code: 'companion', reason: `companion of ${taken.by} (${taken.role})` } });
    else if (role && byContent.has(role.role)) kinds.set(m.name, { skip: { code: 'companion', reason: `a ${role.role} file (${role.description}), paired by content with an animation beside it (its notes say which), not converted on its own` } });
    else if (role) kinds.set(m.name, { skip: { code: 'unused-companion', reason: `a ${role.role} file (${role.description}) that no animation beside it takes` } });
    else kinds.set(m.name, { skip: { code: 'unknown-extension', reason: 'no format animcore reads has its extension, and none detects its content' } });
  }
  return kinds;
}

/** A folder listed by the walk's first pass: its entries in name order, its files detected, its sub-folders listed. */
interface WalkedFolder {
  root: string;
  dir: string;
  entries: string[];
  /** Sub-folders by path (undefined: not listed, a problem says why). */
  folders: Map<string, WalkedFolder | undefined>;
  members: SetMember[];
}

/**
 * The files that walked documents name (`FormatHandler.references`: a glTF's buffers and images,
 * resolved against the document's folder as `openFile` reads them), by lower-case absolute path
 * (names beside a document are matched case-insensitively), each with the first document that
 * names it (absolute).
 */
function namedFiles(folders: readonly WalkedFolder[]): Map<string, NamedFile> {
  const named = new Map<string, NamedFile>();
  const visit = (folder: WalkedFolder) => {
    for (const m of folder.members) {
      const document = resolve(m.name);
      const name = (path: string, how: string) => {
        if (path !== document.toLowerCase() && !named.has(path)) named.set(path, { document, how });
      };
      for (const ref of (m.detection && m.detection.handler.references?.(m.detection.detected.parsed)) ?? []) {
        if (!isAbsolute(ref)) name(resolve(dirname(document), ref).toLowerCase(), 'a file it names');
      }
      // A .gltf whose JSON does not parse names nothing; its buffer by the exporters' naming is still
      // its own (x.gltf + x.bin), not a recording to convert (an MRTK .bin) beside it.
      if ((m.detection?.detected.parsed ?? null) === null && extname(m.name).toLowerCase() === '.gltf') {
        name(resolve(dirname(document), `${basename(m.name, extname(m.name))}.bin`).toLowerCase(), 'its buffer by name; the .gltf does not parse');
      }
    }
    for (const sub of folder.folders.values()) if (sub) visit(sub);
  };
  for (const f of folders) visit(f);
  return named;
}

/** A file a walked document takes for its own: the document's path, and how it takes it (for the skip reason). */
interface NamedFile {
  document: string;
  how: string;
}

/** The folders of a glob pattern before its first segment with glob characters. */
function literalPrefix(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const i = parts.findIndex((s) => GLOB_CHARS.test(s));
  return parts.slice(0, i).join(sep) || '.';
}
