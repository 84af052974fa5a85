// The text summary of `animcore resample`: numbers as a user reads them.
import { describe, expect, it } from 'vitest';
import { type BatchSummary, type ClipReductionLine, summaryText } from '../../src/cli/batch-summary.js';

const summary = (reductions: ClipReductionLine[], written = reductions.reduce((n, r) => n + r.keysOut, 0)): BatchSummary => ({
  files: 1, converted: 1, unchanged: 0, skipped: 0, failed: 0, ignored: 0, clips: reductions.length, keysIn: 0, keysOut: written, bytesIn: 0, bytesOut: 0, seconds: 0,
  failures: [], skips: [], notes: [], reductions,
});

const clip = (keysIn: number, keysOut: number, other: number): ClipReductionLine => ({ input: 'a.bin', clip: 'a', keysIn, keysOut, maxError: { translation: 0, rotationDegrees: 0.5, scale: 120, other } });

describe('summaryText', () => {
  it('prints the share of keys kept and the errors with three significant digits, keeping the zeros before the point', () => {
    expect(summaryText(summary([clip(116, 116, 4.3449e-7)]), true)).toContain('reduction: 116 of 116 baked keys kept (100%) in 1 clips\n  a.bin "a": 116 -> 116 keys, largest error translation 0, rotation 0.5°, scale 120, other 4.34e-7');
    expect(summaryText(summary([clip(370, 272, 1e-7)]), true)).toContain('kept (73.5%)');
    expect(summaryText(summary([clip(1000, 10, 10)]), true)).toMatch(/kept \(1%\).*other 10$/s);
  });

  it('says how many kept keys were written when the writer left curves at rest out, and only then', () => {
    const text = summaryText(summary([clip(370, 272, 0)], 250), true);
    expect(text).toContain('keys: 0 read from the sources, 250 written');
    expect(text).toContain('kept (73.5%) in 1 clips\n  (250 written: curves that stay at their rest pose or drive no glTF node property are left out)\n  a.bin');
    expect(summaryText(summary([clip(370, 272, 0)]), true)).not.toContain('written:');
  });
});
