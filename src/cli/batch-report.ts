import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BatchSummary } from './batch-summary.js';
import type { ConvertResult, EarlierConversion } from './convert-file.js';
import type { HashedFile } from './output-log.js';

/**
 * What decides a batch's output bytes besides the files read: the animcore version and the
 * conversion options (`--fps`, `--to`, `--format`, companions named with options, …), keys sorted.
 * `--resume` reuses a report line only when these are equal.
 */
export type ConversionOptions = Record<string, unknown>;

/** One line of `--report` per input (`--report FILE.jsonl`, documented in the README). */
export interface ReportLine extends Omit<ConvertResult, 'reason' | 'errorName' | 'code' | 'stack' | 'sha256'> {
  /** Why it failed, was skipped or is unchanged; null when converted. `error` is the error's name for failures. */
  reason: { code: string; message: string; error?: string } | null;
  /** SHA-256 of the input; null when it was not read. */
  sha256: string | null;
  options: ConversionOptions;
}

/** The last line of a report: the batch's totals, its shard and options. */
export interface ReportSummaryLine {
  summary: Omit<BatchSummary, 'failures' | 'skips' | 'notes' | 'reductions' | 'shard'> & { shard: string | null; options: ConversionOptions };
}

/** `value` with the keys of every object sorted, so that equal options print equal. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]));
}

/**
 * The conversion options of a batch from the command's options, leaving out `runOnly` (where
 * outputs go, threads, what may be replaced, sharding, reporting: none changes an output's bytes),
 * so that an option added to the command later counts unless it is listed there.
 */
export function conversionOptions(version: string, options: Readonly<Record<string, unknown>>, runOnly: readonly string[]): ConversionOptions {
  const kept = Object.entries(options).filter(([k, v]) => v !== undefined && !runOnly.includes(k));
  return sortedKeys({ animcore: version, ...Object.fromEntries(kept) }) as ConversionOptions;
}

export function reportLine(r: ConvertResult, options: ConversionOptions): ReportLine {
  return {
    input: r.input,
    status: r.status,
    reason: r.status === 'converted' ? null : { code: r.code ?? '', message: r.reason ?? '', ...(r.errorName !== undefined && { error: r.errorName }) },
    sha256: r.sha256 ?? null,
    companions: r.companions,
    outputs: r.outputs,
    clips: r.clips,
    keysIn: r.keysIn,
    keysOut: r.keysOut,
    bytesIn: r.bytesIn,
    bytesOut: r.bytesOut,
    ms: Math.round(r.ms * 1000) / 1000,
    warnings: r.warnings,
    reductions: r.reductions,
    notes: r.notes,
    options,
  };
}

/** A report being written: a line per input as it finishes, then the summary. */
export interface BatchReport {
  add(result: ConvertResult): void;
  finish(summary: BatchSummary, shard: string | null): void;
}

/**
 * Starts `--report FILE`: the file is made anew (emptied when it exists) and every line is
 * written with one `write` call as soon as its input finishes, so a killed batch leaves whole
 * lines of every input that finished (a line is never cut by a kill of the process).
 * @throws the file system's error when the file cannot be made
 */
export function openReport(path: string, options: ConversionOptions): BatchReport {
  const fd = openSync(path, 'w');
  const write = (value: unknown) => writeSync(fd, `${JSON.stringify(value)}\n`);
  return {
    add: (r) => write(reportLine(r, options)),
    finish(summary, shard) {
      const { failures: _f, skips: _s, notes: _n, reductions: _r, shard: _shard, ...totals } = summary;
      write({ summary: { ...totals, shard, options } } satisfies ReportSummaryLine);
      closeSync(fd);
    },
  };
}

function isHashedFiles(value: unknown): value is HashedFile[] {
  return Array.isArray(value) && value.every((f) => typeof f?.path === 'string' && typeof f?.sha256 === 'string');
}

/**
 * The inputs a report (`--resume FILE`) says were converted (or found unchanged) with `options`:
 * absolute input path → what was recorded. Lines that do not parse (a file cut by a crash or
 * edited), other options, failures and skips are left out, so those inputs are converted again;
 * the last line of an input wins. A missing file resumes nothing.
 * @throws the file system's error when the file exists but cannot be read
 */
export function readResume(path: string, options: ConversionOptions): Map<string, EarlierConversion> {
  const earlier = new Map<string, EarlierConversion>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return earlier;
    throw e;
  }
  const wanted = JSON.stringify(options);
  for (const line of text.split('\n')) {
    let r: Partial<ReportLine>;
    try {
      r = JSON.parse(line) as Partial<ReportLine>;
    } catch {
      continue;
    }
    if (typeof r?.input !== 'string') continue;
    const counts = [r.clips, r.keysIn, r.keysOut, r.bytesIn, r.bytesOut];
    const usable =
      (r.status === 'converted' || r.status === 'unchanged') &&
      typeof r.sha256 === 'string' &&
      isHashedFiles(r.companions) &&
      isHashedFiles(r.outputs) &&
      counts.every((n) => typeof n === 'number') &&
      JSON.stringify(sortedKeys(r.options)) === wanted;
    if (!usable) {
      earlier.delete(resolve(r.input));
      continue;
    }
    earlier.set(resolve(r.input), { sha256: r.sha256!, companions: r.companions!, outputs: r.outputs!, clips: r.clips!, keysIn: r.keysIn!, keysOut: r.keysOut!, bytesIn: r.bytesIn!, bytesOut: r.bytesOut! });
  }
  return earlier;
}
