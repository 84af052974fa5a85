/** A named moment of a clip (Nebula3 `AnimEvent`): `time` in seconds from the clip start. */
export interface AnimEvent {
  readonly name: string;
  /** May be empty. */
  readonly category: string;
  /** Seconds. */
  readonly time: number;
}
