// The fuzzer's generators write valid files: with no extreme parameters and no mutation, every
// target's file set opens, samples, exports and validates. (Otherwise the fuzzer would only ever
// test refusals.) Runs in `npm test` with fixed seeds.
import { beforeAll, describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { createCore } from '../helpers/core.js';
import { Params } from './input.js';
import { runInput } from './pipeline.js';
import { Rng } from './rng.js';
import { makeInput, TARGETS } from './targets.js';

describe('fuzz generators', () => {
  let core: lib.AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it.each(Object.keys(TARGETS))('%s: unmutated file sets are accepted and export valid glTF', async (target) => {
    for (let i = 0; i < 12; i++) {
      const base = TARGETS[target]!(new Params(new Rng(7, i), 0));
      const outcome = await runInput(lib, core, { target, ...base, mutations: [] });
      expect(outcome.result, `${target} #${i}: ${outcome.code} ${outcome.message ?? ''}`).toBe('accepted');
    }
  });
});

describe('fuzz smoke run (fixed seed)', () => {
  let core: lib.AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  // The same inputs as `npm run fuzz -- --seed 20261123`, first 30 per target: mutated file sets
  // must end in a FormatError or in finite samples and valid glTF. `npm run fuzz` explores further.
  it.each(Object.keys(TARGETS))('%s', async (target) => {
    const targets = Object.keys(TARGETS);
    const slot = targets.indexOf(target);
    for (let k = 0; k < 30; k++) {
      const index = slot + k * targets.length;
      const outcome = await runInput(lib, core, makeInput(20261123, index, targets));
      expect(outcome.result, `#${index} ${outcome.code}: ${outcome.message ?? ''}`).not.toBe('failure');
    }
  });
});
