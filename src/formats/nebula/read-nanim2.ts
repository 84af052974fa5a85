import { FormatError } from '../../errors.js';
import { findNax2KeyRangeProblem, NAX2_IPOL_NAMES, NAX2_LOOP_NAMES, type Nax2Document, type Nax2Group } from './nax2-document.js';
import { describeNumber, parseFloatStrict, parseIntStrict } from '../text-numbers.js';
import { quote, splitLines } from '../text.js';

const FORMAT = 'nanim2';

/**
 * Reads a Nebula2 `.nanim2` (the ASCII twin of `.nax2`, spec nebula.md §1.9) into a
 * `Nax2Document` with `layout: 'nanim2'` and `keyDataOffset: null`.
 *
 * Lines (LF, CR or CRLF; blank lines and `#` comments skipped):
 * - `type nanim2` (first), `numgroups G`, `numkeys N`;
 * - `group numCurves startKey numKeys keyStride keyTime fadeInFrames clamp|repeat` (7 fields,
 *   `nMemoryAnimation::LoadNanim2`) or the pre-2006 6-field form without `fadeInFrames`;
 * - `curve step|linear|quat|none firstKeyIndex isAnimated x y z w` (7 values) or the 6-value form
 *   without `isAnimated`; told apart by field count;
 * - `key x y z w`, in pool order (real files put each group's keys after its curves).
 *
 * `keyTime` and all key values are rounded to float32, as the binary file stores them. Ipol names
 * map to the stored values of §1.4 (none 0, step 1, quat 2, linear 3).
 *
 * Throws `FormatError` (format `nanim2`, with the 1-based `line`) for unknown keywords, wrong field
 * counts, malformed numbers, counts that disagree with `numgroups`/`numkeys`/`numCurves`, and
 * animated curves whose keys leave the pool.
 */
export function readNanim2(text: string): Nax2Document {
  const lines = splitLines(text);
  const fail = (line: number, code: string, message: string): never => {
    throw new FormatError(FORMAT, code, { line }, message);
  };
  let sawType = false;
  let numGroups: number | null = null;
  let numGroupsLine = 0;
  let numKeys: number | null = null;
  let numKeysLine = 0;
  const groups: Nax2Group[] = [];
  const curveCounts: number[] = [];
  const keys: number[] = [];

  for (let li = 0; li < lines.length; li++) {
    const line = li + 1;
    const raw = lines[li]!.trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const t = raw.split(/\s+/);
    const keyword = t[0]!;
    const args = t.slice(1);
    if (!sawType) {
      if (keyword !== 'type') fail(line, 'bad-header', `expected "type nanim2" first, found ${quote(keyword)}`);
      if (args.length !== 1 || args[0] !== 'nanim2') fail(line, 'bad-header', `expected "type nanim2", found ${quote(raw)}`);
      sawType = true;
      continue;
    }
    const int = (s: string | undefined, what: string): number => parseIntStrict(s) ?? fail(line, 'bad-number', `${what}: ${describeNumber(s, 'integer')}`);
    const num = (s: string | undefined, what: string): number => parseFloatStrict(s) ?? fail(line, 'bad-number', `${what}: ${describeNumber(s, 'number')}`);
    switch (keyword) {
      case 'type':
        fail(line, 'bad-header', 'a second "type" line');
        break;
      case 'numgroups':
      case 'numkeys': {
        if (args.length !== 1) fail(line, 'bad-field-count', `"${keyword}" takes 1 value, found ${args.length}`);
        const v = int(args[0], keyword);
        if (v < 0) fail(line, 'bad-count', `${keyword} is ${v}`);
        if (keyword === 'numgroups') {
          if (numGroups !== null) fail(line, 'bad-header', 'a second "numgroups" line');
          numGroups = v;
          numGroupsLine = line;
        } else {
          if (numKeys !== null) fail(line, 'bad-header', 'a second "numkeys" line');
          numKeys = v;
          numKeysLine = line;
        }
        break;
      }
      case 'group': {
        if (numGroups === null) fail(line, 'bad-order', '"group" before "numgroups"');
        if (groups.length >= numGroups!) fail(line, 'bad-count', `more than numgroups = ${numGroups} groups`);
        closeGroup(line);
        if (args.length !== 7 && args.length !== 6) {
          fail(line, 'bad-field-count', `"group" takes 7 fields (or 6 in the pre-2006 form), found ${args.length}`);
        }
        const numCurves = int(args[0], 'numCurves');
        if (numCurves < 0) fail(line, 'bad-count', `numCurves is ${numCurves}`);
        const groupKeys = int(args[2], 'numKeys');
        if (groupKeys < 0) fail(line, 'bad-count', `numKeys is ${groupKeys}`);
        const loopName = args[args.length - 1]!;
        const loopType = (NAX2_LOOP_NAMES as readonly string[]).indexOf(loopName);
        if (loopType < 0) fail(line, 'bad-value', `loop type must be clamp or repeat, found ${quote(loopName)}`);
        groups.push({
          startKey: int(args[1], 'startKey'),
          numKeys: groupKeys,
          keyStride: int(args[3], 'keyStride'),
          keyTime: Math.fround(num(args[4], 'keyTime')),
          fadeInFrames: args.length === 7 ? Math.fround(num(args[5], 'fadeInFrames')) : null,
          loopType,
          metadata: null,
          curves: [],
          source: { line },
        });
        curveCounts.push(numCurves);
        break;
      }
      case 'curve': {
        const group = groups[groups.length - 1];
        if (!group) return fail(line, 'bad-order', '"curve" before any "group"');
        if (group.curves.length >= curveCounts[groups.length - 1]!) {
          fail(line, 'bad-count', `more curves than the group's numCurves = ${curveCounts[groups.length - 1]}`);
        }
        if (args.length !== 7 && args.length !== 6) {
          fail(line, 'bad-field-count', `"curve" takes 7 values (or 6 in the pre-2006 form), found ${args.length}`);
        }
        const ipolType = (NAX2_IPOL_NAMES as readonly string[]).indexOf(args[0]!);
        if (ipolType < 0) fail(line, 'bad-value', `ipol type must be step, linear, quat or none, found ${quote(args[0]!)}`);
        const v = args.length === 7 ? 3 : 2;
        group.curves.push({
          ipolType,
          firstKeyIndex: int(args[1], 'firstKeyIndex'),
          isAnimated: args.length === 7 ? int(args[2], 'isAnimated') : null,
          collapsedKey: Float32Array.of(num(args[v], 'x'), num(args[v + 1], 'y'), num(args[v + 2], 'z'), num(args[v + 3], 'w')),
          source: { line },
        });
        break;
      }
      case 'key': {
        if (numKeys === null) fail(line, 'bad-order', '"key" before "numkeys"');
        if (keys.length >= 4 * numKeys!) fail(line, 'bad-count', `more than numkeys = ${numKeys} keys`);
        if (args.length !== 4) fail(line, 'bad-field-count', `"key" takes 4 values, found ${args.length}`);
        keys.push(num(args[0], 'x'), num(args[1], 'y'), num(args[2], 'z'), num(args[3], 'w'));
        break;
      }
      default:
        fail(line, 'bad-keyword', `unknown keyword ${quote(keyword)}`);
    }
  }

  const end = Math.max(1, lines.length);
  if (!sawType) fail(end, 'bad-header', 'no "type nanim2" line');
  if (numGroups === null) fail(end, 'bad-header', 'no "numgroups" line');
  if (numKeys === null) fail(end, 'bad-header', 'no "numkeys" line');
  closeGroup(end);
  if (groups.length !== numGroups) fail(numGroupsLine, 'bad-count', `numgroups says ${numGroups} but ${groups.length} groups follow`);
  if (keys.length !== 4 * numKeys!) fail(numKeysLine, 'bad-count', `numkeys says ${numKeys} but ${keys.length / 4} keys follow`);

  const problem = findNax2KeyRangeProblem(groups, numKeys!);
  if (problem) throw new FormatError(FORMAT, 'bad-key-index', problem.source, problem.message);
  return { layout: 'nanim2', metadataSize: 0, numKeys: numKeys!, keyDataOffset: null, groups, pool: Float32Array.from(keys) };

  /** Checks that the group before `line` got all its curves. */
  function closeGroup(line: number): void {
    const g = groups.length - 1;
    const group = groups[g];
    if (group && group.curves.length !== curveCounts[g]) {
      fail(line, 'bad-count', `group ${g} (line ${group.source.line}) declares ${curveCounts[g]} curves but has ${group.curves.length}`);
    }
  }
}
