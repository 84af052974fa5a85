import { GLTF_TARGETS } from './gen-gltf.js';
import { METEOR_TARGETS } from './gen-meteor.js';
import { MRTK_AAF_TARGETS } from './gen-mrtk-aaf.js';
import { NEBULA_TARGETS } from './gen-nebula.js';
import { SEQUENCE_TARGETS } from './gen-sequence.js';
import { type FuzzInput, type Generator, Params } from './input.js';
import { mutateFile } from './mutate.js';
import { Rng } from './rng.js';

/** The handler id of each target family (the part of the target name before any `-`). */
const HANDLER_OF: Record<string, string> = {
  nax2: 'nebula', nax3: 'nebula', nanim2: 'nebula', n2: 'nebula', constants: 'nebula',
  amb: 'meteor', bnc: 'meteor', pos: 'meteor', skc: 'meteor', character: 'meteor',
  mrtk: 'mrtk', aaf: 'aaf', gltf: 'gltf', sequence: 'gltf',
};

/** Every fuzz target: one per reader and variant, each a generator of valid file sets. */
export const TARGETS: Record<string, Generator> = { ...NEBULA_TARGETS, ...METEOR_TARGETS, ...MRTK_AAF_TARGETS, ...GLTF_TARGETS, ...SEQUENCE_TARGETS };

/** Compression error bounds the fuzzer loads with: the default, coarse, fine and extreme. */
const BOUNDS = [1e-4, 1e-4, 1e-2, 1e-6, 0.5, 1e-9, 100];

/**
 * Input `index` of a run with `seed` over `targets` (round robin, so each target gets the same
 * share): a valid file set from the target's generator, then none (1 in 10), one, two or three
 * mutations of the file the target is about; a third load compressed. A pure function of its arguments, so the runner can
 * make a failing input again from its seed and index.
 */
export function makeInput(seed: number, index: number, targets: readonly string[]): FuzzInput {
  const rng = new Rng(seed, index);
  const target = targets[index % targets.length]!;
  const base = TARGETS[target]!(new Params(rng));
  const mutations: string[] = [];
  let file = base.mutated === 'main' ? base.main : base.companions[base.mutated]!;
  const count = rng.chance(0.1) ? 0 : rng.pick([1, 1, 1, 2, 3]);
  for (let m = 0; m < count; m++) {
    const next = mutateFile(file, rng);
    file = next.file;
    mutations.push(next.what);
  }
  const input: FuzzInput = { target, main: base.main, companions: { ...base.companions }, mutated: base.mutated, mutations };
  // Half the inputs name their format, so damage that defeats detection still reaches the reader.
  if (rng.chance(0.5)) input.format = HANDLER_OF[target.split('-')[0]!];
  if (base.mutated === 'main') input.main = file;
  else input.companions[base.mutated] = file;
  // A third of the inputs load their clips compressed (drawn last, so the files above stay those of earlier runs).
  if (rng.chance(1 / 3)) input.compression = { translation: rng.pick(BOUNDS), rotation: rng.pick(BOUNDS), scale: rng.pick(BOUNDS) };
  return input;
}
