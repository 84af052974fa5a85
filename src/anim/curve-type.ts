/**
 * What a curve's float4 sample means. Rotation samples are quaternions (x, y, z, w); every other
 * type is interpolated component-wise. Velocity is Nebula3's anim-driven-motion curve (nax3 code 4,
 * spec nebula.md §2.2), scaled by the playback time factor. Bool samples are 0 or 1 in x.
 */
export const CurveType = {
  Translation: 'translation',
  Rotation: 'rotation',
  Scale: 'scale',
  Velocity: 'velocity',
  Color: 'color',
  Float4: 'float4',
  Float: 'float',
  Bool: 'bool',
} as const;
export type CurveType = (typeof CurveType)[keyof typeof CurveType];

/** Every curve type, in a fixed order (the wasm core's numeric codes are indices into it). */
export const CURVE_TYPES: readonly CurveType[] = Object.values(CurveType);
