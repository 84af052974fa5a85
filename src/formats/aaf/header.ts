import { UsageError } from '../../errors.js';
import type { ByteReader, ByteWriter } from '../binary.js';
import { latin1 } from '../binary.js';
import { type AafText, readAafText, writeAafText } from './text.js';
import { writeU16Count } from './write-count.js';

/** The only version this reader knows (spec aaf.md §1). */
export const AAF_VERSION = 2;

/** What the project's writers put in the 10-byte format name field (spec aaf.md §1, a decision). */
export const AAF_FORMAT_NAME = 'ABTOMATAAF';

/**
 * The header both AAF file kinds share (spec aaf.md §2, §3): a 10-byte format name (any bytes are
 * accepted and kept), a u16 version (must be 2), and the service string.
 */
export interface AafHeader {
  /** The 10 bytes at offset 0, as stored. */
  readonly formatName: Uint8Array;
  readonly version: number;
  /** Free text from the exporter ("служебная строка"). */
  readonly service: AafText;
}

/** A header with the project's format name, version 2 and `service`. */
export function aafHeader(service: AafText): AafHeader {
  return { formatName: Uint8Array.from(AAF_FORMAT_NAME, (c) => c.charCodeAt(0)), version: AAF_VERSION, service };
}

/** The format name as text (latin-1, one char per byte), for messages and `info`. */
export function formatNameText(h: AafHeader): string {
  return latin1(h.formatName);
}

/**
 * Reads the header at offset 0.
 * @throws FormatError `truncated` when the file is shorter than the header, `bad-version` (at
 *   byte 10) when the version is not 2
 */
export function readAafHeader(r: ByteReader): AafHeader {
  const formatName = r.raw(10, 'format name').slice();
  const at = r.offset;
  const version = r.u16('version');
  if (version !== AAF_VERSION) r.fail('bad-version', `expected AAF version ${AAF_VERSION}, found version ${version}`, at);
  return { formatName, version, service: readAafText(r, 'service string') };
}

/**
 * Writes `h` as stored (any version, so tests can write wrong ones).
 * @throws UsageError when the format name is not 10 bytes or a field does not fit its u16
 */
export function writeAafHeader(w: ByteWriter, h: AafHeader): void {
  if (h.formatName.length !== 10) throw new UsageError(`AAF: the format name has ${h.formatName.length} bytes, expected 10`);
  w.bytes(h.formatName);
  writeU16Count(w, h.version, 'version');
  writeAafText(w, h.service, 'service string');
}
