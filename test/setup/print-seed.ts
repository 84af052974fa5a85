// vitest globalSetup: prints the fast-check seed once per run, so any failure can be repeated.
import { fastCheckSeed } from './fast-check-seed.js';

export default function printSeed(): void {
  const seed = fastCheckSeed();
  console.log(`fast-check seed ${seed}${process.env.FC_SEED === undefined ? ' (fixed; FC_SEED=<n> explores others)' : ' (from FC_SEED)'}`);
}
