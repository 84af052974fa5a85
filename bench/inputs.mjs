// The benchmark's batch inputs: every fixture and example file that opens on its own, as the
// CLI's folder walk decides it (resample-batch, reduce-batch).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectFormat, openFile, planSet } from '../dist/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = process.env.ANIMCORE_FIXTURES ?? join(root, '..', 'shared', 'fixtures');

function files(dir) {
  try {
    return readdirSync(dir).sort().flatMap((e) => (statSync(join(dir, e)).isDirectory() ? files(join(dir, e)) : [join(dir, e)]));
  } catch {
    return [];
  }
}

/**
 * Every file that opens on its own (`planSet`, as the CLI's folder walk decides: an AAF animation
 * beside its scene and Meteor's shared character.amb are companions), opened with its companions:
 * `{ path, bytes, resource }` (bytes: the main file's size).
 */
export async function openAll() {
  const out = [];
  for (const dir of [...new Set([...files(fixtures), ...files(join(root, 'examples'))].map((p) => dirname(p)))]) {
    const members = readdirSync(dir)
      .filter((e) => statSync(join(dir, e)).isFile())
      .map((name) => ({ name, detection: detectFormat(new Uint8Array(readFileSync(join(dir, name))), name) }));
    for (const { name } of planSet(members).mains) {
      const path = join(dir, name);
      out.push({ path, bytes: statSync(path).size, resource: (await openFile(path)).resource });
    }
  }
  return out;
}
