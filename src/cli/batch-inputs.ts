import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { UsageError } from '../errors.js';
import { planSet, type SetMember } from '../formats/open-files.js';
import { type Detection, detectFormat } from '../formats/registry.js';
import { isExpected, isFsError, reasonOf } from './errors.js';
import { readInputFile } from './read-input.js';

/** One file of a batch: where it is and the sub-folder of `--out` its outputs go to. */
export interface BatchInput {
  path: string;
  /** Folder relative to the output folder (`''` for files named directly). */
  subfolder: string;
  /** The format the folder walk detected, handed to the conversion so the file is not detected (parsed) again. */
  detection?: Detection;
}

/** A path of the batch that cannot be an input (a FIFO, a link cycle, an empty folder …), and why. */
export interface BatchProblem {
  path: string;
  reason: string;
  /** The error's name or file-system code. */
  errorName: string;
}

/** What the paths of a batch expand to. */
export interface BatchInputs {
  inputs: BatchInput[];
  /** Paths reported as failed without being converted. */
  problems: BatchProblem[];
  /** Files in the given folders that are companions or no animation (not processed on their own). */
  ignored: number;
  /** Absolute paths of every file met while expanding (inputs, companions, other files): never written. */
  protectedPaths: Set<string>;
}

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * Expands the paths of `animcore resample`: a file is taken as named (its format is checked when
 * it is opened); a folder is walked recursively in name order, keeping the files some format
 * detects by content and that are no companion of another file of their folder (`planSet`: an AAF
 * animation beside its scene, Meteor's `character.amb`), their sub-folders mirrored; a path
 * that does not exist but holds glob characters is expanded with `tinyglobby` (files only, as
 * named: no companion filtering), the matches' sub-folders below the pattern's literal prefix
 * mirrored. A file reached twice is processed once. Files are read for detection with
 * `readInputFile` (regular files up to `maxInputBytes`). What cannot be an input is reported for
 * its path in `problems` and the walk goes on: a FIFO or device, a file over the limit, a broken
 * or self-referencing link, a link back to a folder already walked (a cycle), a given folder
 * without any file of a supported format.
 * @throws UsageError for a path that does not exist, or a glob that matches no file
 */
export async function expandInputs(paths: readonly string[], maxInputBytes: number): Promise<BatchInputs> {
  const inputs: BatchInput[] = [];
  const problems: BatchProblem[] = [];
  const seen = new Set<string>();
  const walked = new Set<string>();
  const protectedPaths = new Set<string>();
  let ignored = 0;
  const problem = (path: string, e: unknown) => {
    if (!isExpected(e)) throw e;
    problems.push({ path, reason: reasonOf(e, path), errorName: isFsError(e) ? e.code! : (e as Error).name });
  };
  const add = (path: string, subfolder: string, detection?: Detection) => {
    const abs = resolve(path);
    protectedPaths.add(abs);
    if (seen.has(abs)) return;
    seen.add(abs);
    inputs.push({ path, subfolder, ...(detection && { detection }) });
  };
  /** Walks `dir`; returns how many inputs it and its sub-folders gave. */
  const walk = (root: string, dir: string): number => {
    const real = realpathSync(dir);
    if (walked.has(real)) {
      problems.push({ path: dir, reason: `a folder already walked (a symbolic link cycle, to ${real})`, errorName: 'ELOOP' });
      return 0;
    }
    walked.add(real);
    const before = inputs.length;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort().map((e) => join(dir, e));
    } catch (e) {
      problem(dir, e);
      return 0;
    }
    const folders = new Set<string>();
    const members: SetMember[] = [];
    for (const path of entries) {
      try {
        if (statSync(path).isDirectory()) {
          folders.add(path);
          continue;
        }
        protectedPaths.add(resolve(path));
        members.push({ name: path, detection: detectFormat(readInputFile(path, maxInputBytes), path) });
      } catch (e) {
        problem(path, e);
      }
    }
    const plan = planSet(members);
    ignored += plan.companions.length + plan.undetected.length;
    const mains = new Map(plan.mains.map((m) => [m.name, m.detection!]));
    for (const path of entries) {
      const detection = mains.get(path);
      if (detection) add(path, relative(root, dir), detection);
      else if (folders.has(path)) walk(root, path);
    }
    return inputs.length - before;
  };
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
        problem(p, e); // a broken or self-referencing link exists, but is no file
        continue;
      }
      if (!isFolder) add(p, '');
      else if (walk(p, p) === 0 && !problems.some((x) => x.path.startsWith(p))) {
        problems.push({ path: p, reason: 'a folder with no file of a supported format (files are detected by content)', errorName: 'UsageError' });
      }
      continue;
    }
    if (!GLOB_CHARS.test(p)) throw new UsageError(`${p}: no such file or folder`);
    const base = literalPrefix(p);
    const matches = await glob(p, { onlyFiles: true, expandDirectories: false });
    if (matches.length === 0) throw new UsageError(`${p}: no file matches`);
    for (const m of matches.sort()) add(m, relative(base, dirname(m)));
  }
  return { inputs, problems, ignored, protectedPaths };
}

/** The folders of a glob pattern before its first segment with glob characters. */
function literalPrefix(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const i = parts.findIndex((s) => GLOB_CHARS.test(s));
  return parts.slice(0, i).join(sep) || '.';
}
