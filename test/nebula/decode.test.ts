// Reproduces every decode fact of shared/fixtures/nebula/expected.json (files[*].decode) and the
// N3 samples that need no interpolation (w = 0 or Step: the sample is key k0), which checks the
// key gathering and curve order independently of any sampler.
import { describe, expect, it } from 'vitest';
import { expectedJson, haveFixtures, readFixture } from '../helpers/fixtures.js';
import { latin1 } from '../../src/formats/binary.js';
import {
  NAX2_IPOL_NAMES,
  NAX3_CURVE_TYPES,
  nax2ToResource,
  nax3ToResource,
  readNax2,
  readNax3,
  type Nax2Document,
  type Nax3Document,
} from '../../src/formats/nebula/index.js';
import type { AnimResource } from '../../src/anim/index.js';
import { expectClose } from './helpers.js';
import type { UniformKeys } from '../../src/anim/index.js';

const have = haveFixtures('nebula');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const expected: any = have ? expectedJson('nebula') : null;
const FILES = ['bouncingball.nax2', 'eagle.nax2', 'kila_layoutA.nax2', 'kila_layoutB.nax2', 'Unit_Footman.nax3'];

function open(file: string): { doc: Nax2Document | Nax3Document; resource: AnimResource; nax2: boolean } {
  const bytes = readFixture('nebula', file);
  if (file.endsWith('.nax2')) {
    const doc = readNax2(bytes);
    return { doc, resource: nax2ToResource(doc), nax2: true };
  }
  const doc = readNax3(bytes);
  return { doc, resource: nax3ToResource(doc), nax2: false };
}

describe.skipIf(!have)('expected.json decode summaries', () => {
  for (const file of FILES) {
    it(file, () => {
      const dec = expected.files[file].decode;
      const bytes = readFixture('nebula', file);
      expect(bytes.length).toBe(dec.size);
      expect(latin1(bytes.subarray(0, 4))).toBe(dec.magicBytes);
      const { doc, resource, nax2 } = open(file);
      expect(resource.format).toBe(dec.format);
      if (nax2) expect((doc as Nax2Document).layout).toBe(dec.layout);
      expect(doc.numKeys).toBe(dec.numKeys);
      expect(doc.pool.length).toBe(4 * dec.numKeys);
      expect(doc.keyDataOffset).toBe(dec.keyDataOffset);
      expect(resource.info['keyDataOffset']).toBe(dec.keyDataOffset);
      expectClose(doc.pool.subarray(0, 4), dec.firstKey);
      expectClose(doc.pool.subarray(doc.pool.length - 4), dec.lastKey);
      expect(resource.clips.length).toBe(dec.clips.length);

      dec.clips.forEach((ec: any, c: number) => {
        const clip = resource.clips[c]!;
        const raw = nax2 ? (doc as Nax2Document).groups[c]! : (doc as Nax3Document).clips[c]!;
        expect(clip.name).toBe(ec.name);
        expect(clip.curves.length).toBe(ec.numCurves);
        expect(clip.metadata['startKey']).toBe(ec.startKey);
        expect(clip.keyCount).toBe(ec.numKeys);
        expect(raw.keyStride).toBe(ec.keyStride);
        expect(clip.metadata['keyStride']).toBe(ec.keyStride);
        expect(clip.metadata['keyDurationTicks']).toBe(ec.keyDurationTicks);
        expect(clip.keyDuration).toBe(ec.keyDurationTicks / 1000);
        expect(clip.duration).toBeCloseTo((ec.numKeys * ec.keyDurationTicks) / 1000, 12);
        expect(clip.preInfinity).toBe(ec.pre === 1 ? 'cycle' : 'constant');
        expect(clip.postInfinity).toBe(ec.post === 1 ? 'cycle' : 'constant');
        if (nax2) {
          const group = raw as Nax2Document['groups'][number];
          expect(Math.abs((clip.metadata['keyTime'] as number) - ec.keyTimeSec)).toBeLessThanOrEqual(1e-6);
          expect(group.loopType).toBe(ec.loopType);
          expect(clip.metadata['loopType']).toBe(ec.loopType);
          expect(group.fadeInFrames).toBe(ec.fadeInFrames);
          const counts: Record<string, number> = {};
          for (const curve of group.curves) {
            const name = NAX2_IPOL_NAMES[curve.ipolType]!;
            const key = name[0]!.toUpperCase() + name.slice(1);
            counts[key] = (counts[key] ?? 0) + 1;
          }
          expect(counts).toEqual(ec.ipolTypeCounts);
        } else {
          expect(Math.abs(clip.keyDuration - ec.keyTimeSec)).toBeLessThanOrEqual(1e-6);
        }

        // Events: raw records in file order; model events in seconds, sorted by time.
        const rawEvents = nax2 ? [] : (raw as Nax3Document['clips'][number]).events;
        expect(rawEvents.map((e) => ({ name: e.name, category: e.category, keyIndex: e.keyIndex }))).toEqual(ec.events);
        const modelEvents = [...ec.events]
          .map((e: any) => ({ name: e.name, category: e.category, time: (e.keyIndex * ec.keyDurationTicks) / 1000 }))
          .sort((a, b) => a.time - b.time);
        expect(clip.events).toEqual(modelEvents);

        expect(clip.curves.filter((cv) => cv.keys.encoding === 'static').length).toBe(ec.numStatic);
        expect(clip.curves.filter((cv) => !cv.active).length).toBe(ec.numInactive);
        const firsts = nax2
          ? (raw as Nax2Document['groups'][number]).curves.filter((cv) => cv.firstKeyIndex !== -1).map((cv) => cv.firstKeyIndex)
          : (raw as Nax3Document['clips'][number]).curves.filter((cv) => cv.isStatic === 0).map((cv) => cv.firstKeyIndex);
        expect([Math.min(...firsts), Math.max(...firsts)]).toEqual(ec.nonStaticFirstKeyIndexRange);

        const c0 = ec.curve0;
        const model0 = clip.curves[0]!;
        expect(model0.keys.encoding === 'static').toBe(c0.isStatic);
        expect(NAX3_CURVE_TYPES.indexOf(model0.curveType)).toBe(c0.curveType);
        if (nax2) {
          const curve = (raw as Nax2Document['groups'][number]).curves[0]!;
          expect(curve.firstKeyIndex === -1 ? null : curve.firstKeyIndex).toBe(c0.firstKeyIndex);
          expectClose(curve.collapsedKey, c0.staticKey);
          expect(curve.ipolType).toBe(c0.ipolType);
        } else {
          const curve = (raw as Nax3Document['clips'][number]).curves[0]!;
          expect(curve.isStatic !== 0 ? null : curve.firstKeyIndex).toBe(c0.firstKeyIndex);
          expectClose(curve.staticKey, c0.staticKey);
          expect(c0.ipolType).toBeNull();
        }
        if (model0.keys.encoding === 'static') expectClose(model0.keys.value, c0.staticKey);
      });
    });
  }
});

describe.skipIf(!have)('expected.json N3 samples that sit exactly on a key', () => {
  for (const file of FILES) {
    it(file, () => {
      const { resource } = open(file);
      const n3 = expected.files[file].n3 as Record<string, { cases: any[] }>;
      let checked = 0;
      for (const [clipName, { cases }] of Object.entries(n3)) {
        const clip = resource.clip(clipName);
        for (const kase of cases) {
          if (kase.sampleType !== 'step' && kase.w !== 0) continue;
          clip.curves.forEach((curve, i) => {
            if (kase.counts[i] === 0) {
              expect(curve.active).toBe(false);
              return;
            }
            expect(curve.active).toBe(true);
            const k0 = kase.k0 as number;
            const key = curve.keys.encoding === 'static' ? curve.keys.value : (curve.keys as UniformKeys).values.subarray(4 * k0, 4 * k0 + 4);
            expectClose(key, kase.samples[i], 1e-6);
          });
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});
