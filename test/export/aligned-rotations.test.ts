import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, InfinityType } from '../../src/anim/index.js';
import { KernelAlignedRotations } from '../../src/core/aligned-rotations.js';
import type { AnimCore } from '../../src/core/index.js';
import { curveTrack, writeTrackValues } from '../../src/export/curve-track.js';
import { BUILDS, createCore } from '../helpers/core.js';

// A component: any float32 of a unit-ish quaternion, ±0, exact opposites and tiny values, so that
// signs flip, dot products land on 0 and zero quaternions occur.
const component = fc.oneof(fc.float({ min: -1, max: 1, noNaN: true }), fc.constantFrom(0, -0, 1, -1, 1e-30, -1e-30, 0.5, -0.5));

describe.each(BUILDS)('baked rotations aligned and normalised by the kernel (alignRotations), %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('write the bits AlignedRotations.write makes in JS, closing key included', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(component, component, component, component), { minLength: 2, maxLength: 40 }), fc.boolean(), fc.boolean(), (keys, cycle, negate) => {
        const values = Float32Array.from(keys.flatMap((q, k) => (negate && k % 3 === 1 ? q.map((c) => -c) : q)));
        const clip = new AnimClip({
          name: 'r',
          keyCount: keys.length,
          keyDuration: 0.1,
          postInfinity: cycle ? InfinityType.Cycle : InfinityType.Constant,
          curves: [{ curveType: 'rotation', target: { joint: 'j', property: 'rotation' }, active: true, keys: { encoding: 'uniform', values } }],
        });
        const n = keys.length + (cycle ? 1 : 0);
        const inJs = new Float32Array(4 * n + 2);
        const inKernel = new Float32Array(4 * n + 2);
        writeTrackValues(curveTrack(clip, clip.curves[0]!), inJs, 1, 4);
        const rotations = new KernelAlignedRotations(core);
        try {
          writeTrackValues(curveTrack(clip, clip.curves[0]!), inKernel, 1, 4, rotations);
        } finally {
          rotations.dispose();
        }
        // Bits, so that −0 and +0 differ.
        expect(new Uint32Array(inKernel.buffer)).toEqual(new Uint32Array(inJs.buffer));
      }),
      { numRuns: 300 },
    );
  });

  it('grow their scratch for a longer track (one writer, tracks of 2, 700 and 3 keys)', () => {
    const rotations = new KernelAlignedRotations(core);
    try {
      for (const n of [2, 700, 3]) {
        const values = Float32Array.from({ length: 4 * n }, (_, i) => Math.sin(i * 1.7));
        const clip = new AnimClip({ name: 'r', keyCount: n, keyDuration: 0.1, curves: [{ curveType: 'rotation', target: { joint: 'j', property: 'rotation' }, active: true, keys: { encoding: 'uniform', values } }] });
        const inJs = new Float32Array(4 * n);
        const inKernel = new Float32Array(4 * n);
        writeTrackValues(curveTrack(clip, clip.curves[0]!), inJs, 0, 4);
        writeTrackValues(curveTrack(clip, clip.curves[0]!), inKernel, 0, 4, rotations);
        expect(new Uint32Array(inKernel.buffer)).toEqual(new Uint32Array(inJs.buffer));
      }
    } finally {
      rotations.dispose();
    }
  });
});
