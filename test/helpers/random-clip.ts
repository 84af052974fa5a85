import fc from 'fast-check';
import { AnimClip, type AnimCurve, CURVE_TYPES, type CurveType, InfinityType } from '../../src/anim/index.js';

const f = (min: number, max: number) => fc.float({ min, max, noNaN: true, noDefaultInfinity: true });

/** A random unit quaternion-ish float4 (not normalised exactly, as real keys are not). */
const quat = fc
  .tuple(f(-1, 1), f(-1, 1), f(-1, 1), f(-1, 1))
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01)
  .map(([x, y, z, w]) => {
    const l = Math.hypot(x, y, z, w);
    return [x / l, y / l, z / l, w / l];
  });

const curveSpec = fc.record({
  curveType: fc.constantFrom<CurveType>(...CURVE_TYPES),
  active: fc.boolean(),
  isStatic: fc.boolean(),
  seed: fc.array(f(-100, 100), { minLength: 4, maxLength: 4 }),
});

/** Random uniform clips: 1–12 curves of every type, 1–8 keys, random infinity and key duration. */
export const arbitraryUniformClip = fc
  .record({
    keyCount: fc.integer({ min: 1, max: 8 }),
    keyDuration: fc.constantFrom(0.04, 1 / 30, 0.1, 0.0166667, 0.5),
    pre: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    post: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    curves: fc.array(curveSpec, { minLength: 1, maxLength: 12 }),
  })
  .chain((spec) =>
    fc
      .tuple(
        ...spec.curves.map((c) =>
          c.curveType === 'rotation'
            ? fc.array(quat, { minLength: spec.keyCount, maxLength: spec.keyCount })
            : fc.array(fc.array(f(-100, 100), { minLength: 4, maxLength: 4 }), {
                minLength: spec.keyCount,
                maxLength: spec.keyCount,
              }),
        ),
      )
      .map((keysPerCurve) => {
        const curves: AnimCurve[] = spec.curves.map((c, i) => {
          const keys = keysPerCurve[i]!;
          return {
            curveType: c.curveType,
            active: c.active,
            target: { joint: `j${i}`, property: c.curveType },
            keys: c.isStatic
              ? { encoding: 'static', value: Float32Array.from(keys[0]!) }
              : { encoding: 'uniform', values: Float32Array.from(keys.flat()) },
          };
        });
        return new AnimClip({
          name: 'random',
          curves,
          keyCount: spec.keyCount,
          keyDuration: spec.keyDuration,
          preInfinity: spec.pre,
          postInfinity: spec.post,
        });
      }),
  );

/**
 * Random keyed clips: 1–10 curves of every type, 1–8 keys at random non-decreasing times (steps
 * included), each curve `linear` or `step`, rotations with random signs (so key pairs on both
 * sides of the shorter arc).
 */
export const arbitraryKeyedClip = fc
  .record({
    pre: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    post: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    curves: fc.array(curveSpec, { minLength: 1, maxLength: 10 }),
  })
  .chain((spec) =>
    fc
      .tuple(
        ...spec.curves.map((c) =>
          fc.integer({ min: 1, max: 8 }).chain((n) =>
            fc.tuple(
              fc.constantFrom<'linear' | 'step'>('linear', 'linear', 'step'),
              // Quantised steps make equal neighbouring times (a step) common.
              fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }).map((steps) => {
                let t = -0.25;
                return steps.map((s) => (t += s * 0.125));
              }),
              c.curveType === 'rotation'
                ? fc.array(quat, { minLength: n, maxLength: n })
                : fc.array(fc.array(f(-100, 100), { minLength: 4, maxLength: 4 }), { minLength: n, maxLength: n }),
            ),
          ),
        ),
      )
      .map((perCurve) => {
        const curves: AnimCurve[] = spec.curves.map((c, i) => {
          const [interpolation, times, keys] = perCurve[i]!;
          return {
            curveType: c.curveType,
            active: c.active,
            target: { joint: `j${i}`, property: c.curveType },
            keys: c.isStatic
              ? { encoding: 'static', value: Float32Array.from(keys[0]!) }
              : { encoding: 'keyed', times: Float32Array.from(times), values: Float32Array.from(keys.flat()), interpolation },
          };
        });
        return new AnimClip({ name: 'random-keyed', curves, preInfinity: spec.pre, postInfinity: spec.post });
      }),
  );

/**
 * Random clips mixing uniform and keyed curves (one block per encoding under a mixed header in the
 * core): the curves of a random uniform clip and a random keyed clip, interleaved, on the uniform
 * clip's key grid and infinity.
 */
export const arbitraryMixedClip = fc.tuple(arbitraryUniformClip, arbitraryKeyedClip, fc.boolean()).map(([u, k, keyedFirst]) => {
  const curves: AnimCurve[] = [];
  for (let i = 0; i < Math.max(u.curves.length, k.curves.length); i++) {
    const pair = keyedFirst ? [k.curves[i], u.curves[i]] : [u.curves[i], k.curves[i]];
    for (const c of pair) if (c !== undefined) curves.push({ ...c, target: { joint: `j${curves.length}`, property: c.curveType } });
  }
  return new AnimClip({
    name: 'random-mixed',
    curves,
    keyCount: u.keyCount,
    keyDuration: u.keyDuration,
    preInfinity: u.preInfinity,
    postInfinity: u.postInfinity,
  });
});

/**
 * Random rigs as the compressed encoding sees them: 1–6 joints of T/R/S uniform curves (T and S
 * with w = 0, ranges from millimetres to kilometres; unit rotations moving a little or a lot per
 * key, with q/−q flips between keys), some static or inactive curves and a Float curve beside them,
 * 1–12 keys, random infinity and key duration.
 */
export const arbitraryRigClip = fc
  .record({
    joints: fc.integer({ min: 1, max: 6 }),
    keyCount: fc.integer({ min: 1, max: 12 }),
    keyDuration: fc.constantFrom(1 / 30, 0.1, 0.5),
    pre: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    post: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    extra: fc.boolean(),
  })
  .chain((spec) => {
    const n = spec.keyCount;
    const vector = fc
      .record({ scale: fc.constantFrom(1e-3, 1, 30, 1e4), offset: f(-50, 50), keys: fc.array(fc.tuple(f(-1, 1), f(-1, 1), f(-1, 1)), { minLength: n, maxLength: n }) })
      .map(({ scale, offset, keys }) => Float32Array.from(keys.flatMap(([x, y, z]) => [offset + x * scale, offset + y * scale, z * scale, 0])));
    const rotation = fc
      .record({ start: quat, spread: fc.constantFrom(0.02, 0.3, 2), steps: fc.array(fc.tuple(f(-1, 1), f(-1, 1), f(-1, 1), fc.boolean()), { minLength: n, maxLength: n }) })
      .map(({ start, spread, steps }) => {
        let q = start;
        return Float32Array.from(
          steps.flatMap(([dx, dy, dz, flip]) => {
            const next = [q[0]! + dx * spread, q[1]! + dy * spread, q[2]! + dz * spread, q[3]!];
            const l = Math.hypot(...next);
            q = next.map((c) => c / l);
            return q.map((c) => (flip ? -c : c));
          }),
        );
      });
    const kind = fc.constantFrom('animated', 'animated', 'animated', 'static', 'inactive');
    const joint = fc.tuple(vector, rotation, vector, kind, kind, kind);
    return fc.tuple(fc.array(joint, { minLength: spec.joints, maxLength: spec.joints }), fc.array(f(-5, 5), { minLength: 4 * n, maxLength: 4 * n })).map(([joints, extra]) => {
      const curves: AnimCurve[] = [];
      joints.forEach(([t, r, s, kt, kr, ks], j) => {
        for (const [curveType, values, k] of [
          ['translation', t, kt],
          ['rotation', r, kr],
          ['scale', s, ks],
        ] as const) {
          curves.push({
            curveType,
            active: k !== 'inactive',
            target: { joint: `j${j}`, property: curveType },
            keys: k === 'static' ? { encoding: 'static', value: values.slice(0, 4) } : { encoding: 'uniform', values },
          });
        }
      });
      if (spec.extra) curves.push({ curveType: 'float', active: true, target: { joint: null, property: 'x' }, keys: { encoding: 'uniform', values: Float32Array.from(extra) } });
      return new AnimClip({ name: 'random-rig', curves, keyCount: n, keyDuration: spec.keyDuration, preInfinity: spec.pre, postInfinity: spec.post });
    });
  });

/**
 * Random keyed clips of many curves with times of their own (each curve's first time differs, so
 * no two curves form a time group): 0–140 rotations and 0–70 other curves, 1–6 keys each (equal
 * neighbouring times common), some STEP, some 1-key; sampled in the kernel's chunks of 64.
 */
export const arbitraryOwnTimesKeyedClip = fc
  .record({
    post: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    rotations: fc.integer({ min: 0, max: 140 }),
    others: fc.integer({ min: 0, max: 70 }),
  })
  .filter(({ rotations, others }) => rotations + others > 0)
  .chain(({ post, rotations, others }) => {
    const types: CurveType[] = [...Array<CurveType>(others).fill('translation'), ...Array<CurveType>(rotations).fill('rotation')];
    return fc
      .tuple(
        fc.shuffledSubarray(types, { minLength: types.length, maxLength: types.length }),
        fc.array(
          fc.integer({ min: 1, max: 6 }).chain((n) =>
            fc.tuple(
              fc.constantFrom<'linear' | 'step'>('linear', 'linear', 'linear', 'step'),
              fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
              fc.array(quat, { minLength: n, maxLength: n }),
              fc.array(fc.array(f(-100, 100), { minLength: 4, maxLength: 4 }), { minLength: n, maxLength: n }),
            ),
          ),
          { minLength: types.length, maxLength: types.length },
        ),
      )
      .map(([order, perCurve]) => {
        const curves: AnimCurve[] = order.map((curveType, i) => {
          const [interpolation, steps, rotationKeys, otherKeys] = perCurve[i]!;
          let t = -0.25 + i / 1024;
          const times = Float32Array.from(steps, (s, k) => (k === 0 ? t : (t += s * 0.125)));
          const keys = curveType === 'rotation' ? rotationKeys : otherKeys;
          return { curveType, active: true, target: { joint: `j${i}`, property: curveType }, keys: { encoding: 'keyed', times, values: Float32Array.from(keys.flat()), interpolation } };
        });
        return new AnimClip({ name: 'random-own-times', curves, postInfinity: post });
      });
  });

/**
 * Random keyed clips whose curves share key times, as glTF samplers share an input accessor: 1–3
 * time arrays (1–8 keys, steps included), 2–12 curves of every type, each on one of them, holding
 * that very array or an equal copy (the core groups both), `linear` or `step`; rotations with
 * random signs (q and −q between neighbouring keys); some static or inactive curves.
 */
export const arbitrarySharedKeyedClip = fc
  .record({
    pre: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    post: fc.constantFrom(InfinityType.Constant, InfinityType.Cycle),
    times: fc.array(
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }).map((steps) => {
        let t = -0.25;
        return Float32Array.from(steps, (s) => (t += s * 0.125));
      }),
      { minLength: 1, maxLength: 3 },
    ),
    curves: fc.array(fc.record({ spec: curveSpec, source: fc.nat(2), copy: fc.boolean(), interpolation: fc.constantFrom<'linear' | 'step'>('linear', 'linear', 'step') }), {
      minLength: 2,
      maxLength: 12,
    }),
  })
  .chain(({ pre, post, times, curves }) => {
    const sourceOf = (c: (typeof curves)[number]) => times[c.source % times.length]!;
    return fc
      .tuple(
        ...curves.map((c) => {
          const n = sourceOf(c).length;
          return c.spec.curveType === 'rotation' ? fc.array(quat, { minLength: n, maxLength: n }) : fc.array(fc.array(f(-100, 100), { minLength: 4, maxLength: 4 }), { minLength: n, maxLength: n });
        }),
      )
      .map((keysPerCurve) => {
        const animCurves: AnimCurve[] = curves.map((c, i) => {
          const keys = keysPerCurve[i]!;
          const source = sourceOf(c);
          return {
            curveType: c.spec.curveType,
            active: c.spec.active,
            target: { joint: `j${i}`, property: c.spec.curveType },
            keys: c.spec.isStatic
              ? { encoding: 'static', value: Float32Array.from(keys[0]!) }
              : { encoding: 'keyed', times: c.copy ? source.slice() : source, values: Float32Array.from(keys.flat()), interpolation: c.interpolation },
          };
        });
        return new AnimClip({ name: 'random-shared-keyed', curves: animCurves, preInfinity: pre, postInfinity: post });
      });
  });
