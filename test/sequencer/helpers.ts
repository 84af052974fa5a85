import { AnimClip, type AnimCurve, type AnimEvent, AnimResource, Skeleton, staticKeys } from '../../src/anim/index.js';

/** Quaternion (x y z w) of `degrees` about a unit axis. */
export function axisAngle(axis: [number, number, number], degrees: number): [number, number, number, number] {
  const h = (degrees * Math.PI) / 360;
  return [axis[0] * Math.sin(h), axis[1] * Math.sin(h), axis[2] * Math.sin(h), Math.cos(h)];
}

/** Hamilton product, written out for the tests (independent of the code under test). */
export function qmul(a: number[], b: number[]): [number, number, number, number] {
  const [ax, ay, az, aw] = a as [number, number, number, number];
  const [bx, by, bz, bw] = b as [number, number, number, number];
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

/** Throws unless a and b are the same rotation within tol (q and −q alike). */
export function expectSameRotation(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-6): void {
  const d = [0, 1, 2, 3].reduce((s, k) => s + actual[k]! * expected[k]!, 0);
  const s = d < 0 ? -1 : 1;
  for (let k = 0; k < 4; k++) {
    if (!(Math.abs(actual[k]! - s * expected[k]!) <= tol)) throw new Error(`rotation [${Array.from(actual).join(', ')}] differs from [${Array.from(expected).join(', ')}]`);
  }
}

const keyed = (times: number[], values: number[]): AnimCurve['keys'] => ({ encoding: 'keyed', times: Float32Array.from(times), values: Float32Array.from(values) });

/**
 * A two-joint character (Hip → Spine) whose clips all share one layout: Hip.translation,
 * Hip.rotation, Spine.translation, Spine.rotation. Each clip's Hip.translation x is easy to read:
 * - `ramp`: x = clip time on [0, 1] (held outside), 1 s
 * - `walk`: x = 1, 1 s; `run`: x = 3, 1 s; `idle`: x = 5, 2 s
 * - `wave`: Spine.rotation 90° about z, Spine.translation (0, 2, 0); its Hip curves inactive, 1 s
 * - `pose`: a 0-second clip, x = 7
 * Rest pose: Hip (0, 10, 0), Spine (0, 1, 0), identity rotations.
 */
export function character(events: AnimEvent[] = []): AnimResource {
  const skeleton = new Skeleton([
    { name: 'Hip', parent: -1, rest: { translation: [0, 10, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
    { name: 'Spine', parent: 0, rest: { translation: [0, 1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } },
  ]);
  const curves = (hipX: AnimCurve['keys'], spineRot: AnimCurve['keys'] = staticKeys(0, 0, 0, 1), hipActive = true, spineActive = true): AnimCurve[] => [
    { curveType: 'translation', target: { joint: 'Hip', property: 'translation' }, active: hipActive, keys: hipX },
    { curveType: 'rotation', target: { joint: 'Hip', property: 'rotation' }, active: hipActive, keys: staticKeys(0, 0, 0, 1) },
    { curveType: 'translation', target: { joint: 'Spine', property: 'translation' }, active: spineActive, keys: staticKeys(0, 2, 0, 0) },
    { curveType: 'rotation', target: { joint: 'Spine', property: 'rotation' }, active: spineActive, keys: spineRot },
  ];
  const clip = (name: string, c: AnimCurve[], duration: number, ev: AnimEvent[] = []): AnimClip => new AnimClip({ name, curves: c, duration, events: ev });
  const quarter = axisAngle([0, 0, 1], 90);
  return new AnimResource({
    format: 'test',
    skeleton,
    clips: [
      clip('ramp', curves(keyed([0, 1], [0, 0, 0, 0, 1, 0, 0, 0])), 1, events),
      clip('walk', curves(staticKeys(1, 0, 0, 0)), 1),
      clip('run', curves(staticKeys(3, 0, 0, 0)), 1),
      clip('idle', curves(staticKeys(5, 0, 0, 0)), 2),
      clip('wave', curves(staticKeys(0, 0, 0, 0), staticKeys(...quarter), false, true), 1),
      clip('pose', curves(staticKeys(7, 0, 0, 0)), 0),
    ],
  });
}
