// bakeSequence: a sequence baked into one uniform clip `sequence` (what `resample --sequence` writes).
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimCore } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { bakeSequence, loadSequence, type SequenceFile } from '../../src/sequencer/index.js';
import { createCore } from '../helpers/core.js';
import { character } from './helpers.js';

let core: AnimCore;
beforeAll(async () => {
  core = await createCore('simd');
});

// Walk (x = 1) fades out over [0.5, 1) while run (x = 3), intercepting at 0.5, fades in over the
// same half second; weighted, so the weights sum to 1 there: x = 1 + 4 (t − 0.5). Run ends at 1.5.
const crossFade: SequenceFile = {
  rule: 'weighted',
  jobs: [
    { clip: 'walk', fadeOut: 0.5 },
    { clip: 'run', at: 0.5, fadeIn: 0.5 },
  ],
};
const hipX = (t: number): number => (t < 0.5 ? 1 : t < 1 ? 1 + 4 * (t - 0.5) : 3);

describe('bakeSequence', () => {
  it('bakes from 0 to the end of the last job, at fps, with keys equal to the sequence by hand', () => {
    const resource = character();
    const baked = bakeSequence(core, resource, crossFade, { fps: 10 });
    expect(baked.clips).toHaveLength(1);
    const clip = baked.clips[0]!;
    expect(clip.name).toBe('sequence');
    expect(baked.skeleton).toBe(resource.skeleton);
    // 0 … 1.5 s at 10 fps: 16 keys, the last one the pose just before run ends (run alone: x = 3).
    expect(clip.keyCount).toBe(16);
    expect(clip.duration).toBeCloseTo(1.5, 12);
    const hip = clip.curves.find((c) => c.target.joint === 'Hip' && c.target.property === 'translation')!;
    expect(hip.keys.encoding).toBe('uniform');
    const values = (hip.keys as { values: Float32Array }).values;
    for (let k = 0; k < 16; k++) expect(values[4 * k]).toBeCloseTo(hipX(k / 10), 5);
    // Curves every clip holds constant are static, at their value (Spine.translation (0, 2, 0)).
    const spine = clip.curves.find((c) => c.target.joint === 'Spine' && c.target.property === 'translation')!;
    expect(spine.keys).toMatchObject({ encoding: 'static' });
    expect(Array.from((spine.keys as { value: ArrayLike<number> }).value ?? [])).toEqual([0, 2, 0, 0]);
    baked.dispose();
  });

  it('holds what the sequencer gives at every key time (any rule, masks, additive)', () => {
    const resource = character();
    const file: SequenceFile = {
      rule: 'priority',
      masks: { upper: { joints: ['Spine'] } },
      jobs: [
        { clip: 'ramp', loops: 2, fadeOut: 0.25 },
        { clip: 'wave', track: 1, at: 0.3, mask: 'upper', fadeIn: 0.2, fadeOut: 0.2 },
        { clip: 'ramp', track: 2, mode: 'additive', weight: 0.5, reference: 0.5, at: 0.1 },
      ],
    };
    const fps = 30;
    const baked = bakeSequence(core, resource, file, { fps });
    const clip = baked.clips[0]!;
    expect(clip.duration).toBeGreaterThanOrEqual(2);
    const seq = loadSequence(core, resource, file);
    for (let k = 0; k + 1 < clip.keyCount; k++) {
      const result = seq.update(k / fps);
      clip.curves.forEach((c, i) => {
        const want = result.sampleOf(i);
        const got = c.keys.encoding === 'uniform' ? c.keys.values.subarray(4 * k, 4 * k + 4) : c.keys.encoding === 'static' ? c.keys.value : null;
        const s = c.curveType === 'rotation' && want.reduce((d, v, j) => d + v * got![j]!, 0) < 0 ? -1 : 1;
        want.forEach((v, j) => expect(Math.abs(s * v - got![j]!)).toBeLessThan(1e-6));
      });
    }
    seq.dispose();
    baked.dispose();
  });

  it('bakes the jobs’ events at their sequence times', () => {
    const resource = character([{ name: 'step', category: 'foot', time: 0.5 }]);
    const baked = bakeSequence(core, resource, { jobs: [{ clip: 'ramp', loops: 3 }] }, { fps: 8 });
    expect(baked.clips[0]!.events.map((e) => e.time)).toEqual([0.5, 1.5, 2.5]);
    baked.dispose();
  });

  it('needs a length for a job that plays forever, and bakes that length', () => {
    const forever: SequenceFile = { jobs: [{ clip: 'walk', loops: 0 }, { clip: 'idle', track: 1, at: 0.5 }] };
    expect(() => bakeSequence(core, character(), forever, { fps: 10 })).toThrow(/plays forever.*--length/);
    // An intercept stops the infinite job: the end is the interceptor's (0.5 + 2 s of idle).
    const stopped: SequenceFile = { jobs: [{ clip: 'walk', loops: 0, fadeOut: 0.2 }, { clip: 'idle', at: 0.5 }] };
    expect(bakeSequence(core, character(), stopped, { fps: 10 }).clips[0]!.duration).toBeCloseTo(2.5, 12);
    const baked = bakeSequence(core, character(), forever, { fps: 10, length: 2 });
    expect(baked.clips[0]!.keyCount).toBe(21);
    baked.dispose();
  });

  it('refuses a bad sequence naming the JSON path, and too many keys, before baking', () => {
    expect(() => bakeSequence(core, character(), { jobs: [{ clip: 'walk' }, { clip: 'nope' }] }, { fps: 10 })).toThrow(/jobs\[1\]\.clip: no clip "nope"/);
    expect(() => bakeSequence(core, character(), { jobs: [{ clip: 'walk', loops: 0 }] }, { fps: 1000, length: 1e6 })).toThrow(UsageError);
    expect(() => bakeSequence(core, character(), { jobs: [] }, { fps: 0 })).toThrow(/fps/);
  });
});
