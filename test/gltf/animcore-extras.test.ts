import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnimClip, AnimResource } from '../../src/anim/index.js';
import { openFile } from '../../src/cli/open-file.js';
import type { AnimCore } from '../../src/core/index.js';
import { toGltfDocument, writeGlb } from '../../src/export/gltf.js';
import { rewriteGltf } from '../../src/export/gltf-rewrite.js';
import { gltfSource, openGltf } from '../../src/formats/gltf/index.js';
import { createCore } from '../helpers/core.js';
import { EXAMPLES_DIR } from '../helpers/export-inputs.js';
import { packGlb, unpackGlb } from '../helpers/glb.js';

/** Every Bool curve's sampled value (x) at `t`, by joint and property. */
function bools(core: AnimCore, clip: AnimClip, t: number): Map<string, number> {
  const buf = core.createSampleBuffer(clip);
  core.sampler.sample(clip, t, buf);
  const out = new Map<string, number>();
  clip.curves.forEach((c, i) => {
    if (c.curveType === 'bool') out.set(`${c.target.joint}/${c.target.property}`, buf.sampleOf(i)[0]!);
  });
  buf.dispose();
  return out;
}

describe('glTF: events and Bool curves of extras.animcore read back', () => {
  let core: AnimCore;
  let source: AnimResource;
  let exported: AnimResource;
  beforeAll(async () => {
    core = await createCore('simd');
    source = (await openFile(join(EXAMPLES_DIR, 'mrtk', 'hand-wave.bin'))).resource;
    core.load(source);
    const glb = await writeGlb(toGltfDocument(core, source).document);
    exported = await openGltf({ gltf: glb });
    core.load(exported);
  });

  it('an MRTK export reads back with its events and its tracked/pinching curves', () => {
    const [before, after] = [source.clips[0]!, exported.clips[0]!];
    expect(before.events.length).toBeGreaterThan(0);
    expect(after.events.map((e) => e.name)).toEqual(before.events.map((e) => e.name));
    after.events.forEach((e, i) => {
      expect(e.category).toBe(before.events[i]!.category);
      expect(e.time).toBeCloseTo(before.events[i]!.time, 6);
    });
    const count = (clip: AnimClip) => clip.curves.filter((c) => c.curveType === 'bool' && c.active).length;
    expect(count(after)).toBe(count(before));
    // The same flag at every time (a quarter frame apart, from before the first key to after the last).
    for (let t = -0.1; t <= before.duration + 0.1; t += 1 / 240) expect(bools(core, after, t), `t = ${t}`).toEqual(bools(core, before, t));
  });

  it('a glTF → glTF rewrite keeps them (they travel through the read clip)', async () => {
    const rewritten = await openGltf({ gltf: rewriteGltf(core, exported, gltfSource(exported)!, { fps: 30 }).glb() });
    expect(rewritten.clips[0]!.events).toEqual(exported.clips[0]!.events);
    expect(rewritten.clips[0]!.curves.filter((c) => c.curveType === 'bool')).toHaveLength(exported.clips[0]!.curves.filter((c) => c.curveType === 'bool').length);
  });

  // Each spoils the export's extras.animcore and returns the JSON pointer (below it) of what it spoiled.
  const flip = (x: any) => x.bools.findIndex((b: { times: number[] }) => b.times.length > 1);
  it.each([
    ['a value that is not 0 or 1', (x: any) => ((x.bools[flip(x)].values[1] = 2), `/bools/${flip(x)}/values/1`)],
    ['times that do not increase', (x: any) => ((x.bools[flip(x)].times[1] = x.bools[flip(x)].times[0]), `/bools/${flip(x)}/times/1`)],
    ['fewer values than times', (x: any) => (x.bools[0].values.pop(), '/bools/0/values')],
    ['an event time that is not a number', (x: any) => ((x.events[0].time = 'soon'), '/events/0/time')],
    ['an event without a name', (x: any) => (delete x.events[0].name, '/events/0/name')],
    ['bools that is not an array', (x: any) => ((x.bools = 7), '/bools')],
  ])('extras with %s are left out with a warning naming the pointer; the file reads', async (_what, spoil) => {
    const glb = await writeGlb(toGltfDocument(core, source).document);
    const { json, bin } = unpackGlb(glb);
    const pointer = spoil(json.animations[0].extras.animcore);
    const resource = await openGltf({ gltf: packGlb(json, bin) });
    expect(resource.warnings.some((w) => w.includes(`/animations/0/extras/animcore${pointer}`))).toBe(true);
    expect(resource.clips[0]!.events).toEqual([]);
    expect(resource.clips[0]!.curves.some((c) => c.curveType === 'bool')).toBe(false);
    expect(resource.clips[0]!.curves.length).toBeGreaterThan(0);
  });
});
