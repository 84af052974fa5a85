import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundledExamples } from '../src/examples/index.js';
import { FORMAT_HANDLERS } from '../src/formats/registry.js';
import { openFile } from '../src/cli/open-file.js';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');

describe('bundled examples', () => {
  it.each(bundledExamples().map((e) => [e.path, e] as const))('%s equals a fresh generation by the project writers', (path, example) => {
    expect(new Uint8Array(readFileSync(join(examples, path)))).toEqual(example.bytes);
  });

  it.each(bundledExamples().map((e) => e.path))('%s opens through format detection', async (path) => {
    const opened = await openFile(join(examples, path));
    expect(FORMAT_HANDLERS).toContain(opened.handler);
    expect(opened.resource.clips.length).toBeGreaterThan(0);
  });
});
