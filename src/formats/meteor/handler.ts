import { UsageError } from '../../errors.js';
import type { FormatHandler } from '../handler.js';
import { openMeteor } from './open.js';

const MAGIC = [0x42, 0x41, 0x4e, 0x49, 0x4d]; // "BANIM"

/**
 * Meteor characters: a `.amb` detected by its `BANIM` magic (spec meteor.md §3.1), opened with its
 * `.bnc` skeleton and `.pos` clip table (required) and, when present, its `.skc` skin and the
 * shared moves `character.amb`; beside it they are found by base name, case-insensitively
 * (`p0.amb` with `P0.bnc` and `P0.pos`), else the only `.bnc` / `.pos` beside it.
 */
export const meteorHandler: FormatHandler<null> = {
  id: 'meteor',
  description: 'Meteor Blade character: .amb animation with its .bnc skeleton and .pos clip table',
  priority: 40,
  extensions: ['.amb'],
  companions: [
    { role: 'bnc', extensions: ['.bnc'], description: 'Meteor skeleton (.bnc)', required: true, byContent: true },
    { role: 'pos', extensions: ['.pos'], description: 'Meteor pose table (.pos)', required: true, byContent: true },
    { role: 'skc', extensions: ['.skc'], description: 'Meteor skinned mesh (.skc)' },
    { role: 'characterAmb', extensions: [], names: ['character.amb'], description: "Meteor shared moves (character.amb, the poses of source 0)" },
  ],
  detect: (bytes) => (bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b) ? { parsed: null } : null),
  open(input) {
    const { bnc, pos, skc, characterAmb } = input.companions;
    // resolveCompanions refuses a missing required companion; this guards direct callers.
    if (!bnc || !pos) throw new UsageError(`${input.path}: a Meteor character needs its .bnc and .pos`);
    return openMeteor({ amb: input.bytes, bnc, pos, ...(skc && { skc }), ...(characterAmb && { characterAmb }) });
  },
};
