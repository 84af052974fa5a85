import fc from 'fast-check';
import type { AafAnimationInit, AafAnimationObject, AafAnimationVariant, AafKeys } from '../../src/formats/aaf/animation.js';
import { aafHeader } from '../../src/formats/aaf/header.js';
import type { AafSceneInit, AafSceneObject, AafSurface } from '../../src/formats/aaf/scene.js';
import { aafText, decodeAafText, type AafText } from '../../src/formats/aaf/text.js';

/** Names as UTF-8 text or as arbitrary bytes (decoded as windows-1251 when not UTF-8). */
const name: fc.Arbitrary<AafText> = fc.oneof(
  fc.string({ maxLength: 12 }).map(aafText),
  fc.uint8Array({ maxLength: 12 }).map((b) => decodeAafText(b)),
);

const header = name.map(aafHeader);

/** Any float32 a reader accepts: finite and within ±1e38 (src/formats/value-range.ts). */
const anyFloat = fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e38), max: Math.fround(1e38) });

/** Non-decreasing finite times: quantised (so equal neighbours, a step, are common) or free. */
const times = (n: number) =>
  fc.oneof(
    fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }).map((steps) => {
      let t = -2;
      return Float32Array.from(steps, (s) => (t += s * 0.5));
    }),
    fc
      .array(fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), { minLength: n, maxLength: n })
      .map((ts) => Float32Array.from(ts.sort((a, b) => a - b))),
  );

const keys = (n: number, size: number, controller: fc.Arbitrary<number | undefined>): fc.Arbitrary<AafKeys> =>
  fc
    .tuple(times(n), fc.array(anyFloat, { minLength: size * n, maxLength: size * n }), controller)
    .map(([t, v, c]) => (c === undefined ? { times: t, values: Float32Array.from(v) } : { times: t, values: Float32Array.from(v), controller: c }));

function animationObject(variant: AafAnimationVariant): fc.Arbitrary<AafAnimationObject> {
  const controller = (position: boolean): fc.Arbitrary<number | undefined> =>
    variant !== 'controller' ? fc.constant(undefined) : position ? fc.constant(1) : fc.integer({ min: 0, max: 255 });
  const count = fc.integer({ min: 0, max: 5 });
  return fc
    .record({ name, flags: fc.subarray([2, 4, 8]).map((bits) => bits.reduce((a, b) => a | b, 0)), shared: count, counts: fc.tuple(count, count, count) })
    .chain(({ name, flags, shared, counts }) => {
      const n = (i: number) => (variant === 'shared-count' ? shared : counts[i]!);
      const channel = (bit: number, i: number, size: number) =>
        flags & bit ? keys(n(i), size, controller(bit === 2)) : fc.constant(undefined);
      return fc.tuple(channel(2, 0, 3), channel(4, 1, 4), channel(8, 2, 3)).map(([position, rotation, scale]) => {
        const o: { -readonly [K in keyof AafAnimationObject]: AafAnimationObject[K] } = { name, flags };
        if (position) o.position = position;
        if (rotation) o.rotation = rotation;
        if (scale) o.scale = scale;
        return o;
      });
    });
}

/** Random animation documents writable in `variant`. */
export const arbitraryAnimation = (variant: AafAnimationVariant): fc.Arbitrary<AafAnimationInit> =>
  fc.record({
    header,
    animLength: fc.integer({ min: 0, max: 0xffff }),
    objects: fc.array(animationObject(variant), { maxLength: 6 }),
  });

const surface: fc.Arbitrary<AafSurface> = fc.integer({ min: 0, max: 5 }).chain((vertexCount) =>
  fc.record({
    vertices: fc.array(anyFloat, { minLength: 9 * vertexCount, maxLength: 9 * vertexCount }).map((v) => Float32Array.from(v)),
    indices:
      vertexCount === 0
        ? fc.constant(new Uint32Array(0))
        : fc
            .array(fc.integer({ min: 0, max: vertexCount - 1 }), { maxLength: 4 })
            .chain((first) => fc.array(fc.integer({ min: 0, max: vertexCount - 1 }), { minLength: 2 * first.length, maxLength: 2 * first.length }).map((rest) => Uint32Array.from([...first, ...rest].slice(0, 3 * first.length)))),
  }),
);

const f = anyFloat;

/** Random scene documents: pre-order trees of 0–8 objects (depth from a random walk). */
export const arbitraryScene: fc.Arbitrary<AafSceneInit> = fc.record({
  header,
  objects: fc
    .array(
      fc.record({
        depthStep: fc.integer({ min: -3, max: 1 }),
        name,
        position: fc.tuple(f, f, f),
        rotation: fc.tuple(f, f, f, f),
        scale: fc.tuple(f, f, f),
        surfaces: fc.array(surface, { maxLength: 2 }),
      }),
      { maxLength: 8 },
    )
    .map((specs) => {
      const path: number[] = [];
      return specs.map(({ depthStep, ...rest }, i): AafSceneObject => {
        const depth = Math.max(0, Math.min(path.length, path.length - 1 + depthStep + 1));
        path.length = depth;
        const parent = depth === 0 ? -1 : path[depth - 1]!;
        path.push(i);
        return { ...rest, parent };
      });
    }),
});
