import { beforeAll, describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { UsageError } from '../../src/errors.js';
import { exportClip } from '../../src/export/export-clip.js';
import { createCore } from '../helpers/core.js';

/** A cubic scale curve with keys at `times` (zero tangents, scale 1 + k/n). */
function cubicClip(times: number[]): AnimClip {
  const values = new Float32Array(12 * times.length);
  times.forEach((_, k) => values.set([1 + k / times.length, 1, 1, 0], 12 * k + 4));
  const curve: AnimCurve = { curveType: 'scale', active: true, target: { joint: 'root', property: 'scale' }, keys: { encoding: 'cubic', times: Float32Array.from(times), values } };
  return new AnimClip({ name: 'long', curves: [curve] });
}

// Issue 13, fuzz seed 2246009700 #127554: the export's implicit bake grows with duration × 60 fps,
// not with the file.
describe('exportClip: the bake an export makes unasked', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  it('refuses, before allocating, a few cubic keys that span 18 hours', () => {
    const clip = cubicClip([0, 65536]);
    const before = core.memory.buffer.byteLength;
    expect(() => exportClip(core, clip)).toThrow(UsageError);
    expect(() => exportClip(core, clip)).toThrow(/clip "long" \(65536 s.*3932161 keys.*pass fps/);
    expect(core.memory.buffer.byteLength).toBe(before);
    expect(exportClip(core, clip, 1).keyCount).toBe(65537); // an explicit rate is the caller's choice
  });

  it('bakes a clip whose own keys come near the bake rate, however long', () => {
    // 20,000 keys over 5 h: 1,080,001 baked keys, over 2^19 but within 64 × its own keys.
    const clip = cubicClip(Array.from({ length: 20_000 }, (_, k) => (18_000 * k) / 19_999));
    const baked = exportClip(core, clip);
    expect(baked.keyCount).toBe(1_080_001);
    expect(baked.curves[0]!.keys.encoding).toBe('uniform');
  });
});
