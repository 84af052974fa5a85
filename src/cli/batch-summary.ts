import prettyBytes from 'pretty-bytes';
import { type ConvertResult, isWalkSkip } from './convert-file.js';

/** Totals of a resample batch: `animcore resample --json` prints this object (documented in the README). */
export interface BatchSummary {
  /** Inputs of the batch (converted + unchanged + skipped + failed). */
  files: number;
  converted: number;
  /** Inputs an earlier run converted, with nothing changed since (`--resume`). */
  unchanged: number;
  /** Inputs not converted because their output exists (no `--force`). */
  skipped: number;
  failed: number;
  /** Files met in the given folders that are no input of their own (companions, skeletons, files of no animation format). */
  ignored: number;
  clips: number;
  keysIn: number;
  keysOut: number;
  bytesIn: number;
  bytesOut: number;
  seconds: number;
  failures: { input: string; reason: string }[];
  skips: { input: string; reason: string }[];
  /** What converting changed or chose on its own, per file (`ConvertResult.notes`): companions paired by content, nax3 rates. */
  notes: { input: string; note: string }[];
  /** Keyframe reduction per clip (glb, gltf and json outputs): keys before and after, largest errors (lengths in output units, rotations in degrees). */
  reductions: ClipReductionLine[];
  /** `i/n` when the batch converted one shard (`--shard`). */
  shard?: string;
}

/** One clip's keyframe reduction in the summary. */
export interface ClipReductionLine {
  input: string;
  clip: string;
  keysIn: number;
  keysOut: number;
  maxError: { translation: number; rotationDegrees: number; scale: number; other: number };
}

/** Per-clip lines the text summary prints before it gives only the totals and the worst clips (`--json` has them all). */
const REDUCTION_LINES = 20;

/** Totals of a batch's records (inputs, problems, and the walked files that are no input); clips, keys and bytes count converted and unchanged inputs. */
export function summarise(results: readonly ConvertResult[], seconds: number): BatchSummary {
  const s: BatchSummary = { files: 0, converted: 0, unchanged: 0, skipped: 0, failed: 0, ignored: 0, clips: 0, keysIn: 0, keysOut: 0, bytesIn: 0, bytesOut: 0, seconds, failures: [], skips: [], notes: [], reductions: [] };
  for (const r of results) {
    if (isWalkSkip(r)) {
      s.ignored++;
      continue;
    }
    s.files++;
    if (r.status === 'failed') {
      s.failed++;
      s.failures.push({ input: r.input, reason: `${r.errorName}: ${r.reason}` });
    } else if (r.status === 'skipped') {
      s.skipped++;
      s.skips.push({ input: r.input, reason: r.reason ?? '' });
    } else {
      if (r.status === 'unchanged') s.unchanged++;
      else s.converted++;
      for (const note of r.notes) s.notes.push({ input: r.input, note });
      for (const c of r.reductions) {
        const { translation, rotation, scale, other } = c.maxError;
        s.reductions.push({ input: r.input, clip: c.clip, keysIn: c.keysIn, keysOut: c.keysOut, maxError: { translation, rotationDegrees: (rotation * 180) / Math.PI, scale, other } });
      }
      s.clips += r.clips;
      s.keysIn += r.keysIn;
      s.keysOut += r.keysOut;
      s.bytesIn += r.bytesIn;
      s.bytesOut += r.bytesOut;
    }
  }
  return s;
}

/**
 * The summary as printed at the end of `animcore resample`; `listed` says whether the per-file
 * lines already named the failed and skipped files (they are listed here otherwise, never twice).
 */
export function summaryText(s: BatchSummary, listed: boolean): string {
  const internal = s.failures.filter((f) => f.reason.includes('internal error (a bug')).length;
  const counts = [
    `${s.converted} of ${s.files} converted`,
    `${s.failed} failed${internal > 0 ? ` (${internal} by an internal error: please report it)` : ''}`,
    ...(s.unchanged > 0 ? [`${s.unchanged} unchanged (--resume)`] : []),
    ...(s.skipped > 0 ? [`${s.skipped} skipped (output exists)`] : []),
  ];
  const lines = [
    ...(s.shard !== undefined ? [`shard: ${s.shard}`] : []),
    `files: ${counts.join(', ')}${s.ignored > 0 ? `; ${s.ignored} companion or other files in the folders not converted on their own (--verbose or --report lists them)` : ''}`,
    `clips: ${s.clips}`,
    `keys: ${s.keysIn} read from the sources, ${s.keysOut} written`,
    `bytes: ${prettyBytes(s.bytesIn)} in, ${prettyBytes(s.bytesOut)} out`,
    `seconds: ${s.seconds.toFixed(2)}`,
  ];
  lines.push(...reductionText(s.reductions, s.keysOut));
  for (const n of s.notes) lines.push(`note: ${n.input}: ${n.note}`);
  if (!listed) {
    for (const f of s.failures) lines.push(`failed: ${f.input}: ${f.reason}`);
    for (const k of s.skips) lines.push(`skipped: ${k.input}: ${k.reason}`);
  }
  return lines.join('\n');
}

/** `a.bc` with 3 significant digits, or 0. */
function short(x: number): string {
  return String(Number(x.toPrecision(3))); // no trailing zeros after the point (100 stays 100)
}

function errorText(e: ClipReductionLine['maxError']): string {
  return `translation ${short(e.translation)}, rotation ${short(e.rotationDegrees)}°, scale ${short(e.scale)}, other ${short(e.other)}`;
}

/**
 * The keyframe reduction lines of the summary: keys baked at the output rate and kept, how many of
 * the kept were written (`written`, the batch's keys out), and per clip its keys and largest errors — every clip up to `REDUCTION_LINES`, else the totals and the clip with the largest
 * error of each kind.
 */
function reductionText(reductions: readonly ClipReductionLine[], written: number): string[] {
  if (reductions.length === 0) return [];
  const keysIn = reductions.reduce((n, r) => n + r.keysIn, 0);
  const keysOut = reductions.reduce((n, r) => n + r.keysOut, 0);
  const lines = [`reduction: ${keysOut} of ${keysIn} baked keys kept (${short((100 * keysOut) / Math.max(1, keysIn))}%) in ${reductions.length} clips`];
  // Baked keys are counted per curve before the writer leaves out what glTF does not need.
  if (written < keysOut) lines.push(`  (${written} written: curves that stay at their rest pose or drive no glTF node property are left out)`);
  const clip = (r: ClipReductionLine) => `${r.input} "${r.clip}"`;
  if (reductions.length <= REDUCTION_LINES) {
    for (const r of reductions) lines.push(`  ${clip(r)}: ${r.keysIn} -> ${r.keysOut} keys, largest error ${errorText(r.maxError)}`);
    return lines;
  }
  for (const kind of ['translation', 'rotationDegrees', 'scale', 'other'] as const) {
    const worst = reductions.reduce((a, b) => (b.maxError[kind] > a.maxError[kind] ? b : a));
    if (worst.maxError[kind] > 0) lines.push(`  largest ${kind === 'rotationDegrees' ? 'rotation' : kind} error: ${short(worst.maxError[kind])}${kind === 'rotationDegrees' ? '°' : ''} in ${clip(worst)}`);
  }
  lines.push(`  (per clip: --json)`);
  return lines;
}
