import { type AnimationChannel, type Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import validator from 'gltf-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { openFile } from '../../src/cli/open-file.js';
import type { AnimCore } from '../../src/core/index.js';
import { type GltfExportOptions, toGltfDocument, writeGlb } from '../../src/export/gltf.js';
import { QUANTIZED_ROTATION_ERROR } from '../../src/export/quantize-rotations.js';
import { DEFAULT_KEY_TOLERANCE, type KeyTolerance } from '../../src/export/reduce-clip.js';
import { exportGlb } from '../helpers/export-glb.js';
import { createCore } from '../helpers/core.js';
import { exportInputs } from '../helpers/export-inputs.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';
import { type GltfExpected, gltfExpected } from '../helpers/gltf-fixtures.js';
import { sampleGltfChannel } from '../helpers/gltf-sampler.js';

/** Distance, for rotations the angle in radians (q and −q alike), for morph weights the largest one's difference, between two channel values. */
function difference(path: string, a: number[], b: number[]): number {
  if (path === 'weights') return Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
  if (path !== 'rotation') return Math.hypot(...a.map((x, i) => x - b[i]!));
  const la = Math.hypot(...a);
  const lb = Math.hypot(...b);
  const s = a.reduce((d, x, i) => d + x * b[i]!, 0) < 0 ? -1 : 1;
  return 4 * Math.asin(Math.min(1, Math.hypot(...a.map((x, i) => x / la - (s * b[i]!) / lb)) / 2));
}

const kindOf = (path: string): keyof KeyTolerance => (path === 'weights' ? 'other' : (path as keyof KeyTolerance));

interface Checked {
  worst: KeyTolerance;
  channels: number;
  dropped: number;
}

/**
 * Every channel of the baked export `full` against the reduced export `reduced`: at each baked key
 * and halfway between keys, the reduced channel (or, where it was left out, the node's rest value)
 * within tolerance of the baked one.
 */
function compare(full: Document, reduced: Document, tolerance: KeyTolerance): Checked {
  const worst: KeyTolerance = { translation: 0, rotation: 0, scale: 0, other: 0 };
  let channels = 0;
  let dropped = 0;
  const animations = reduced.getRoot().listAnimations();
  // Both documents hold the same nodes in the same order (they come from one resource): match by index.
  const fullNodes = full.getRoot().listNodes();
  const nodes = reduced.getRoot().listNodes();
  full.getRoot().listAnimations().forEach((animation, a) => {
    const target = animations[a]!;
    expect(target.getName()).toBe(animation.getName());
    for (const ch of animation.listChannels()) {
      const index = fullNodes.indexOf(ch.getTargetNode()!);
      const node = ch.getTargetNode()!.getName();
      const path = ch.getTargetPath()!;
      const twin = target.listChannels().find((c) => nodes.indexOf(c.getTargetNode()!) === index && c.getTargetPath() === path);
      const restNode = nodes[index]!;
      const rest = path === 'rotation' ? restNode.getRotation() : path === 'translation' ? restNode.getTranslation() : restNode.getScale();
      const sample = (c: AnimationChannel | undefined, t: number) => (c ? sampleGltfChannel(c, t) : [...rest]);
      if (!twin) dropped++;
      const times = ch.getSampler()!.getInput()!.getArray()!;
      for (let k = 0; k < times.length; k++) {
        for (const t of k + 1 < times.length ? [times[k]!, (times[k]! + times[k + 1]!) / 2] : [times[k]!]) {
          const d = difference(path, sample(ch, t), sample(twin, t));
          const kind = kindOf(path);
          worst[kind] = Math.max(worst[kind], d);
          if (!(d <= tolerance[kind] + (kind === 'rotation' ? 2e-6 : 1e-6))) throw new Error(`${animation.getName()} ${node}.${path} at ${t}: ${d} > ${tolerance[kind]}`);
        }
      }
      channels++;
    }
  });
  return { worst, channels, dropped };
}

describe('keyframe reduction on export (issue 14 item 8)', () => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore('simd');
  });

  const gltfFiles = haveFixtures('gltf') ? Object.keys((gltfExpected() as GltfExpected).files).map((f) => fixturePath('gltf', f)) : [];
  it.each([...exportInputs(), ...gltfFiles])('%s: the reduced glb passes the validator and plays the baked one within tolerance', async (path) => {
    // A glTF input is written into its own document (as the CLI does), a fresh one per export.
    const exportOf = async (options: GltfExportOptions) => {
      const { resource } = await openFile(path);
      core.load(resource);
      return { resource, ...(await exportGlb(core, resource, options)) };
    };
    const { exported: baked, glb: bakedGlb } = await exportOf({ tolerance: 0 });
    const { resource, exported: reduced, glb } = await exportOf({});
    const report = await validator.validateBytes(glb);
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    const { worst, channels } = compare(await io.readBinary(bakedGlb), await io.readBinary(glb), DEFAULT_KEY_TOLERANCE);
    expect(channels).toBeGreaterThan(0);
    // --tolerance 0 bakes without reduction; the reduction reports its keys and errors per clip.
    expect(baked.reductions).toEqual([]);
    expect(reduced.reductions.map((r) => r.clip)).toEqual(resource.clips.map((c) => c.name));
    for (const r of reduced.reductions) {
      expect(r.keysOut).toBeLessThanOrEqual(r.keysIn);
      for (const kind of ['translation', 'rotation', 'scale', 'other'] as const) expect(r.maxError[kind]).toBeLessThanOrEqual(DEFAULT_KEY_TOLERANCE[kind] * (1 + 1e-9));
    }
    // The written file's keys never grow (BoxAnimated has none to spare; the other files do, see the summary test in test/cli).
    expect(reduced.counts.keysOut).toBeLessThanOrEqual(baked.counts.keysOut);
    // What the report says is what the written channels show, within the sampler's rounding.
    expect(worst.rotation).toBeLessThanOrEqual(Math.max(...reduced.reductions.map((r) => r.maxError.rotation)) + 2e-6);
    resource.dispose();
  });

  it.each([...exportInputs(), ...gltfFiles])('%s with quantize: int16 rotations, validator-clean, within tolerance of the baked glb, smaller', async (path) => {
    const exportOf = async (options: GltfExportOptions) => {
      const { resource } = await openFile(path);
      const { exported, glb } = await exportGlb(core, resource, options);
      resource.dispose();
      return { exported, glb };
    };
    const baked = await exportOf({ tolerance: 0 });
    const float = await exportOf({});
    const quantized = await exportOf({ quantize: true });
    const report = await validator.validateBytes(quantized.glb);
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    const document = await io.readBinary(quantized.glb);
    const rotations = document.getRoot().listAnimations().flatMap((a) => a.listChannels().filter((c) => c.getTargetPath() === 'rotation').map((c) => c.getSampler()!.getOutput()!));
    // Every rotation track is int16 but BoxAnimated's, whose keys 180° apart stay float (rounding could flip slerp's way round).
    const int16 = rotations.filter((o) => o.getArray() instanceof Int16Array && o.getNormalized());
    expect(int16.length).toBe(path.endsWith('BoxAnimated.glb') ? rotations.length - 1 : rotations.length);
    // Reduction leaves room for the rounding: the written rotations stay within the asked tolerance.
    compare(await io.readBinary(baked.glb), document, DEFAULT_KEY_TOLERANCE);
    if (int16.length > 0) expect(quantized.glb.byteLength).toBeLessThan(float.glb.byteLength);
    for (const r of quantized.exported.reductions) expect(r.maxError.rotation).toBeLessThanOrEqual(DEFAULT_KEY_TOLERANCE.rotation - QUANTIZED_ROTATION_ERROR);
  });

  it('a looser tolerance keeps fewer keys, and constant channels at the rest pose are left out', async () => {
    const { resource } = await openFile(exportInputs().find((p) => p.endsWith('wave.nax3'))!);
    core.load(resource);
    const counts = [0, 1e-4, 1e-3, 1e-2].map((tolerance) => toGltfDocument(core, resource, { tolerance: { translation: tolerance, scale: tolerance, rotation: tolerance * 10 } }).counts.keysOut);
    for (let i = 1; i < counts.length; i++) expect(counts[i]!).toBeLessThan(counts[i - 1]!);
    // The wave's translations and scales are static and equal the rest pose: with reduction only rotations are written.
    const reduced = toGltfDocument(core, resource);
    const paths = reduced.document.getRoot().listAnimations()[0]!.listChannels().map((c) => c.getTargetPath());
    expect(new Set(paths)).toEqual(new Set(['rotation']));
    const baked = toGltfDocument(core, resource, { tolerance: 0 });
    expect(baked.document.getRoot().listAnimations()[0]!.listChannels()).toHaveLength(9);
    const { dropped } = compare(await new NodeIO().readBinary(await writeGlb(baked.document)), await new NodeIO().readBinary(await writeGlb(reduced.document)), DEFAULT_KEY_TOLERANCE);
    expect(dropped).toBe(6);
    expect(() => toGltfDocument(core, resource, { tolerance: -1 })).toThrow(/tolerance must be a finite number ≥ 0/);
    expect(() => toGltfDocument(core, resource, { tolerance: { rotation: NaN } })).toThrow(/rotation tolerance/);
    resource.dispose();
  });
});
