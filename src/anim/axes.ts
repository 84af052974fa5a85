/**
 * Which way a resource's space points: its up axis and its handedness. glTF is Y-up and
 * right-handed (glTF 2.0 §3.4 "Coordinate System and Units"), so exporters convert from these.
 * Each format declares its own in its `to-resource` (spec `<format>.md`), and `animcore info`
 * prints it.
 */
export interface SourceAxes {
  readonly up: 'y' | 'z';
  readonly handedness: 'right' | 'left';
  /** Where the fact comes from: a spec section or an upstream file, or that the format does not say. */
  readonly basis: string;
}

/** Y-up, right-handed: glTF's axes, and the default of a resource whose format declares none. */
export const Y_UP_RIGHT_HANDED: SourceAxes = { up: 'y', handedness: 'right', basis: 'glTF 2.0 §3.4' };

/** `Z-up, right-handed` and the like, for `info` and summaries. */
export function axesText(axes: Pick<SourceAxes, 'up' | 'handedness'>): string {
  return `${axes.up.toUpperCase()}-up, ${axes.handedness}-handed`;
}
