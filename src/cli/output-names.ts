import { basename, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { BatchInput } from './batch-inputs.js';

/** The targets of `animcore resample --to`. */
export const TARGETS = ['glb', 'gltf', 'nax3', 'json'] as const;
export type Target = (typeof TARGETS)[number];

/** `name` without its last extension (`walk.nax3` → `walk`, `teapot-man.scene.aaf` → `teapot-man.scene`). */
function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The output base (folder under `--out` and name without extension) of every input:
 * `<subfolder>/<input name without extension>`. Inputs whose bases meet (compared
 * case-insensitively, as on case-insensitive file systems) keep their full file name instead
 * (`eagle.nax2`, `eagle.nanim2`), repeatedly until no base changes (`a.nax2`, `a.nax3` and
 * `a.nax2.nax3` end as `a.nax2`, `a.nax3`, `a.nax2.nax3`). Bases still shared (the same file name
 * from two folders given side by side) are left for `checkOutputCollisions`.
 */
export function outputBases(inputs: readonly BatchInput[]): string[] {
  const full = inputs.map((i) => join(i.subfolder, basename(i.path)));
  const bases = inputs.map((i) => join(i.subfolder, stripExtension(basename(i.path))));
  for (let changed = true; changed; ) {
    changed = false;
    const count = new Map<string, number>();
    for (const b of bases) count.set(b.toLowerCase(), (count.get(b.toLowerCase()) ?? 0) + 1);
    bases.forEach((b, i) => {
      if (count.get(b.toLowerCase())! > 1 && b !== full[i]) {
        bases[i] = full[i]!;
        changed = true;
      }
    });
  }
  return bases;
}

/** The files `target` writes for a base: `<base>.glb`; `<base>.gltf` + `<base>.bin`; `<base>.nax3`; `<base>.json`. */
export function outputFiles(base: string, target: Target): string[] {
  return target === 'gltf' ? [`${base}.gltf`, `${base}.bin`] : [`${base}.${target}`];
}

/**
 * Refuses a batch in which two inputs would write the same file (compared case-insensitively),
 * before anything is written.
 * @throws UsageError naming each pair and the file they share
 */
export function checkOutputCollisions(inputs: readonly string[], outputs: readonly (readonly string[])[]): void {
  const owner = new Map<string, number>();
  const pairs: string[] = [];
  outputs.forEach((files, i) => {
    for (const f of files) {
      const key = resolve(f).toLowerCase();
      const other = owner.get(key);
      if (other !== undefined && other !== i) pairs.push(`${inputs[other]} and ${inputs[i]} both write ${f}`);
      else owner.set(key, i);
    }
  });
  if (pairs.length > 0) {
    throw new UsageError(`outputs collide; nothing was written:\n  ${pairs.join('\n  ')}\ngive their common folder (its sub-folders are mirrored under --out) or convert them in separate runs`);
  }
}
