import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AnimcoreError } from '../errors.js';
import { reasonOf } from './errors.js';

/**
 * Creates `path` and the folders above it that are missing, one level at a time (Node's recursive
 * `mkdirSync` loops forever under `/proc`), and checks that it ends as a folder.
 * @throws AnimcoreError naming the level that could not be made and why (a file in the way,
 *   ENOENT under `/proc`, EACCES, EROFS …)
 */
export function makeFolder(path: string): void {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      if (!statSync(at).isDirectory()) throw new AnimcoreError(`${at} is a file, not a folder; choose another --out`);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw e;
      missing.push(at);
      at = dirname(at);
    }
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new AnimcoreError(`cannot make the folder ${folder}: ${reasonOf(e, folder)}`);
    }
    if (!statSync(folder).isDirectory()) throw new AnimcoreError(`${folder} could not be made a folder`);
  }
}
