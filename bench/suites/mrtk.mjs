// curves-mrtk (issue 3, counted per issue 16): all curves of the large MRTK recording evaluated at
// one time, forward playback at 60 Hz; Unity-curve evaluations per second, a Unity curve being one
// scalar AnimationCurve (a lane: 389 in this recording, over its float4 curves). parse-mrtk: MB/s turning that recording into a
// resource (`reference-ts`: readMrtk + mrtkToResource, the TypeScript reader alone) and, for the
// wasm contenders, also copying it into the core and disposing it.
import { mrtkToResource, readMrtk, referenceSample } from '../../dist/index.js';
import { fixture } from '../fixtures.mjs';

/** One second of 60 Hz playback per run, so a run is long enough for the timer. */
const FRAMES_PER_RUN = 60;

export default function mrtkSuite({ cores }) {
  const bytes = fixture('mrtk', 'InputAnimation-20201027-134946.bin');
  if (!bytes) return [];
  const resource = mrtkToResource(readMrtk(bytes));
  const clip = resource.clips[0];
  const n = clip.curves.length;
  const unityCurves = clip.curves.reduce((sum, c) => sum + (c.keys.encoding === 'unity' ? c.keys.lanes.length : 0), 0);
  const curves = {};
  const parse = {};
  for (const [name, core] of Object.entries(cores)) {
    core.load(resource);
    const buf = core.createSampleBuffer(clip);
    let t = 0;
    curves[name] = () => {
      for (let f = 0; f < FRAMES_PER_RUN; f++) {
        core.sampler.sample(clip, t, buf);
        t = (t + 1 / 60) % clip.duration;
      }
    };
    parse[name] = () => {
      const r = mrtkToResource(readMrtk(bytes));
      core.load(r);
      r.dispose();
    };
  }
  const out = { samples: new Float32Array(4 * n), counts: new Uint8Array(n) };
  let t = 0;
  curves['reference-ts'] = () => {
    for (let f = 0; f < FRAMES_PER_RUN; f++) {
      referenceSample(clip, t, out);
      t = (t + 1 / 60) % clip.duration;
    }
  };
  parse['reference-ts'] = () => mrtkToResource(readMrtk(bytes));
  return [
    { name: 'curves-mrtk', unitsPerRun: unityCurves * FRAMES_PER_RUN, unit: 'Unity-curve evaluations/s', contenders: curves },
    { name: 'parse-mrtk', unitsPerRun: bytes.byteLength / 1e6, unit: 'MB/s', contenders: parse },
  ];
}
