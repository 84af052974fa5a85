// resample-batch (issue 6): every fixture and example animation resampled to 60 fps, as
// `animcore resample` does — joint samples of output per second (every target joint of every output
// key) and input MB/s; resample-batch-uniform: only the sources with uniform keys. animcore-* run `resample` as the exporter does (without the
// deviation measurement); reference-ts samples the same key times with `referenceSample` in a loop.
import { referenceSample, resample } from '../../dist/index.js';
import { openAll } from '../inputs.mjs';

const FPS = 60;

export default async function resampleBatch({ cores }) {
  const opened = await openAll();
  const clips = opened.flatMap((o) => o.resource.clips);
  const inputBytes = opened.reduce((n, o) => n + o.bytes, 0);
  // Output key counts as `resample` makes them (the same rule for the reference).
  const plan = clips.map((clip) => {
    const cycle = clip.postInfinity === 'cycle';
    const keyCount = cycle ? Math.max(1, Math.round(clip.duration * FPS)) : Math.ceil(clip.duration * FPS - 1e-9) + 1;
    const keyDuration = cycle && clip.duration > 0 ? clip.duration / keyCount : 1 / FPS;
    return { clip, keyCount, keyDuration };
  });
  const contendersFor = (chosen) => {
    const contenders = {};
    const core = cores['animcore-simd'];
    for (const o of opened) core.load(o.resource);
    contenders['animcore-simd'] = () => {
      for (const { clip } of chosen) resample(core, clip, { fps: FPS, measureDeviation: false });
    };
    contenders['reference-ts'] = () => {
      for (const { clip, keyCount, keyDuration } of chosen) {
        const n = clip.curves.length;
        const arrays = { samples: new Float32Array(4 * n), counts: new Uint8Array(n) };
        const keys = new Float32Array(4 * n * keyCount);
        for (let k = 0; k < keyCount; k++) {
          referenceSample(clip, k * keyDuration, arrays);
          keys.set(arrays.samples, 4 * n * k);
        }
      }
    };
    return contenders;
  };
  // A joint sample is one joint's curves at one time (spec performance.md), so count the distinct
  // target joints of each clip, not its curves.
  const jointsOf = (clip) => new Set(clip.curves.map((c) => c.target.joint)).size;
  const outputJointSamples = (chosen) => chosen.reduce((n, p) => n + p.keyCount * jointsOf(p.clip), 0);
  const contenders = contendersFor(plan);
  // The uniform path: sources whose curves are uniform already (Nebula), resampled to 60 fps.
  const uniform = plan.filter((p) => p.clip.curves.some((c) => c.keys.encoding === 'uniform'));
  return [
    { name: 'resample-batch', unitsPerRun: outputJointSamples(plan), unit: 'output joint samples/s', contenders, iterations: 3 },
    { name: 'resample-batch-uniform', unitsPerRun: outputJointSamples(uniform), unit: 'output joint samples/s', contenders: contendersFor(uniform), iterations: 3 },
    { name: 'resample-batch-input', unitsPerRun: inputBytes / 1e6, unit: 'MB/s', contenders, iterations: 3, sameRunsAs: 'resample-batch' },
  ];
}
