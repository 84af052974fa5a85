import type { AafHeader } from './header.js';
import type { AafText } from './text.js';

/**
 * The three byte layouts of an animation file's channels (spec aaf.md §2.1), in the order a
 * reader tries them: `per-channel` (a u16 key count per animated channel; what the writer writes
 * by default), `controller` (a u8 controller type before each channel's key count),
 * `shared-count` (one u16 key count per object with channels, shared by its channels).
 */
export type AafAnimationVariant = 'per-channel' | 'controller' | 'shared-count';
/** Every animation layout, in the order `readAafAnimation` tries them (spec aaf.md §2.1). */
export const AAF_ANIMATION_VARIANTS: readonly AafAnimationVariant[] = ['per-channel', 'controller', 'shared-count'];

/** Flag bits of an animated object (spec aaf.md §2): any other bit is an error. */
export const AafChannelFlag = { position: 2, rotation: 4, scale: 8 } as const;
/** A channel of an animated object: `position`, `rotation` or `scale`. */
export type AafChannelName = keyof typeof AafChannelFlag;

/** The channels in file order, with their value count per key (x y z, or qx qy qz qw). */
export const AAF_CHANNELS: readonly { name: AafChannelName; flag: number; size: 3 | 4 }[] = [
  { name: 'position', flag: AafChannelFlag.position, size: 3 },
  { name: 'rotation', flag: AafChannelFlag.rotation, size: 4 },
  { name: 'scale', flag: AafChannelFlag.scale, size: 3 },
];

/** Every flag bit the format defines (2 | 4 | 8). */
export const AAF_KNOWN_FLAGS = 0x0e;

/** One channel's keys as stored, times in file units (spec aaf.md §2.2; see `aafTimeScale`). */
export interface AafKeys {
  /** Raw key times in file units, non-decreasing, finite. */
  readonly times: Float32Array;
  /** `size × times.length` floats: x y z (position, scale) or qx qy qz qw (rotation) per key. */
  readonly values: Float32Array;
  /** The u8 controller type of the `controller` variant (1 = Position_XYZ); absent otherwise. */
  readonly controller?: number;
}

/** One object of an animation file: its name, flags and the channels the flags announce. */
export interface AafAnimationObject {
  readonly name: AafText;
  /** As stored: an OR of `AafChannelFlag` bits. */
  readonly flags: number;
  readonly position?: AafKeys;
  readonly rotation?: AafKeys;
  readonly scale?: AafKeys;
}

/** The content of an animation file (spec aaf.md §2), as a writer takes it. */
export interface AafAnimationInit {
  readonly header: AafHeader;
  /** Raw u16 length in file units (frames at 30 fps by default, spec aaf.md §2.2). */
  readonly animLength: number;
  readonly objects: readonly AafAnimationObject[];
}

/** An animation file as read: its content plus the layout variant that fit. */
export interface AafAnimation extends AafAnimationInit {
  readonly variant: AafAnimationVariant;
  /** Later variants that read the same bytes too (non-empty means the file is ambiguous). */
  readonly alsoMatches: readonly AafAnimationVariant[];
}
