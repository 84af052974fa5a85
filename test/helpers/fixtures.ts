import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** `../shared/fixtures` beside the checkout, or `ANIMCORE_FIXTURES`. */
export const FIXTURES = resolve(process.env.ANIMCORE_FIXTURES ?? join(here, '..', '..', '..', 'shared', 'fixtures'));

/**
 * Whether the fixtures of `format` are present. Under CI=true missing fixtures are an error;
 * otherwise the caller skips with the printed reason.
 */
export function haveFixtures(format: string): boolean {
  const ok = existsSync(join(FIXTURES, format));
  if (!ok) {
    const reason = `fixtures for ${format} not found at ${FIXTURES} (set ANIMCORE_FIXTURES)`;
    if (process.env.CI === 'true') throw new Error(reason);
    console.warn(`skipping: ${reason}`);
  }
  return ok;
}

export function fixturePath(format: string, name: string): string {
  return join(FIXTURES, format, name);
}

/** A fixture's bytes as a fresh Uint8Array. */
export function readFixture(format: string, name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(format, name)));
}

export function readFixtureText(format: string, name: string): string {
  return readFileSync(fixturePath(format, name), 'utf8');
}

export function expectedJson<T = any>(format: string): T {
  return JSON.parse(readFileSync(fixturePath(format, 'expected.json'), 'utf8')) as T;
}
