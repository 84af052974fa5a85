import { FormatError } from '../../errors.js';
import { ByteReader, latin1 } from '../binary.js';
import { readF32Bits } from './float-bits.js';
import { findNax3KeyRangeProblem, type Nax3Clip, type Nax3Curve, type Nax3Document, type Nax3Event } from './nax3-document.js';
import { foreignNax3Magic, looksLikeGscept2023 } from './nax3-variants.js';

const FORMAT = 'nax3';

/**
 * Reads a 2009 Nebula3 / Nebula Trifid `.nax3` ('NA01', spec nebula.md §2.2) into a
 * `Nax3Document`. The byte order comes from the magic bytes: "10AN" little-endian, "NA01"
 * big-endian (§2.3). Layout: 12-byte header {magic, numClips, numKeys}; per clip a 64-byte header,
 * its 64-byte events, its 24-byte curves; then `numKeys` float4 keys to the end of the file, which
 * must come out exactly (`12 + Σ(64 + 64·numEvents + 24·numCurves) + 16·numKeys == fileSize`).
 * Names are cut at the first NUL; the raw fields are kept for byte-exact rewriting.
 *
 * Throws `FormatError` (format `nax3`, with a byte `offset`):
 * - `unsupported-variant` for the oryol-tools 'NAH0' header / 'NAC0' key files and for the
 *   2023+ gscept 'NA01' layout (detected when the 2009 reading fails and the 2023 header walk
 *   fits the file exactly; §2.5);
 * - `bad-magic`, `truncated`, `bad-count` (counts the remaining bytes cannot hold),
 *   `size-mismatch` (bytes left over after the key pool);
 * - `bad-key-index` when a non-static curve's keys `firstKeyIndex + k·keyStride, k < numKeys`
 *   leave the pool or its clip has no keys (at the curve record).
 */
export function readNax3(bytes: Uint8Array): Nax3Document {
  const magic = bytes.length >= 4 ? latin1(bytes.subarray(0, 4)) : '';
  const foreign = foreignNax3Magic(magic);
  if (foreign) throw new FormatError(FORMAT, 'unsupported-variant', { offset: 0 }, `this is ${foreign}; only the 2009 'NA01' layout is supported`);
  try {
    return readNa01(bytes);
  } catch (e) {
    if (e instanceof FormatError && magic === '10AN' && looksLikeGscept2023(bytes)) {
      throw new FormatError(
        FORMAT,
        'unsupported-variant',
        { offset: 4 },
        "this looks like the 2023+ gscept/nebula 'NA01' layout (u16 numAnimations, interval-based keys, spec §2.5), " +
          `which reuses the magic; only the 2009 'NA01' layout is supported (the 2009 reading failed: ${e.message})`,
      );
    }
    throw e;
  }
}

function readNa01(bytes: Uint8Array): Nax3Document {
  const r = new ByteReader(bytes, FORMAT, true);
  const magic = latin1(r.raw(4, 'the magic'));
  if (magic === '10AN') r.littleEndian = true;
  else if (magic === 'NA01') r.littleEndian = false;
  else {
    const hint = magic === '2XAN' || magic === '3XAN' ? ' (this is a .nax2 file; use readNax2)' : '';
    r.fail('bad-magic', `expected magic bytes "10AN" (little-endian) or "NA01" (big-endian), found ${JSON.stringify(magic)}${hint}`, 0);
  }
  const numClips = r.u32('numClips');
  const numKeys = r.u32('numKeys');
  r.needItems(numClips, 64, 'clip headers');
  const expectedKeyDataOffset = checkSizeEquation(r, numClips, numKeys);

  const clips: Nax3Clip[] = [];
  for (let c = 0; c < numClips; c++) {
    const offset = r.offset;
    const what = `clip ${c}`;
    const numCurves = r.u16(`${what} numCurves`);
    const startKeyIndex = r.u16(`${what} startKeyIndex`);
    const clipKeys = r.u16(`${what} numKeys`);
    const keyStride = r.u16(`${what} keyStride`);
    const keyDuration = r.u16(`${what} keyDuration`);
    const preInfinityType = r.u8(`${what} preInfinityType`);
    const postInfinityType = r.u8(`${what} postInfinityType`);
    const numEvents = r.u16(`${what} numEvents`);
    const nameBytes = r.raw(50, `${what} name`).slice();
    const clip: Nax3Clip = {
      name: cString(nameBytes),
      nameBytes,
      startKeyIndex,
      numKeys: clipKeys,
      keyStride,
      keyDuration,
      preInfinityType,
      postInfinityType,
      events: [],
      curves: [],
      offset,
    };
    r.needItems(numEvents, 64, `${what} events`);
    for (let e = 0; e < numEvents; e++) clip.events.push(readEvent(r, `${what} event ${e}`));
    r.needItems(numCurves, 24, `${what} curves`);
    for (let i = 0; i < numCurves; i++) clip.curves.push(readCurve(r, `${what} curve ${i}`));
    clips.push(clip);
  }

  const keyDataOffset = r.offset;
  if (keyDataOffset !== expectedKeyDataOffset) r.fail('size-mismatch', `the headers end at ${keyDataOffset}, not ${expectedKeyDataOffset}`);
  const pool = readF32Bits(r, 4 * numKeys, 'key pool');
  r.expectEnd('the key pool');

  const problem = findNax3KeyRangeProblem(clips, numKeys);
  if (problem) throw new FormatError(FORMAT, 'bad-key-index', { offset: problem.offset }, problem.message);
  return { byteOrder: r.littleEndian ? 'little' : 'big', numKeys, keyDataOffset, clips, pool };
}

/**
 * The exact size check of §2.2, done before anything is allocated: walks the clip headers' counts
 * only and throws unless `12 + Σ(64 + 64·numEvents + 24·numCurves) + 16·numKeys` is the file size.
 * Returns the key data offset.
 */
function checkSizeEquation(r: ByteReader, numClips: number, numKeys: number): number {
  const length = r.length;
  let offset = 12;
  for (let c = 0; c < numClips; c++) {
    if (offset + 64 > length) r.fail('truncated', `expected clip ${c}'s 64-byte header but only ${length - offset} bytes remain`, offset);
    const numCurves = r.view.getUint16(offset, r.littleEndian);
    const numEvents = r.view.getUint16(offset + 12, r.littleEndian);
    const next = offset + 64 + 64 * numEvents + 24 * numCurves;
    if (next > length) {
      r.fail('truncated', `clip ${c}'s ${numEvents} events and ${numCurves} curves need bytes up to ${next}, but the file ends at ${length}`, offset + 64);
    }
    offset = next;
  }
  const expected = offset + 16 * numKeys;
  if (expected !== length) {
    r.fail(
      expected > length ? 'truncated' : 'size-mismatch',
      `the headers end at byte ${offset} and numKeys = ${numKeys} needs ${16 * numKeys} more bytes, ` +
        `so the file should be ${expected} bytes; it has ${length}`,
      offset,
    );
  }
  return offset;
}

function readEvent(r: ByteReader, what: string): Nax3Event {
  const offset = r.offset;
  const nameBytes = r.raw(47, `${what} name`).slice();
  const categoryBytes = r.raw(15, `${what} category`).slice();
  const keyIndex = r.u16(`${what} keyIndex`);
  return { name: cString(nameBytes), nameBytes, category: cString(categoryBytes), categoryBytes, keyIndex, offset };
}

function readCurve(r: ByteReader, what: string): Nax3Curve {
  const offset = r.offset;
  const firstKeyIndex = r.u32(`${what} firstKeyIndex`);
  const isActive = r.u8(`${what} isActive`);
  const isStatic = r.u8(`${what} isStatic`);
  const curveType = r.u8(`${what} curveType`);
  const padding = r.u8(`${what} padding`);
  const staticKey = readF32Bits(r, 4, `${what} staticKey`);
  return { firstKeyIndex, isActive, isStatic, curveType, padding, staticKey, offset };
}

/** The bytes up to the first NUL, as latin-1 (bytes after it are garbage in real files, §2.2). */
export function cString(field: Uint8Array): string {
  const end = field.indexOf(0);
  return latin1(end < 0 ? field : field.subarray(0, end));
}
