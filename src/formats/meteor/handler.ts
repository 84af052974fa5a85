import type { FormatHandler, OpenInput } from '../handler.js';
import { UsageError } from '../../errors.js';
import { openMeteorCharacter } from './to-resource.js';

const MAGIC = [0x42, 0x41, 0x4e, 0x49, 0x4d]; // "BANIM"

/** The base name of a path without folders and extension (`dir/p0.amb` → `p0`). */
function baseName(path: string): string {
  const file = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/**
 * Meteor characters for the CLI: detects a `.amb` by its `BANIM` magic (spec meteor.md §3.1) and
 * opens it with its `.bnc` and `.pos` — given as companions `bnc` / `pos`, or found next to it by
 * base name, case-insensitively (`p0.amb` with `P0.bnc` and `P0.pos`). `skc` and `characterAmb`
 * companions (or `<base>.skc` / `character.amb` beside it) are used when present.
 * @throws UsageError when the `.bnc` or `.pos` is not given and not found
 */
export const meteorHandler: FormatHandler = {
  id: 'meteor',
  description: 'Meteor Blade character: .amb animation with its .bnc skeleton and .pos clip table',
  detect(bytes: Uint8Array): boolean {
    return bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b);
  },
  open(input: OpenInput) {
    const base = baseName(input.path);
    const find = (role: string, name: string) => input.companions[role] ?? input.sibling(name);
    const need = (role: string, ext: string): Uint8Array => {
      const bytes = find(role, `${base}.${ext}`);
      if (!bytes) throw new UsageError(`${input.path}: no ${base}.${ext} next to it; name the .${ext} file with the "${role}" companion option`);
      return bytes;
    };
    const skc = find('skc', `${base}.skc`);
    const characterAmb = find('characterAmb', 'character.amb');
    return openMeteorCharacter({
      amb: input.bytes,
      bnc: need('bnc', 'bnc'),
      pos: need('pos', 'pos'),
      ...(skc && { skc }),
      ...(characterAmb && { characterAmb }),
    });
  },
};
