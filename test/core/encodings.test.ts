import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, AnimResource, parentsFirstOrder, staticKeys, unityCurve } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { arbitraryMixedClip } from '../helpers/random-clip.js';

describe('parentsFirstOrder', () => {
  it('is the identity when every parent precedes its children', () => {
    expect(parentsFirstOrder([{ parent: -1 }, { parent: 0 }, { parent: -1 }, { parent: 1 }])).toEqual([0, 1, 2, 3]);
  });

  it('puts every parent first, otherwise in index order', () => {
    // Blender writes glTF children before their parents: 0 ← 1 ← 3, and 2 is a root.
    expect(parentsFirstOrder([{ parent: 1 }, { parent: 3 }, { parent: -1 }, { parent: -1 }])).toEqual([3, 1, 0, 2]);
  });

  it('orders any forest so that each joint comes after its parent, each joint once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.shuffledSubarray([...Array(n).keys()], { minLength: n }), fc.array(fc.nat(), { minLength: n, maxLength: n }))), ([perm, picks]) => {
        // A random tree in `perm` order, relabelled by position: parents may follow children.
        const parent = new Array<number>(perm.length);
        perm.forEach((joint, k) => (parent[joint] = k === 0 ? -1 : perm[picks[k]! % k]!));
        const order = parentsFirstOrder(parent.map((p) => ({ parent: p })));
        expect([...order].sort((a, b) => a - b)).toEqual([...parent.keys()]);
        const at = new Map(order.map((j, i) => [j, i]));
        parent.forEach((p, j) => p >= 0 && expect(at.get(p)!).toBeLessThan(at.get(j)!));
      }),
    );
  });
});

describe.each(BUILDS)('the encoding table, %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('refuses Unity curves beside other encodings in one clip, loading nothing', () => {
    const clip = new AnimClip({
      name: 'both',
      keyCount: 2,
      keyDuration: 0.5,
      curves: [
        { curveType: 'translation', active: true, target: { joint: 'a', property: 'translation' }, keys: { encoding: 'uniform', values: new Float32Array(8) } },
        { curveType: 'float', active: true, target: { joint: 'b', property: 'x' }, keys: { encoding: 'unity', lanes: [unityCurve({ time: [0, 1], value: [0, 1] })] } },
      ],
    });
    const ok = new AnimClip({ name: 'ok', curves: [{ curveType: 'float', active: true, target: { joint: null, property: 'x' }, keys: staticKeys(1, 2, 3, 4) }] });
    const resource = new AnimResource({ format: 'test', clips: [ok, clip] });
    expect(() => core.load(resource)).toThrow(/mixes uniform and unity curves/);
    expect(() => core.load(resource)).toThrow(UsageError);
    expect(core.isLoaded(ok)).toBe(false);
  });

  it('frees every block of a mixed clip: load/dispose cycles do not grow memory', () => {
    const clip = fc.sample(arbitraryMixedClip, { numRuns: 1, seed: 11 })[0]!;
    const cycle = () => {
      const resource = new AnimResource({ format: 'test', clips: [clip] });
      core.load(resource);
      resource.dispose();
    };
    for (let i = 0; i < 50; i++) cycle();
    const before = core.memory.buffer.byteLength;
    for (let i = 0; i < 2000; i++) cycle();
    expect(core.memory.buffer.byteLength).toBe(before);
  });
});
