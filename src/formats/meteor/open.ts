import type { AnimResource } from '../../anim/index.js';
import type { AxisOptions } from './axes.js';
import { type MeteorCharacterFiles, openMeteorCharacter } from './to-resource.js';

/** The files of one Meteor character without the axis options (`.amb`, `.bnc`, `.pos`, optional `.skc` and `character.amb`). */
export type MeteorFiles = Omit<MeteorCharacterFiles, keyof AxisOptions>;

/**
 * Opens a Meteor character from its files, in the `open<Fmt>(files, options)` shape every format
 * folder shares; `openMeteorCharacter` documents the result.
 * @throws FormatError from the readers
 */
export function openMeteor(files: MeteorFiles, options: AxisOptions = {}): AnimResource {
  return openMeteorCharacter({ ...files, ...options });
}
