import { basename, join } from 'node:path';
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
 * `<subfolder>/<input name without extension>`. When two inputs of the batch would get the same
 * base (`eagle.nax2` and `eagle.nanim2`), both keep their full file name (`eagle.nax2`,
 * `eagle.nanim2`), so no output replaces another. Bases are relative to `--out`, `/`-separated
 * per `path.join`.
 */
export function outputBases(inputs: readonly BatchInput[]): string[] {
  const plain = inputs.map((i) => join(i.subfolder, stripExtension(basename(i.path))));
  const count = new Map<string, number>();
  for (const b of plain) count.set(b.toLowerCase(), (count.get(b.toLowerCase()) ?? 0) + 1);
  return inputs.map((input, i) => (count.get(plain[i]!.toLowerCase())! > 1 ? join(input.subfolder, basename(input.path)) : plain[i]!));
}

/** The files `target` writes for a base: `<base>.glb`; `<base>.gltf` + `<base>.bin`; `<base>.nax3`; `<base>.json`. */
export function outputFiles(base: string, target: Target): string[] {
  return target === 'gltf' ? [`${base}.gltf`, `${base}.bin`] : [`${base}.${target}`];
}
