/**
 * The fast-check seed of `npm test`: fixed, so a fresh clone cannot fail by chance; `FC_SEED`
 * overrides it for exploration (`FC_SEED=123 npm test`). `npm run fuzz` is where random seeds belong.
 */
export function fastCheckSeed(): number {
  const seed = process.env.FC_SEED === undefined ? 20261123 : Number(process.env.FC_SEED);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, got "${process.env.FC_SEED}"`);
  return seed;
}
