import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES } from './fixtures.js';

/** The bundled examples folder of the checkout. */
export const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples');

/** The animation files among the fixtures and examples (each opened with its companions). */
export const ANIMATION_FILES = {
  nebula: ['Unit_Footman.nax3', 'bouncingball.nax2', 'bouncingball.nanim2', 'eagle.nax2', 'eagle.nanim2', 'kila_layoutA.nax2', 'kila_layoutB.nax2'],
  meteor: ['p0.amb'],
  mrtk: ['InputAnimation-20201011-130542.bin', 'InputAnimation-20201027-134946.bin'],
} as const;

/** Paths of every fixture animation that is present (with a printed skip reason otherwise) and every example scene/animation. */
export function exportInputs(): string[] {
  const out: string[] = [];
  for (const [format, names] of Object.entries(ANIMATION_FILES)) {
    if (statSafe(join(FIXTURES, format))) out.push(...names.map((n) => join(FIXTURES, format, n)));
    else console.warn(`skipping ${format} fixtures: not found at ${FIXTURES}`);
  }
  return [...out, ...files(EXAMPLES_DIR).filter((f) => !f.endsWith('.anim.aaf'))];
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => (statSync(join(dir, e)).isDirectory() ? files(join(dir, e)) : [join(dir, e)]));
}
