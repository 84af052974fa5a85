import { closeSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** A file to write: where, and its bytes. */
export interface OutputFile {
  path: string;
  bytes: Uint8Array;
}

/** A temporary name beside `path` (same folder, so the rename into place is atomic): `.<name>.<pid>-<8 hex digits>.tmp`. */
function temporaryName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** The target name of a `temporaryName`, or undefined for any other name. */
function targetOfTemporary(name: string): string | undefined {
  return /^\.(.+)\.\d+-[0-9a-f]{8}\.tmp$/.exec(name)?.[1];
}

/**
 * Removes the temporary files that a killed run left beside `targets` (a SIGKILL skips the
 * clean-up of `writeOutputsAtomically`), so that a re-run ends with the same files as a run that
 * was never interrupted. Only temporaries of these targets are touched: another shard writing
 * into the same folder never owns one of them (shards write disjoint outputs). One listing per folder.
 */
export function removeStaleTemporaries(targets: readonly string[]): void {
  const byFolder = new Map<string, Set<string>>();
  for (const t of targets) {
    const names = byFolder.get(dirname(t)) ?? new Set<string>();
    names.add(basename(t));
    byFolder.set(dirname(t), names);
  }
  for (const [folder, names] of byFolder) {
    let entries: string[];
    try {
      entries = readdirSync(folder);
    } catch {
      continue; // not made yet: nothing left there
    }
    for (const e of entries) {
      const target = targetOfTemporary(e);
      if (target !== undefined && names.has(target)) removeQuietly(join(folder, e));
    }
  }
}

function writeNew(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, 'wx');
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/**
 * Writes a set of files that belong together (a `.gltf` and its `.bin`) so that each target ends
 * either as it was or as its new content, and the set is never half-replaced: every file is first
 * written (and synced) to a temporary file beside its target; a write that fails (disk full,
 * `ulimit -f`) removes the temporary files and leaves every target as it was. Then the files are
 * put in place: with `replace`, existing targets are moved aside, the new files renamed in, and the
 * old ones deleted, or restored when a rename fails; without it, each new file is hard-linked to
 * its target (which fails with EEXIST when the target appeared meanwhile, and then the files
 * already placed are removed again).
 * @throws the file system's error of the step that failed, after undoing the steps before it
 */
export function writeOutputsAtomically(files: readonly OutputFile[], replace: boolean): void {
  const temps: string[] = [];
  try {
    for (const f of files) {
      const temp = temporaryName(f.path);
      temps.push(temp);
      writeNew(temp, f.bytes);
    }
    if (replace) commitReplacing(files, temps);
    else commitNew(files, temps);
  } finally {
    for (const t of temps) removeQuietly(t);
  }
}

function commitNew(files: readonly OutputFile[], temps: readonly string[]): void {
  const placed: string[] = [];
  try {
    files.forEach((f, i) => {
      linkSync(temps[i]!, f.path);
      placed.push(f.path);
    });
  } catch (e) {
    for (const p of placed) removeQuietly(p);
    throw e;
  }
}

function commitReplacing(files: readonly OutputFile[], temps: readonly string[]): void {
  const aside = new Map<string, string>(); // target → its old version's temporary name
  const placed: string[] = [];
  try {
    for (const f of files) {
      const old = temporaryName(f.path);
      try {
        renameSync(f.path, old);
        aside.set(f.path, old);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    files.forEach((f, i) => {
      renameSync(temps[i]!, f.path);
      placed.push(f.path);
    });
  } catch (e) {
    for (const p of placed) if (!aside.has(p)) removeQuietly(p);
    for (const [target, old] of aside) renameSync(old, target);
    throw e;
  }
  for (const old of aside.values()) removeQuietly(old);
}
