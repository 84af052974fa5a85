// A fuzz input on disk: its files under their own names plus `input.json` (target, roles, the
// mutations, the seed and index that make it again, and what went wrong). The runner writes one
// folder per failing input; kept counterexamples live in test/fuzz/regressions/ in the same form.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FuzzInput } from './input.js';
import type { Outcome } from './pipeline.js';

interface SavedInput {
  target: string;
  seed: number;
  index: number;
  mutated: string;
  mutations: string[];
  format?: string;
  compression?: FuzzInput['compression'];
  main: string;
  /** Companion role → file name in the folder. */
  companions: Record<string, string>;
  outcome?: Omit<Outcome, 'stack'>;
  stack?: string;
}

/** The repository's folder, with a trailing separator, as a stack names it. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `stack` with the repository's folder left out of its paths (a kept counterexample names no machine's folders). */
function relativeStack(stack: string): string {
  return stack.replaceAll(`file://${ROOT}`, '').replaceAll(ROOT, '');
}

export function saveInput(dir: string, input: FuzzInput, seed: number, index: number, outcome?: Outcome): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, input.main.name), input.main.bytes);
  for (const f of Object.values(input.companions)) writeFileSync(join(dir, f.name), f.bytes);
  const { stack, ...summary } = outcome ?? ({} as Partial<Outcome>);
  const saved: SavedInput = {
    target: input.target,
    seed,
    index,
    mutated: input.mutated,
    mutations: input.mutations,
    ...(input.format !== undefined && { format: input.format }),
    ...(input.compression !== undefined && { compression: input.compression }),
    main: input.main.name,
    companions: Object.fromEntries(Object.entries(input.companions).map(([role, f]) => [role, f.name])),
    ...(outcome && { outcome: summary as Omit<Outcome, 'stack'> }),
    ...(stack !== undefined && { stack: relativeStack(stack) }),
  };
  writeFileSync(join(dir, 'input.json'), JSON.stringify(saved, null, 2) + '\n');
}

export function loadInput(dir: string): FuzzInput {
  const saved = JSON.parse(readFileSync(join(dir, 'input.json'), 'utf8')) as SavedInput;
  const file = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) });
  return {
    target: saved.target,
    main: file(saved.main),
    companions: Object.fromEntries(Object.entries(saved.companions).map(([role, name]) => [role, file(name)])),
    mutated: saved.mutated,
    mutations: saved.mutations,
    ...(saved.format !== undefined && { format: saved.format }),
    ...(saved.compression !== undefined && { compression: saved.compression }),
  };
}
