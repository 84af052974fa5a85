import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { UsageError } from '../errors.js';
import { planSet, type SetMember } from '../formats/open-files.js';
import { type Detection, detectFormat } from '../formats/registry.js';

/** One file of a batch: where it is and the sub-folder of `--out` its outputs go to. */
export interface BatchInput {
  path: string;
  /** Folder relative to the output folder (`''` for files named directly). */
  subfolder: string;
  /** The format the folder walk detected, handed to the conversion so the file is not detected (parsed) again. */
  detection?: Detection;
}

/** What the paths of a batch expand to. */
export interface BatchInputs {
  inputs: BatchInput[];
  /** Files in the given folders that are companions or no animation (not processed on their own). */
  skipped: number;
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
 * mirrored. A file reached twice is processed once.
 * @throws UsageError for a path that does not exist, or a glob that matches no file
 */
export async function expandInputs(paths: readonly string[]): Promise<BatchInputs> {
  const inputs: BatchInput[] = [];
  const seen = new Set<string>();
  const protectedPaths = new Set<string>();
  let skipped = 0;
  const add = (path: string, subfolder: string, detection?: Detection) => {
    const abs = resolve(path);
    protectedPaths.add(abs);
    if (seen.has(abs)) return;
    seen.add(abs);
    inputs.push({ path, subfolder, ...(detection && { detection }) });
  };
  const walk = (root: string, dir: string) => {
    const entries = readdirSync(dir).sort().map((e) => join(dir, e));
    const members: SetMember[] = [];
    for (const path of entries) {
      if (statSync(path).isDirectory()) continue;
      protectedPaths.add(resolve(path));
      members.push({ name: path, detection: detectFormat(new Uint8Array(readFileSync(path)), path) });
    }
    const plan = planSet(members);
    skipped += plan.companions.length + plan.undetected.length;
    const mains = new Map(plan.mains.map((m) => [m.name, m.detection!]));
    for (const path of entries) {
      const detection = mains.get(path);
      if (detection) add(path, relative(root, dir), detection);
      else if (statSync(path).isDirectory()) walk(root, path);
    }
  };
  for (const p of paths) {
    if (existsSync(p)) {
      if (statSync(p).isDirectory()) walk(p, p);
      else add(p, '');
      continue;
    }
    if (!GLOB_CHARS.test(p)) throw new UsageError(`${p}: no such file or folder`);
    const base = literalPrefix(p);
    const matches = await glob(p, { onlyFiles: true, expandDirectories: false });
    if (matches.length === 0) throw new UsageError(`${p}: no file matches`);
    for (const m of matches.sort()) add(m, relative(base, dirname(m)));
  }
  return { inputs, skipped, protectedPaths };
}

/** The folders of a glob pattern before its first segment with glob characters. */
function literalPrefix(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const i = parts.findIndex((s) => GLOB_CHARS.test(s));
  return parts.slice(0, i).join(sep) || '.';
}
