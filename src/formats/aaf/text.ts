import type { ByteReader, ByteWriter } from '../binary.js';
import { writeU16Count } from './write-count.js';

/**
 * An AAF string (spec aaf.md §1): a u16 byte length, then the bytes, no terminator. `text` is the
 * UTF-8 decoding when the bytes are valid UTF-8, otherwise the windows-1251 decoding (the
 * author's locale); `raw` keeps the bytes so a writer reproduces them exactly.
 */
export interface AafText {
  readonly text: string;
  readonly raw: Uint8Array;
  readonly encoding: 'utf-8' | 'windows-1251';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const cp1251 = new TextDecoder('windows-1251');

/** Decodes `raw` as UTF-8 when valid, else as windows-1251 (every byte maps; never throws). */
export function decodeAafText(raw: Uint8Array): AafText {
  try {
    return { text: utf8.decode(raw), raw, encoding: 'utf-8' };
  } catch {
    return { text: cp1251.decode(raw), raw, encoding: 'windows-1251' };
  }
}

/** An `AafText` for `text`, encoded as UTF-8 (what the project's writers produce). */
export function aafText(text: string): AafText {
  return { text, raw: new TextEncoder().encode(text), encoding: 'utf-8' };
}

/** Reads a u16-length string; `what` names it in errors (truncation is a `FormatError`). */
export function readAafText(r: ByteReader, what: string): AafText {
  const n = r.u16(`${what} length`);
  return decodeAafText(r.raw(n, what).slice());
}

/** Writes `t.raw` with its u16 length; `what` names it in errors. @throws UsageError when longer than 65535 bytes */
export function writeAafText(w: ByteWriter, t: AafText, what: string): void {
  writeU16Count(w, t.raw.length, `${what} length`);
  w.bytes(t.raw);
}
