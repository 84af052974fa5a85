import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { AnimCore } from '../core/index.js';
import { AnimcoreError } from '../errors.js';
import { toGltfDocument, writeGlb, writeGltf } from '../export/gltf.js';
import { animJson } from '../export/json.js';
import { exportClip } from '../export/export-clip.js';
import { nax3FromResource, writeNax3 } from '../formats/nebula/index.js';
import { AnimResource } from '../anim/index.js';
import { formatHandler } from '../formats/registry.js';
import { isExpected, isFsError, reasonOf } from './errors.js';
import { openFile } from './open-file.js';
import { outputFiles, type Target } from './output-names.js';

/** One file of a resample batch, as sent to a worker (plain data). */
export interface ConvertJob {
  input: string;
  /** Output base: `--out` joined with the base from `outputBases`. */
  outputBase: string;
  target: Target;
  /** Keys per second. */
  fps: number;
  force: boolean;
  /** Absolute paths that must never be written (the batch's inputs and the files beside them). */
  protectedPaths: string[];
  format?: string;
  /** What the folder walk's detection found (format id and parsed document; plain data for worker threads). */
  detected?: { format: string; parsed: unknown; rank?: number };
  /** Companion files by role (`--skeleton`, `--bnc`, …), given to every input. */
  companions?: Record<string, string>;
}

/** What became of one input of a batch. */
export type ConvertStatus = 'converted' | 'failed' | 'skipped';

/** What converting one file gave: one record per input (plain data, so it crosses worker threads). */
export interface ConvertResult {
  input: string;
  status: ConvertStatus;
  /** Why the file failed or was skipped: one line. */
  reason?: string;
  /** For failures: the error's name (`FormatError`, `UsageError`, a file-system code such as `ENOENT`). */
  errorName?: string;
  /** Files written (converted). */
  outputs: string[];
  clips: number;
  /** Keys stored in the source / written. */
  keysIn: number;
  keysOut: number;
  bytesIn: number;
  bytesOut: number;
  warnings: string[];
}

/** A record of an input that was not converted. */
function notConverted(input: string, status: 'failed' | 'skipped', reason: string, errorName?: string): ConvertResult {
  return { input, status, reason, ...(errorName !== undefined && { errorName }), outputs: [], clips: 0, keysIn: 0, keysOut: 0, bytesIn: 0, bytesOut: 0, warnings: [] };
}

/**
 * Opens one file (with its companions), resamples every clip to `fps` and writes it as `target`:
 * glb / gltf through `toGltfDocument`, json through `animJson`, nax3 through `nax3FromResource` +
 * `writeNax3` (whole-millisecond key durations only, so e.g. 25 or 50 fps). Never writes a
 * protected path (failed); a file whose output exists is skipped unless `force`. Errors of animcore
 * (`FormatError`, `UsageError`) and of the file system become a failed result; others are thrown.
 */
export async function convertFile(core: AnimCore, job: ConvertJob): Promise<ConvertResult> {
  try {
    const targets = outputFiles(job.outputBase, job.target);
    for (const path of targets) {
      if (job.protectedPaths.includes(resolve(path))) throw new AnimcoreError(`${path} is an input file; choose another --out`);
    }
    const existing = targets.find((path) => existsSync(path));
    if (existing !== undefined && !job.force) return notConverted(job.input, 'skipped', `${existing} exists (--force replaces it)`);
    const detection = job.detected && { handler: formatHandler(job.detected.format), detected: { parsed: job.detected.parsed, ...(job.detected.rank !== undefined && { rank: job.detected.rank }) } };
    const opened = await openFile(job.input, job.companions ?? {}, job.format, detection);
    const resource = opened.resource;
    core.load(resource);
    try {
      const name = basename(job.outputBase);
      let files: { name: string; bytes: Uint8Array }[];
      let counts: { clips: number; keysIn: number; keysOut: number };
      let warnings: readonly string[] = [];
      if (job.target === 'glb' || job.target === 'gltf') {
        const exported = toGltfDocument(core, resource, { fps: job.fps });
        files = job.target === 'glb' ? [{ name: `${name}.glb`, bytes: await writeGlb(exported.document) }] : await writeGltf(exported.document, name);
        ({ counts, warnings } = exported);
      } else if (job.target === 'json') {
        const { json, counts: c } = animJson(core, resource, job.fps);
        files = [{ name: `${name}.json`, bytes: new TextEncoder().encode(JSON.stringify(json)) }];
        counts = c;
      } else {
        const clips = resource.clips.map((c) => exportClip(core, c, job.fps));
        files = [{ name: `${name}.nax3`, bytes: writeNax3(nax3FromResource(new AnimResource({ format: 'nax3', clips }))) }];
        counts = { clips: clips.length, keysIn: resource.clips.reduce((n, c) => n + c.storedKeyCount, 0), keysOut: clips.reduce((n, c) => n + c.storedKeyCount, 0) };
      }
      mkdirSync(dirname(job.outputBase), { recursive: true });
      const outputs = files.map((f) => {
        const path = join(dirname(job.outputBase), f.name);
        writeFileSync(path, f.bytes);
        return path;
      });
      return {
        input: job.input,
        status: 'converted',
        outputs,
        ...counts,
        bytesIn: opened.bytes,
        bytesOut: files.reduce((n, f) => n + f.bytes.byteLength, 0),
        warnings: [...warnings],
      };
    } finally {
      resource.dispose();
    }
  } catch (e) {
    if (!isExpected(e)) throw e;
    return notConverted(job.input, 'failed', reasonOf(e, job.input), isFsError(e) ? e.code : (e as Error).name);
  }
}
