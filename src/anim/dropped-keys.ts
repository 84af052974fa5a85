import { UsageError } from '../errors.js';
import type { AnimClip } from './clip.js';
import type { AnimCurve, CurveKeys } from './curve.js';
import { DROPPED_REST, restValue } from './rest-value.js';

/**
 * Replaces the keys of every animated curve of `clip` with stand-ins of the same `encoding` whose
 * key arrays (`values`, `times`, `lanes`) throw a `UsageError` naming the clip and curve, so that
 * the arrays can be garbage-collected once a core holds the keys (`core.load(resource,
 * { retainKeys: false })`). The rest value (`restValue`) and `storedKeyCount` stay readable;
 * sampling through the core is unaffected; reading, exporting, resampling from JS or loading into
 * another core fails. Static curves keep their value.
 */
export function dropKeys(clip: AnimClip): void {
  if (clip.storedKeyCount < 0) return; // counted (and kept by the clip) while the arrays are there
  const curves = clip.curves as AnimCurve[];
  curves.forEach((curve, i) => {
    if (curve.keys.encoding === 'static' || DROPPED_REST in curve.keys) return;
    curves[i] = { ...curve, keys: standIn(curve.keys, `clip "${clip.name}" curve ${i}`) };
  });
}

function standIn(keys: Exclude<CurveKeys, { encoding: 'static' }>, where: string): CurveKeys {
  const fail = (): never => {
    throw new UsageError(`${where}: its keys were dropped when its resource was loaded with retainKeys: false; the core still samples it, but reading, exporting or loading its keys elsewhere needs the file opened again`);
  };
  const rest = { [DROPPED_REST]: restValue(keys) };
  switch (keys.encoding) {
    case 'uniform':
      return Object.freeze({ ...rest, encoding: 'uniform' as const, get values(): Float32Array { return fail(); } });
    case 'keyed':
      return Object.freeze({ ...rest, encoding: 'keyed' as const, get times(): Float32Array { return fail(); }, get values(): Float32Array { return fail(); } });
    case 'cubic':
      return Object.freeze({ ...rest, encoding: 'cubic' as const, get times(): Float32Array { return fail(); }, get values(): Float32Array { return fail(); } });
    case 'unity':
      return Object.freeze({ ...rest, encoding: 'unity' as const, get lanes(): never { return fail(); } });
  }
}
