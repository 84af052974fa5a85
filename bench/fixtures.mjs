// Where the benchmark suites find the shared fixtures (../shared/fixtures or ANIMCORE_FIXTURES);
// suites that need them skip with a message when they are missing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

/** The fixtures folder (also served to the browser benchmarks). */
export const FIXTURES = resolve(process.env.ANIMCORE_FIXTURES ?? join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'shared', 'fixtures'));

/** The fixture's bytes, or null (with a printed reason) when the fixtures are not there. */
export function fixture(format, name) {
  const path = join(FIXTURES, format, name);
  if (!existsSync(path)) {
    console.warn(`skipping benchmarks that need ${path} (fixtures not found; set ANIMCORE_FIXTURES)`);
    return null;
  }
  return new Uint8Array(readFileSync(path));
}
