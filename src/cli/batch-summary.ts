import type { ConvertResult } from './convert-file.js';

/** Totals of a resample batch. */
export interface BatchSummary {
  files: number;
  succeeded: number;
  /** Files in the given folders not processed on their own (companions, other files). */
  skipped: number;
  clips: number;
  keysIn: number;
  keysOut: number;
  bytesIn: number;
  bytesOut: number;
  seconds: number;
  failures: { input: string; error: string }[];
}

export function summarise(results: readonly ConvertResult[], skipped: number, seconds: number): BatchSummary {
  const s: BatchSummary = { files: results.length, succeeded: 0, skipped, clips: 0, keysIn: 0, keysOut: 0, bytesIn: 0, bytesOut: 0, seconds, failures: [] };
  for (const r of results) {
    if (!r.ok) {
      s.failures.push({ input: r.input, error: `${r.errorName}: ${r.error}` });
      continue;
    }
    s.succeeded++;
    s.clips += r.clips;
    s.keysIn += r.keysIn;
    s.keysOut += r.keysOut;
    s.bytesIn += r.bytesIn;
    s.bytesOut += r.bytesOut;
  }
  return s;
}

/** The summary as printed at the end of `animcore resample`. */
export function summaryText(s: BatchSummary): string {
  const lines = [
    `files: ${s.succeeded} of ${s.files} converted, ${s.failures.length} failed${s.skipped > 0 ? `, ${s.skipped} companion or other files skipped` : ''}`,
    `clips: ${s.clips}`,
    `keys: ${s.keysIn} in, ${s.keysOut} out`,
    `bytes: ${s.bytesIn} in, ${s.bytesOut} out`,
    `seconds: ${s.seconds.toFixed(2)}`,
  ];
  for (const f of s.failures) lines.push(`failed: ${f.input}: ${f.error}`);
  return lines.join('\n');
}
