/**
 * What a clip does outside [0, duration) (Nebula3 `CoreAnimation::InfinityType`, spec nebula.md
 * §3.3): `constant` holds the first/last key, `cycle` repeats the clip; the last interval of a
 * cycling uniform clip runs from the last key back to key 0.
 */
export const InfinityType = {
  Constant: 'constant',
  Cycle: 'cycle',
} as const;
export type InfinityType = (typeof InfinityType)[keyof typeof InfinityType];
