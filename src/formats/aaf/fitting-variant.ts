import { FormatError } from '../../errors.js';
import { ByteReader } from '../binary.js';
import { shorten } from '../text.js';

/** One layout a reader may try: its name and a parser that starts after the header. */
export interface VariantAttempt<V, T> {
  readonly variant: V;
  parse(r: ByteReader): T;
}

/** The variant that fit, what it read, and every later variant that also consumes the file exactly. */
export interface VariantMatch<V, T> {
  readonly variant: V;
  readonly value: T;
  /** Other variants that read the same bytes without error (the file is ambiguous when non-empty). */
  readonly alsoMatches: V[];
}

/**
 * Tries each layout variant in order from byte `start` and takes the first that consumes the
 * whole file exactly (spec aaf.md §2.1, §3.1). All variants are tried so that ambiguity can be
 * reported. Errors other than `FormatError` propagate.
 * @param label how a variant is named in messages
 * @throws FormatError when no variant fits: one error with the `offset`, `code` and reason of the
 *   variant that read furthest, naming where the others stopped
 */
export function readFittingVariant<V, T>(
  bytes: Uint8Array,
  format: string,
  start: number,
  attempts: readonly VariantAttempt<V, T>[],
  label: (v: V) => string,
): VariantMatch<V, T> {
  const fits: { variant: V; value: T }[] = [];
  const failures: { variant: V; error: FormatError }[] = [];
  for (const a of attempts) {
    const r = new ByteReader(bytes, format);
    r.offset = start;
    try {
      const value = a.parse(r);
      r.expectEnd(`the last object (${label(a.variant)} layout)`);
      fits.push({ variant: a.variant, value });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      failures.push({ variant: a.variant, error: e });
    }
  }
  const first = fits[0];
  if (first) return { variant: first.variant, value: first.value, alsoMatches: fits.slice(1).map((f) => f.variant) };
  const furthest = failures.reduce((a, b) => ((b.error.offset ?? 0) > (a.error.offset ?? 0) ? b : a));
  // The furthest reading says most; the others are named so the message stays one short line.
  const others = failures.filter((f) => f !== furthest).map((f) => `${label(f.variant)} at byte ${f.error.offset}`);
  const reason = shorten(furthest.error.message.slice(format.length + 2), 150);
  throw new FormatError(
    format,
    furthest.error.code,
    { offset: furthest.error.offset },
    `no layout variant fits the file; ${label(furthest.variant)} read furthest: ${reason}${others.length > 0 ? `; ${others.join(', ')} stopped earlier` : ''}`,
  );
}
