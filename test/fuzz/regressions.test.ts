// Every counterexample the fuzzer found (one per target and kind of failure, from runs against
// the code before issue 13's fixes) stays a regression case: each must now end in a FormatError
// or a resource that samples finite values and exports valid glTF, within the fuzzer's memory
// bound. `npm run fuzz -- --replay DIR` runs one by hand.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { createCore } from '../helpers/core.js';
import { allocationBound, runInput } from './pipeline.js';
import { loadInput } from './saved-input.js';

const root = join(dirname(fileURLToPath(import.meta.url)), 'regressions');
const cases = readdirSync(root).sort();

describe('fuzz counterexamples', () => {
  let core: lib.AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('are kept (at least one per reader)', () => {
    expect(cases.length).toBeGreaterThanOrEqual(16);
  });

  it.each(cases)('%s', async (name) => {
    const input = loadInput(join(root, name));
    const outcome = await runInput(lib, core, input);
    expect(outcome.result, `${outcome.code}: ${outcome.message ?? ''}`).not.toBe('failure');
    const bytes = [input.main, ...Object.values(input.companions)].reduce((n, f) => n + f.bytes.length, 0);
    expect(outcome.allocation).toBeLessThanOrEqual(allocationBound(bytes));
  });
});
