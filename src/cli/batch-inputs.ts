import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { UsageError } from '../errors.js';
import { FORMAT_HANDLERS } from '../formats/registry.js';

/** One file of a batch: where it is and the sub-folder of `--out` its outputs go to. */
export interface BatchInput {
  path: string;
  /** Folder relative to the output folder (`''` for files named directly). */
  subfolder: string;
}

/** What the paths of a batch expand to. */
export interface BatchInputs {
  inputs: BatchInput[];
  /** Files in the given folders that are companions or no animation (not processed on their own). */
  skipped: number;
  /** Absolute paths of every file met while expanding (inputs, companions, other files): never written. */
  protectedPaths: Set<string>;
}

/**
 * Files that belong to another input of their folder, so that a folder batch does not process them
 * on their own (they are still read as that input's companions):
 * - an AAF animation `<name>.anim.aaf` next to its scene `<name>.scene.aaf` (the scene opens it);
 * - Meteor's shared moves `character.amb` (read with every `p<N>.amb` of its folder).
 * Skeletons (`.n2`, `.constants`, `.bnc`), `.pos` tables and `.skc` meshes are detected as no
 * animation format and are skipped anyway.
 */
function isCompanion(path: string, siblings: readonly string[]): boolean {
  const name = basename(path).toLowerCase();
  if (name === 'character.amb') return true;
  if (name.endsWith('.anim.aaf')) {
    const scene = name.slice(0, -'.anim.aaf'.length) + '.scene.aaf';
    return siblings.some((s) => s.toLowerCase() === scene);
  }
  return false;
}

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * Expands the paths of `animcore resample`: a file is taken as named (its format is checked when
 * it is opened); a folder is walked recursively in name order, keeping the files some format
 * detects by content and that are no companion (`isCompanion`), their sub-folders mirrored; a path
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
  const add = (path: string, subfolder: string) => {
    const abs = resolve(path);
    protectedPaths.add(abs);
    if (seen.has(abs)) return;
    seen.add(abs);
    inputs.push({ path, subfolder });
  };
  const walk = (root: string, dir: string) => {
    const entries = readdirSync(dir).sort();
    for (const e of entries) {
      const path = join(dir, e);
      if (statSync(path).isDirectory()) {
        walk(root, path);
        continue;
      }
      protectedPaths.add(resolve(path));
      const bytes = new Uint8Array(readFileSync(path));
      if (isCompanion(path, entries) || !FORMAT_HANDLERS.some((h) => h.detect(bytes, path))) skipped++;
      else add(path, relative(root, dir));
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
