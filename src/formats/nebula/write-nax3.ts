import { UsageError } from '../../errors.js';
import { ByteWriter } from '../binary.js';
import { writeF32Bits } from './float-bits.js';
import { findNax3KeyRangeProblem, type Nax3Document } from './nax3-document.js';
import { cString } from './read-nax3.js';

/** Options of `writeNax3`. */
export interface WriteNax3Options {
  /** Byte order of the output; defaults to the document's `byteOrder` (magic "10AN" LE, "NA01" BE, spec §2.3). */
  littleEndian?: boolean;
}

/**
 * Writes a `Nax3Document` as a 2009 Nebula3 `.nax3` ('NA01', spec nebula.md §2.2): 12-byte header,
 * per clip a 64-byte header, its 64-byte events and 24-byte curves, then the key pool.
 * Every field is written as stored (no re-packing; use `nax3FromResource` to build a document from
 * clips). Raw name fields (`nameBytes`, `categoryBytes`) are copied when they still begin with the
 * decoded string and a NUL, so `writeNax3(readNax3(b))` equals `b` byte for byte, garbage after the
 * NULs included; float bits (NaN payloads included) are kept. `keyDataOffset` and the `offset`
 * fields are derived facts and ignored.
 *
 * Throws `UsageError` when a value does not fit its field (u16/u8/u32 ranges, names of 50/47/15
 * bytes with their NUL, non-latin-1 characters), when `pool.length != 4 × numKeys`, when a static key
 * does not have 4 floats, or when a non-static curve's keys would lie outside the pool (a file
 * `readNax3` would refuse).
 */
export function writeNax3(doc: Nax3Document, options: WriteNax3Options = {}): Uint8Array {
  const littleEndian = options.littleEndian ?? doc.byteOrder !== 'big';
  if (!Number.isInteger(doc.numKeys) || doc.pool.length !== 4 * doc.numKeys) {
    throw new UsageError(`nax3: pool has ${doc.pool.length} floats but numKeys is ${doc.numKeys} (needs 4 × numKeys)`);
  }
  checkUint(doc.numKeys, 0xffffffff, 'numKeys');
  checkUint(doc.clips.length, 0xffffffff, 'number of clips');
  const problem = findNax3KeyRangeProblem(doc.clips, doc.numKeys);
  if (problem) throw new UsageError(`nax3: ${problem.message}`);

  const w = new ByteWriter(littleEndian, 12 + 16 * doc.pool.length / 4 + 1024);
  w.bytes(asciiBytes(littleEndian ? '10AN' : 'NA01'));
  w.u32(doc.clips.length);
  w.u32(doc.numKeys);
  doc.clips.forEach((clip, c) => {
    const what = `clip ${c} ("${clip.name}")`;
    w.u16(checkUint(clip.curves.length, 0xffff, `${what} numCurves`));
    w.u16(checkUint(clip.startKeyIndex, 0xffff, `${what} startKeyIndex`));
    w.u16(checkUint(clip.numKeys, 0xffff, `${what} numKeys`));
    w.u16(checkUint(clip.keyStride, 0xffff, `${what} keyStride`));
    w.u16(checkUint(clip.keyDuration, 0xffff, `${what} keyDuration`));
    w.u8(checkUint(clip.preInfinityType, 0xff, `${what} preInfinityType`));
    w.u8(checkUint(clip.postInfinityType, 0xff, `${what} postInfinityType`));
    w.u16(checkUint(clip.events.length, 0xffff, `${what} numEvents`));
    w.bytes(charField(clip.name, clip.nameBytes, 50, `${what} name`));
    clip.events.forEach((event, e) => {
      w.bytes(charField(event.name, event.nameBytes, 47, `${what} event ${e} name`));
      w.bytes(charField(event.category, event.categoryBytes, 15, `${what} event ${e} category`));
      w.u16(checkUint(event.keyIndex, 0xffff, `${what} event ${e} keyIndex`));
    });
    clip.curves.forEach((curve, i) => {
      const cw = `${what} curve ${i}`;
      w.u32(checkUint(curve.firstKeyIndex, 0xffffffff, `${cw} firstKeyIndex`));
      w.u8(checkUint(curve.isActive, 0xff, `${cw} isActive`));
      w.u8(checkUint(curve.isStatic, 0xff, `${cw} isStatic`));
      w.u8(checkUint(curve.curveType, 0xff, `${cw} curveType`));
      w.u8(checkUint(curve.padding, 0xff, `${cw} padding`));
      if (curve.staticKey.length !== 4) throw new UsageError(`nax3: ${cw} staticKey has ${curve.staticKey.length} floats, expected 4`);
      writeF32Bits(w, curve.staticKey);
    });
  });
  writeF32Bits(w, doc.pool);
  return w.finish();
}

function checkUint(v: number, max: number, what: string): number {
  if (!Number.isInteger(v) || v < 0 || v > max) throw new UsageError(`nax3: ${what} must be an integer in 0..${max}, got ${v}`);
  return v;
}

/** The raw field when it still decodes to `text`, else `text` as latin-1, NUL-padded to `size`. */
function charField(text: string, raw: Uint8Array | undefined, size: number, what: string): Uint8Array {
  if (raw && raw.length === size && cString(raw) === text) return raw;
  if (text.length >= size) throw new UsageError(`nax3: ${what} "${text}" needs ${text.length + 1} bytes with its NUL; the field has ${size}`);
  const out = new Uint8Array(size);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0 || code > 0xff) throw new UsageError(`nax3: ${what} "${text}" has a character that is not latin-1 (or is NUL)`);
    out[i] = code;
  }
  return out;
}

function asciiBytes(s: string): Uint8Array {
  return Uint8Array.from(s, (ch) => ch.charCodeAt(0));
}
