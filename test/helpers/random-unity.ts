import fc from 'fast-check';
import { AnimClip, type AnimCurve, type CurveType, unityCurve, type UnityCurve } from '../../src/anim/index.js';

const f = (min: number, max: number) => fc.float({ min: Math.fround(min), max: Math.fround(max), noNaN: true, noDefaultInfinity: true });
const wrapMode = fc.constantFrom(0, 1, 2, 4, 8);

/** Strictly increasing float32 key times. */
function keyTimes(n: number): fc.Arbitrary<number[]> {
  return fc.tuple(f(-5, 5), fc.array(f(0.01, 2), { minLength: n, maxLength: n })).map(([start, steps]) => {
    const times: number[] = [];
    let t = start;
    for (const s of steps) {
      times.push(Math.fround(t));
      t = Math.fround(t + s);
    }
    return times;
  });
}

/** One lane over `times`: linear MRTK keys, or random tangents (some infinite), weights and modes. */
function lane(times: number[], pre: number, post: number, forceLinear = false): fc.Arbitrary<UnityCurve> {
  const n = times.length;
  const arr = <T>(a: fc.Arbitrary<T>) => fc.array(a, { minLength: n, maxLength: n });
  const tangent = fc.oneof({ weight: 8, arbitrary: f(-5, 5) }, { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity) });
  return fc.record({
    linear: fc.boolean(),
    value: arr(f(-10, 10)),
    inTangent: arr(tangent),
    outTangent: arr(tangent),
    inWeight: arr(f(0, 1)),
    outWeight: arr(f(0, 1)),
    weightedMode: arr(fc.integer({ min: 0, max: 3 })),
  }).map((k) =>
    k.linear || forceLinear
      ? unityCurve({ time: times, value: k.value, preWrapMode: pre, postWrapMode: post })
      : unityCurve({ ...k, time: times, preWrapMode: pre, postWrapMode: post }),
  );
}

const curveSpec = fc.record({
  curveType: fc.constantFrom<CurveType>('translation', 'rotation', 'scale', 'float', 'float4', 'bool'),
  laneCount: fc.integer({ min: 1, max: 4 }),
  keyCount: fc.integer({ min: 0, max: 7 }),
  shared: fc.boolean(),
  /** Every lane linear: with shared times, the kernel's float4 path (UNITY_LINEAR4). */
  linear: fc.boolean(),
  active: fc.boolean(),
  isStatic: fc.boolean(),
  pre: wrapMode,
  post: wrapMode,
});

/** Random Unity-curve clips: 1–8 curves of several types, 1–4 lanes of 0–7 keys, shared key times or not. */
export const arbitraryUnityClip = fc
  .array(curveSpec, { minLength: 1, maxLength: 8 })
  // Curve 0 is never static: a clip of static curves only is a uniform clip.
  .map((specs) => specs.map((s, i) => (i === 0 ? { ...s, isStatic: false } : s)))
  .chain((specs) =>
  fc
    .tuple(
      ...specs.map((s) => {
        const lanes = s.curveType === 'rotation' ? 4 : s.laneCount;
        if (s.shared) {
          return keyTimes(s.keyCount).chain((times) => fc.tuple(...Array.from({ length: lanes }, () => lane(times, s.pre, s.post, s.linear))));
        }
        return fc.tuple(
          ...Array.from({ length: lanes }, () =>
            fc.tuple(fc.integer({ min: 0, max: 7 }), wrapMode, wrapMode).chain(([n, pre, post]) => keyTimes(n).chain((t) => lane(t, pre, post))),
          ),
        );
      }),
    )
    .map((laneSets) => {
      const curves: AnimCurve[] = specs.map((s, i) => ({
        curveType: s.curveType,
        active: s.active,
        target: { joint: `j${i}`, property: s.curveType },
        keys: s.isStatic ? { encoding: 'static', value: Float32Array.of(i, 1, 2, 3) } : { encoding: 'unity', lanes: laneSets[i]! },
      }));
      // Like MRTK's Duration: the last key time of any lane (spec mrtk.md §4.4).
      const duration = Math.max(0, ...laneSets.flat().map((l) => (l.time.length > 0 ? l.time[l.time.length - 1]! : 0)));
      return new AnimClip({ name: 'random-unity', curves, duration });
    }),
);
