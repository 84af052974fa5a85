// A conversion of a clip's keys keeps everything else the clip says: its key grid, duration,
// infinity, default rotation (glTF clips slerp, Appendix C), events and metadata.
import { describe, expect, it } from 'vitest';
import { AnimClip, type AnimCurve, InfinityType } from '../../src/anim/index.js';
import { axisConversion, convertClip } from '../../src/export/axis-conversion.js';
import { reduceClip } from '../../src/export/reduce-clip.js';
import { METEOR_FILE_AXES } from '../../src/formats/meteor/axes.js';
import { createCore } from '../helpers/core.js';

function clipOf(curves: AnimCurve[]): AnimClip {
  return new AnimClip({
    name: 'walk',
    curves,
    duration: 2.5,
    preInfinity: InfinityType.Cycle,
    postInfinity: InfinityType.Constant,
    rotation: 'slerp',
    events: [{ time: 1, name: 'step', category: '' }],
    metadata: { index: 3 },
  });
}

const keyed: AnimCurve = {
  curveType: 'translation',
  active: true,
  target: { joint: 'hip', property: 'translation' },
  keys: { encoding: 'keyed', times: new Float32Array([0, 1, 2]), values: new Float32Array([0, 0, 0, 0, 1, 2, 3, 0, 2, 4, 6, 0]) },
};

function facts(clip: AnimClip) {
  const { name, keyCount, keyDuration, duration, preInfinity, postInfinity, rotation, events, metadata } = clip;
  return { name, keyCount, keyDuration, duration, preInfinity, postInfinity, rotation, events, metadata };
}

describe('AnimClip.withCurves', () => {
  it('keeps every field but the curves', () => {
    const clip = clipOf([keyed]);
    const other = clip.withCurves([]);
    expect(other.curves).toEqual([]);
    expect(facts(other)).toEqual(facts(clip));
    expect(other.events).not.toBe(clip.events);
  });

  it('is what the axis conversion and keyframe reduction build on: both keep the clip slerping', async () => {
    const clip = clipOf([keyed]);
    const converted = convertClip(clip, axisConversion(METEOR_FILE_AXES));
    expect(facts(converted)).toEqual(facts(clip));
    expect(Array.from((converted.curves[0]!.keys as { values: Float32Array }).values.subarray(4, 8))).toEqual([1, 3, -2, 0]);
    const core = await createCore('simd');
    const { clip: reduced } = reduceClip(core, clip, { translation: 1e-4, rotation: 1e-4, scale: 1e-4, other: 1e-4 });
    expect(facts(reduced)).toEqual(facts(clip));
    expect((reduced.curves[0]!.keys as { times: Float32Array }).times).toEqual(new Float32Array([0, 2]));
  });
});
