import fc from 'fast-check';
import { unityCurve, type UnityCurve } from '../../src/anim/index.js';
import { MRTK_BOOL_OUT_WEIGHT, type MrtkHand, type MrtkPoseCurves, type MrtkRecording } from '../../src/formats/mrtk/index.js';

/** A float32 the reader accepts (finite, within ±1e38; src/formats/value-range.ts). */
const f32 = fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e38), max: Math.fround(1e38) });
/** A float32 within ±`max`. */
const f32Within = (max: number) => fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-max), max: Math.fround(max) });
/**
 * Full keys: values, times, tangents (also ±Infinity: Unity's stepped keys) and weights in ranges
 * whose segments stay within ±1e38 (the reader refuses a segment reaching beyond: value +
 * weight × tangent × Δt ≤ 1e37 + 1e3 · 1e17 · 2e17).
 */
const fullKey = fc.record({
  time: f32Within(1e17),
  value: f32Within(1e37),
  inTangent: fc.oneof(f32Within(1e17), fc.constantFrom(Infinity, -Infinity)),
  outTangent: fc.oneof(f32Within(1e17), fc.constantFrom(Infinity, -Infinity)),
  inWeight: f32Within(1e3),
  outWeight: f32Within(1e3),
  weightedMode: fc.integer(),
});
const wrap = fc.constantFrom(0, 1, 2, 4, 8);

/** A curve as the reader reconstructs it: full keys (v1.0 pose), simple keys, or bool keys. */
function curve(layout: 'full' | 'simple' | 'bool'): fc.Arbitrary<UnityCurve> {
  const key = layout === 'full' ? fullKey : fc.record({ time: f32, value: f32, inTangent: fc.constant(0), outTangent: fc.constant(0), inWeight: fc.constant(0), outWeight: fc.constant(0), weightedMode: fc.constant(0) });
  type Key = typeof key extends fc.Arbitrary<infer K> ? K : never;
  const keyList: fc.Arbitrary<Key[]> = fc.oneof({ weight: 3, arbitrary: fc.constant<Key[]>([]) }, { weight: 1, arbitrary: fc.array(key, { maxLength: 3 }) });
  return fc.record({ pre: wrap, post: wrap, keys: keyList }).map(({ pre, post, keys: unsorted }) => {
    // Unity keeps keys sorted by time, and the reader refuses decreasing times.
    const keys = [...unsorted].sort((a, b) => a.time - b.time);
    const col = (k: keyof Key) => keys.map((x) => x[k]);
    if (layout === 'full') {
      return unityCurve({
        time: col('time'),
        value: col('value'),
        inTangent: col('inTangent'),
        outTangent: col('outTangent'),
        inWeight: col('inWeight'),
        outWeight: col('outWeight'),
        weightedMode: col('weightedMode'),
        preWrapMode: pre,
        postWrapMode: post,
      });
    }
    return unityCurve({
      time: col('time'),
      value: col('value'),
      outWeight: keys.map(() => (layout === 'bool' ? MRTK_BOOL_OUT_WEIGHT : 0)),
      preWrapMode: pre,
      postWrapMode: post,
    });
  });
}

const curves = (n: number, layout: 'full' | 'simple') => fc.array(curve(layout), { minLength: n, maxLength: n });

const pose = (layout: 'full' | 'simple'): fc.Arbitrary<MrtkPoseCurves> =>
  curves(7, layout).map((c) => ({ position: [c[0]!, c[1]!, c[2]!], rotation: [c[3]!, c[4]!, c[5]!, c[6]!] }));

const hand = (layout: 'full' | 'simple'): fc.Arbitrary<MrtkHand> =>
  fc.record({ tracked: curve('bool'), pinching: curve('bool'), joints: fc.array(pose(layout), { minLength: 27, maxLength: 27 }) });

const markers = fc.array(fc.record({ time: f32, name: fc.string({ unit: 'grapheme', maxLength: 150 }) }), { maxLength: 3 });

/** Random recordings in the shape the reader returns: v1.0 (camera and hands, full keys) or v1.1 (any flags, simple keys). */
export const arbitraryRecording: fc.Arbitrary<MrtkRecording> = fc.oneof(
  fc.record({ camera: pose('full'), left: hand('full'), right: hand('full'), markers }).map((r): MrtkRecording => ({
    versionMajor: 1,
    versionMinor: 0,
    camera: r.camera,
    hands: { left: r.left, right: r.right },
    gaze: null,
    markers: r.markers,
  })),
  fc
    .record({
      camera: fc.option(pose('simple')),
      hands: fc.option(fc.record({ left: hand('simple'), right: hand('simple') })),
      gaze: fc.option(curves(6, 'simple')),
      markers,
    })
    .map((r): MrtkRecording => ({
      versionMajor: 1,
      versionMinor: 1,
      camera: r.camera,
      hands: r.hands,
      gaze: r.gaze === null ? null : { origin: [r.gaze[0]!, r.gaze[1]!, r.gaze[2]!], direction: [r.gaze[3]!, r.gaze[4]!, r.gaze[5]!] },
      markers: r.markers,
    })),
);
