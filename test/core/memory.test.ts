import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimResource } from '../../src/anim/index.js';
import type { AnimCore } from '../../src/core/index.js';
import { BUILDS, createCore } from '../helpers/core.js';
import { makeRig } from '../helpers/rig.js';
import { CLIP_COUNTS, CLIP_KEYS, CLIP_SLOT_OUT } from '../../assembly/layout.js';

const PAGE = 65536;

describe.each(BUILDS)('the block allocator (assembly/memory.ts), %s build', (build) => {
  let core: AnimCore;
  beforeAll(async () => {
    core = await createCore(build);
  });

  it('hands out aligned, zero-filled, disjoint blocks inside memory under any alloc/free order, and reuses freed space', () => {
    const { kernel } = core.runtime;
    const step = fc.oneof(fc.record({ alloc: fc.integer({ min: 0, max: 200_000 }) }), fc.record({ free: fc.nat() }));
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const run = () => {
          const live: { ptr: number; size: number }[] = [];
          for (const s of steps) {
            if ('alloc' in s) {
              const ptr = kernel.alloc(s.alloc);
              const bytes = new Uint8Array(kernel.memory.buffer);
              expect(ptr % 16).toBe(0);
              expect(ptr + s.alloc).toBeLessThanOrEqual(bytes.byteLength);
              expect(bytes.subarray(ptr, ptr + s.alloc).every((b) => b === 0)).toBe(true);
              for (const b of live) expect(ptr + s.alloc <= b.ptr || b.ptr + b.size <= ptr).toBe(true);
              // Dirty it, so a block handed out again must be zeroed again.
              bytes.fill(0xa5, ptr, ptr + s.alloc);
              live.push({ ptr, size: s.alloc });
            } else if (live.length > 0) {
              kernel.free(live.splice(s.free % live.length, 1)[0]!.ptr);
            }
          }
          for (const b of live) kernel.free(b.ptr);
        };
        run();
        const grown = kernel.memory.buffer.byteLength;
        run();
        expect(kernel.memory.buffer.byteLength).toBe(grown);
      }),
      { numRuns: 300 },
    );
  });

  it('grows memory by what a load lacks or an eighth, not by doubling', async () => {
    const fresh = await createCore(build);
    const clips = Array.from({ length: 6 }, (_, i) => makeRig(64, 300, i + 1));
    let used = 0;
    for (const clip of clips) {
      fresh.load(new AnimResource({ format: 'test', clips: [clip] }));
      used += fresh.loadedSize(clip).bytes;
      // About 903 KiB per clip: memory follows what the blocks use, an eighth ahead at most.
      expect(fresh.memory.buffer.byteLength).toBeLessThan(used * 1.125 + 2 * PAGE);
    }
    expect(fresh.memory.buffer.byteLength).toBeLessThan(6 * 1024 * 1024);
  });

  it('grows memory a logarithmic number of times as many clips are loaded (each grow costs the host a garbage collection)', async () => {
    const fresh = await createCore(build);
    const { kernel } = fresh.runtime;
    let grows = 0;
    let size = kernel.memory.buffer.byteLength;
    // 400 blocks of a clip's size (903 KiB) one after another: 353 MiB.
    for (let i = 0; i < 400; i++) {
      expect(kernel.alloc(903 * 1024)).toBeGreaterThan(0);
      if (kernel.memory.buffer.byteLength !== size) {
        grows++;
        size = kernel.memory.buffer.byteLength;
      }
    }
    // Exact growth grew 400 times; steps of an eighth from ~1 MiB to 353 MiB take about 50.
    expect(grows).toBeLessThan(60);
    expect(size).toBeLessThan(400 * 903 * 1024 * 1.125 + 2 * PAGE);
  });

  it('shares the output tables of clips of one layout (a crowd), each clip keeping its own keys, until the last of them is freed', async () => {
    const fresh = await createCore(build);
    const { runtime } = fresh;
    const clips = [makeRig(16, 30, 1), makeRig(16, 30, 2), makeRig(8, 30, 3)];
    const resources = clips.map((clip) => new AnimResource({ format: 'test', clips: [clip] }));
    for (const r of resources) fresh.load(r);
    const header = (clip: (typeof clips)[number]) => {
      const p = runtime.loaded(clip).ptr;
      return [CLIP_SLOT_OUT, CLIP_COUNTS, CLIP_KEYS].map((field) => runtime.u32[(p + field) >>> 2]!);
    };
    const [a, b, other] = clips.map(header) as [number[], number[], number[]];
    expect(b.slice(0, 2)).toEqual(a.slice(0, 2));
    expect(b[2]).not.toBe(a[2]);
    expect(other[0]).not.toBe(a[0]);
    const buffer = fresh.createSampleBuffer(clips[1]!);
    const before = (fresh.sampler.sample(clips[1]!, 0.37, buffer), Float32Array.from(buffer.samples));
    // Freeing the first user keeps the tables; reusing its space for new blocks must not overwrite them.
    resources[0]!.dispose();
    const filler = runtime.allocBlock(0, [4096]);
    runtime.u8.fill(0xa5, filler.arrays[0]!, filler.arrays[0]! + 4096);
    fresh.sampler.sample(clips[1]!, 0.37, buffer);
    expect(Array.from(buffer.samples)).toEqual(Array.from(before));
    expect(Array.from(buffer.counts).every((c) => c === 1)).toBe(true);
    runtime.free(filler.ptr);
    // With the last user gone the tables are freed: the allocator hands their space out again.
    resources[1]!.dispose();
    buffer.dispose();
    const next = makeRig(16, 30, 4);
    fresh.load(new AnimResource({ format: 'test', clips: [next] }));
    expect(header(next)[0]).toBe(a[0]);
  });

  it('is the only allocator in the module (the kernels create no managed objects)', () => {
    const wat = readFileSync(join(__dirname, '..', '..', 'build', `animcore-${build}.wat`), 'utf8');
    expect(wat).not.toMatch(/~lib\/rt\//);
  });
});
