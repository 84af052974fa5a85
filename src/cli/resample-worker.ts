// Worker-thread entry of `animcore resample --jobs N` (run by piscina): converts one file per call
// with one AnimCore per worker, created on first use.
import { AnimCore } from '../core/index.js';
import { type ConvertJob, type ConvertResult, convertFile } from './convert-file.js';

let core: Promise<AnimCore> | null = null;

export default async function convert(job: ConvertJob): Promise<ConvertResult> {
  core ??= AnimCore.create();
  return convertFile(await core, job);
}
