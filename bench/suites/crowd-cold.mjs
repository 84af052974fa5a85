// crowd-cold (issue 16): 500 instances, each playing its own clip of 64 joints × 10 s (300 keys at
// 30 Hz, T/R/S uniform curves: 500 distinct clips, ≈ 460 MB of float keys), forward at 60 Hz, one
// `sample` call per instance; joint samples/s. `crowd-cold` flushes the caches before every frame
// by touching 96 MiB (outside the measured time); `crowd-cold-steady` does not. Contenders:
// `animcore-simd` (float keys) and `animcore-simd-quantized` (the same clips loaded with
// `compression`, in a second SIMD core), one `sampler.sample` call per instance into its own
// sample buffer; `-many` the same crowd as one `SampleManyJob` with a clip per instance (`clips`),
// one `run(times)` per frame; all timed round by round in turn (tinybench would time one after the
// other, and the flushed frames are sensitive to the load of a shared machine). The JS key arrays
// are dropped once both cores hold them (`retainKeys: false`), as a crowd application would.
import { AnimCore, AnimResource } from '../../dist/index.js';
import { makeRigClip } from '../clips.mjs';

const JOINTS = 64;
const KEYS = 300;
const INSTANCES = 500;
// --quick: 100 instances and clips (92 MB of keys, still well beyond the 32 MiB L3), so building the crowd stays short.
const QUICK_INSTANCES = 100;
const FRAME = 1 / 60;
const FLUSH_BYTES = 96 * 2 ** 20;

/** What the quantized contender loads with (the example). */
export const CROWD_COMPRESSION = { translation: 1e-4, rotation: 1e-4, scale: 1e-4 };

/** Touches every 64-byte line of a 96 MiB buffer (read and write), evicting the keys of the last frame. */
function makeFlush() {
  const lines = new Int32Array(FLUSH_BYTES / 4);
  return () => {
    for (let i = 0; i < lines.length; i += 16) lines[i]++;
  };
}

/**
 * Times `contenders` (frame functions) interleaved — round by round, each contender once per
 * round — so that both see the same machine load: per sample `frames` frames, after a `flush` when
 * given (outside the timing). Returns per contender the median in joint samples/s and the spread
 * (median absolute deviation of the per-sample time as a share of the median).
 */
function interleaved(contenders, { instances, rounds, frames, flush }) {
  const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (const fn of Object.values(contenders)) for (let i = 0; i < 3; i++) fn(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(contenders)) {
      if (flush) flush();
      const t0 = performance.now();
      for (let f = 0; f < frames; f++) fn();
      times[name].push((performance.now() - t0) / frames);
    }
  }
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  return Object.fromEntries(
    Object.entries(times).map(([name, ms]) => {
      const m = median(ms);
      return [name, { median: (JOINTS * instances * 1000) / m, spread: median(ms.map((t) => Math.abs(t - m))) / m, runs: ms.length }];
    }),
  );
}

/**
 * Per instance one clip, loaded float into one SIMD core and quantized into another; the two
 * cases share the crowd. The suite's own cores keep the other suites' memory small.
 */
export default async function crowdCold({ quick }) {
  const float = await AnimCore.create({ build: 'simd' });
  const quantized = await AnimCore.create({ build: 'simd' });
  const instances = quick ? QUICK_INSTANCES : INSTANCES;
  const crowd = [];
  for (let i = 0; i < instances; i++) {
    const clip = makeRigClip({ joints: JOINTS, keyCount: KEYS, seed: 1000 + i, name: `crowd${i}` });
    const resource = new AnimResource({ format: 'bench', clips: [clip] });
    float.load(resource);
    quantized.load(resource, { compression: CROWD_COMPRESSION, retainKeys: false });
    crowd.push({ clip, float: float.createSampleBuffer(clip), quantized: quantized.createSampleBuffer(clip) });
  }
  const frameOf = (core, key) => {
    let frame = 0;
    return () => {
      const t0 = frame++ * FRAME;
      for (let i = 0; i < instances; i++) core.sampler.sample(crowd[i].clip, t0 + i * 0.0137, crowd[i][key]);
    };
  };
  // The whole crowd in one call: instance i plays crowd[i].clip.
  const manyOf = (core) => {
    const job = core.createSampleMany({ clip: crowd[0].clip, clips: crowd.map((c) => c.clip), instances });
    const times = new Float64Array(instances);
    let frame = 0;
    return () => {
      const t0 = frame++ * FRAME;
      for (let i = 0; i < instances; i++) times[i] = t0 + i * 0.0137;
      job.run(times);
    };
  };
  const contenders = {
    'animcore-simd': frameOf(float, 'float'),
    'animcore-simd-quantized': frameOf(quantized, 'quantized'),
    'animcore-simd-many': manyOf(float),
    'animcore-simd-quantized-many': manyOf(quantized),
  };
  const flush = makeFlush();
  const where = `Node ${process.version}, contenders interleaved, ${instances} instances`;
  return [
    { name: 'crowd-cold', unit: 'joint samples/s', where, measure: async () => interleaved(contenders, { instances, rounds: quick ? 40 : 300, frames: 1, flush }) },
    { name: 'crowd-cold-steady', unit: 'joint samples/s', where, measure: async () => interleaved(contenders, { instances, rounds: quick ? 40 : 300, frames: 4 }) },
  ];
}
crowdCold.cases = ['crowd-cold', 'crowd-cold-steady'];
