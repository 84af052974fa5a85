import { describe, expect, it } from 'vitest';
import { openNebula } from '../../src/formats/nebula/index.js';
import { UsageError } from '../../src/errors.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';

describe.skipIf(!haveFixtures('nebula')).each(BUILDS)('wasm memory, %s build', (build) => {
  it('does not grow after the first rounds of loading and disposing eagle 1,000 times', async () => {
    const core = await createCore(build);
    const bytes = readFixture('nebula', 'eagle.nax2');
    const sizes: number[] = [];
    for (let round = 0; round < 1000; round++) {
      const resource = openNebula({ animation: bytes });
      core.load(resource);
      const clip = resource.clips[0]!;
      const buf = core.createSampleBuffer(clip);
      core.sampler.sample(clip, round * 0.01, buf);
      buf.dispose();
      resource.dispose();
      sizes.push(core.memory.buffer.byteLength);
    }
    expect(sizes[999]).toBe(sizes[4]);
  });

  it('refuses clips of a disposed resource and buffers after dispose', async () => {
    const core = await createCore(build);
    const resource = openNebula({ animation: readFixture('nebula', 'bouncingball.nax2') });
    core.load(resource);
    const clip = resource.clips[0]!;
    const buf = core.createSampleBuffer(clip);
    resource.dispose();
    expect(() => core.sampler.sample(clip, 0, buf)).toThrow(UsageError);
    buf.dispose();
    expect(() => buf.samples).toThrow(UsageError);
  });

  it('keeps sample views valid when memory grows', async () => {
    const core = await createCore(build);
    const small = openNebula({ animation: readFixture('nebula', 'bouncingball.nax2') });
    core.load(small);
    const clip = small.clips[0]!;
    const buf = core.createSampleBuffer(clip);
    core.sampler.sample(clip, 0.02, buf);
    const before = buf.sampleOf(0);
    const sizeBefore = core.memory.buffer.byteLength;
    const big = Array.from({ length: 40 }, () => openNebula({ animation: readFixture('nebula', 'Unit_Footman.nax3') }));
    big.forEach((r) => core.load(r));
    expect(core.memory.buffer.byteLength).toBeGreaterThan(sizeBefore);
    expect(buf.sampleOf(0)).toEqual(before);
    core.sampler.sample(clip, 0.02, buf);
    expect(buf.sampleOf(0)).toEqual(before);
  });
});
