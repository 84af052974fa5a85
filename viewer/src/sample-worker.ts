// A Web Worker running the core off the main thread (the README's "Web Worker" example). Messages:
//   { type: 'open', files: NamedBytes[] }          → { type: 'opened', format, clips: string[], build }
//   { type: 'sample', clip: number, times: number[] } → { type: 'samples', samples: Float32Array, counts: Uint8Array }
// `samples` holds 4 × curveCount floats per time (one SampleManyJob call for all times); both
// arrays are copies transferred to the page, so the wasm memory never leaves the worker.
import { AnimCore, type AnimResource, type SampleManyJob } from 'animcore';
import { type NamedBytes, openFileSet } from './open-files.js';

type Request = { type: 'open'; files: NamedBytes[] } | { type: 'sample'; clip: number; times: number[] };

const core = AnimCore.create();
let resource: AnimResource | null = null;
const jobs = new Map<string, SampleManyJob>();

async function handle(request: Request): Promise<void> {
  const c = await core;
  if (request.type === 'open') {
    for (const job of jobs.values()) job.dispose();
    jobs.clear();
    resource?.dispose();
    resource = (await openFileSet(request.files)).resource;
    c.load(resource);
    postMessage({ type: 'opened', format: resource.format, clips: resource.clips.map((clip) => clip.name), build: c.simd ? 'simd' : 'scalar' });
    return;
  }
  if (resource === null) throw new Error('open a file first');
  const clip = resource.clip(request.clip);
  const key = `${request.clip}:${request.times.length}`;
  let job = jobs.get(key);
  if (job === undefined) {
    job = c.createSampleMany({ clip, instances: request.times.length });
    jobs.set(key, job);
  }
  job.run(request.times);
  const samples = job.samples.slice();
  const counts = job.counts.slice();
  postMessage({ type: 'samples', samples, counts }, { transfer: [samples.buffer, counts.buffer] });
}

addEventListener('message', (event: MessageEvent<Request>) => {
  handle(event.data).catch((e: unknown) => postMessage({ type: 'error', message: String(e) }));
});
