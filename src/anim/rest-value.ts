import type { CurveKeys } from './curve.js';

/** Where a stand-in for dropped keys (`dropKeys`) keeps the rest value, the one thing it keeps. */
export const DROPPED_REST = Symbol('animcore.droppedRest');

/**
 * The value a curve holds where it does not animate (static curves, inactive curves): its static
 * value, else its first key — for cubic curves key 0's value (not its in-tangent), for Unity
 * curves each lane's first key value (missing lanes 0). Keys dropped at load (`dropKeys`) still
 * give it. Returns a new `Float32Array` of 4 floats.
 */
export function restValue(keys: CurveKeys): Float32Array {
  const kept = (keys as { [DROPPED_REST]?: Float32Array })[DROPPED_REST];
  if (kept !== undefined) return kept.slice();
  switch (keys.encoding) {
    case 'static':
      return keys.value.slice(0, 4);
    case 'uniform':
    case 'keyed':
      return keys.values.slice(0, 4);
    case 'cubic':
      return keys.values.slice(4, 8);
    case 'unity':
      return Float32Array.from({ length: 4 }, (_, i) => keys.lanes[i]?.value[0] ?? 0);
  }
}
