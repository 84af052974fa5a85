import { FormatError } from '../../errors.js';
import { ByteReader, latin1 } from '../binary.js';
import { findNax2KeyRangeProblem, type Nax2Curve, type Nax2Document, type Nax2Group } from './nax2-document.js';

const FORMAT = 'nax2';

/** One way to read the bytes after the 12-byte header (spec §1.3, §1.7). */
interface Candidate {
  layout: 'A' | 'B' | 'C';
  label: string;
  groupSize: number;
  curveSize: number;
  metadataSize: 0 | 256 | 512;
}

const LAYOUT_B: Candidate = { layout: 'B', label: 'layout B', groupSize: 28, curveSize: 28, metadataSize: 0 };
const LAYOUT_A: Candidate = { layout: 'A', label: 'layout A', groupSize: 24, curveSize: 22, metadataSize: 0 };
const LAYOUT_C512: Candidate = { layout: 'C', label: 'layout C (512-byte metadata)', groupSize: 540, curveSize: 28, metadataSize: 512 };
const LAYOUT_C256: Candidate = { layout: 'C', label: 'layout C (256-byte metadata)', groupSize: 284, curveSize: 28, metadataSize: 256 };

/**
 * Reads a Nebula2 `.nax2` animation (little-endian) into a `Nax2Document`.
 *
 * The layout is told apart by magic and the exact size equation of spec nebula.md §1.7: magic
 * "2XAN" (bytes on disk) means layout B or A, "3XAN" means layout C with 512- or 256-byte group
 * metadata; a candidate is accepted only when
 * `12 + numGroups·groupSize + Σ numCurves·curveSize + 16·numKeys` equals the file size. The key
 * pool is copied into its own `Float32Array` (layout A puts it at offsets that need not be
 * 4-aligned, §1.2).
 *
 * Throws `FormatError` (format `nax2`, with a byte `offset`) for a wrong magic (`bad-magic`),
 * negative counts (`bad-count`), a size no layout explains (`size-mismatch`, listing what each
 * candidate expected), truncation, or a curve whose keys
 * `firstKeyIndex + k·keyStride, k < numKeys` leave the pool (`bad-key-index`, at the curve header).
 */
export function readNax2(bytes: Uint8Array): Nax2Document {
  const r = new ByteReader(bytes, FORMAT, true);
  const magic = latin1(r.raw(4, 'the magic'));
  let candidates: Candidate[];
  if (magic === '2XAN') candidates = [LAYOUT_B, LAYOUT_A];
  else if (magic === '3XAN') candidates = [LAYOUT_C512, LAYOUT_C256];
  else {
    const hint = magic === '10AN' || magic === 'NA01' ? ' (this is a .nax3 file; use readNax3)' : '';
    return r.fail('bad-magic', `expected magic "2XAN" or "3XAN", found ${JSON.stringify(magic)}${hint}`, 0);
  }
  const numGroups = r.i32('numGroups');
  if (numGroups < 0) r.fail('bad-count', `numGroups is ${numGroups}`, 4);
  const numKeys = r.i32('numKeys');
  if (numKeys < 0) r.fail('bad-count', `numKeys is ${numKeys}`, 8);

  const verdicts: string[] = [];
  const fitting: Candidate[] = [];
  for (const c of candidates) {
    const verdict = checkSizeEquation(bytes, c, numGroups, numKeys);
    if (verdict === null) fitting.push(c);
    else verdicts.push(`${c.label}: ${verdict}`);
  }
  if (fitting.length === 0) {
    throw new FormatError(
      FORMAT,
      'size-mismatch',
      { offset: bytes.length },
      `no ${magic === '2XAN' ? 'layout A/B' : 'layout C'} reading explains the file size ${bytes.length}: ${verdicts.join('; ')}`,
    );
  }
  // An ambiguous fit never occurred in real files (§1.7); take the first candidate that parses.
  let firstError: unknown;
  for (const c of fitting) {
    try {
      return parseLayout(bytes, c, numGroups, numKeys);
    } catch (e) {
      firstError ??= e;
    }
  }
  throw firstError;
}

/** `null` when the size equation of §1.7 holds for candidate `c`, else (briefly) what it expected. */
function checkSizeEquation(bytes: Uint8Array, c: Candidate, numGroups: number, numKeys: number): string | null {
  const groupsEnd = 12 + numGroups * c.groupSize;
  if (groupsEnd > bytes.length) return `${numGroups} group headers end past the end, at byte ${groupsEnd}`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let numCurves = 0;
  for (let g = 0; g < numGroups; g++) {
    const n = view.getInt32(12 + g * c.groupSize, true);
    if (n < 0) return `group ${g} would have numCurves ${n}`;
    numCurves += n;
  }
  const expected = groupsEnd + numCurves * c.curveSize + 16 * numKeys;
  return expected === bytes.length ? null : `${numGroups} groups, ${numCurves} curves and ${numKeys} keys need ${expected} bytes`;
}

function parseLayout(bytes: Uint8Array, c: Candidate, numGroups: number, numKeys: number): Nax2Document {
  const r = new ByteReader(bytes, FORMAT, true);
  r.seek(12, 'group headers');
  r.needItems(numGroups, c.groupSize, 'group headers');
  const groups: Nax2Group[] = [];
  const curveCounts: number[] = [];
  for (let g = 0; g < numGroups; g++) {
    const offset = r.offset;
    const numCurves = r.i32(`group ${g} numCurves`);
    if (numCurves < 0) r.fail('bad-count', `group ${g} numCurves is ${numCurves}`, offset);
    const startKey = r.i32(`group ${g} startKey`);
    const groupKeys = r.i32(`group ${g} numKeys`);
    if (groupKeys < 0) r.fail('bad-count', `group ${g} numKeys is ${groupKeys}`, offset + 8);
    const keyStride = r.i32(`group ${g} keyStride`);
    const keyTime = r.f32(`group ${g} keyTime`);
    const fadeInFrames = c.layout === 'A' ? null : r.f32(`group ${g} fadeInFrames`);
    const loopType = r.i32(`group ${g} loopType`);
    const metadata = c.metadataSize > 0 ? r.fixedString(c.metadataSize, `group ${g} metadata`) : null;
    curveCounts.push(numCurves);
    groups.push({ startKey, numKeys: groupKeys, keyStride, keyTime, fadeInFrames, loopType, metadata, curves: [], source: { offset } });
  }
  for (let g = 0; g < numGroups; g++) {
    const count = curveCounts[g]!;
    r.needItems(count, c.curveSize, `group ${g} curve headers`);
    const curves: Nax2Curve[] = groups[g]!.curves;
    for (let i = 0; i < count; i++) {
      const offset = r.offset;
      const what = `group ${g} curve ${i}`;
      const ipolType = c.layout === 'A' ? r.i16(`${what} ipolType`) : r.i32(`${what} ipolType`);
      const firstKeyIndex = r.i32(`${what} firstKeyIndex`);
      const isAnimated = c.layout === 'A' ? null : r.i32(`${what} isAnimated`);
      const collapsedKey = r.f32Array(4, `${what} collapsed key`);
      curves.push({ ipolType, firstKeyIndex, isAnimated, collapsedKey, source: { offset } });
    }
  }
  const keyDataOffset = r.offset;
  r.needItems(numKeys, 16, 'key pool');
  const pool = r.f32Array(4 * numKeys, 'key pool');
  r.expectEnd('the key pool');

  const problem = findNax2KeyRangeProblem(groups, numKeys);
  if (problem) throw new FormatError(FORMAT, 'bad-key-index', problem.source, problem.message);
  return { layout: c.layout, metadataSize: c.metadataSize, numKeys, keyDataOffset, groups, pool };
}
