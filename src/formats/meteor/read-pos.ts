import { FormatError } from '../../errors.js';
import { latin1 } from '../binary.js';
import { describeNumber, parseFloatStrict, parseIntStrict } from '../text-numbers.js';
import { quote, splitLines } from '../text.js';

/** A `Blend` or `Action` frame segment with its playback-speed multiplier (spec meteor.md §6.1). */
export interface PosSegment {
  kind: 'blend' | 'action';
  start: number;
  end: number;
  /** As written; missing → 1. A speed of 0 also plays at 1 (§7.1). */
  speed: number;
  line: number;
}

/** An `Attack` hit window (spec meteor.md §6.1). Numbers absent from the file are `null`. */
export interface PosAttack {
  /** Hitbox bone names with spaces turned into `_` (`"bau R Hand"` → `bau_R_Hand`). */
  bones: string[];
  start: number | null;
  end: number | null;
  attackType: number | null;
  checkFriend: number | null;
  defenseValue: number | null;
  defenseMove: number | null;
  targetValue: number | null;
  targetMove: number | null;
  targetPose: number | null;
  targetPoseFront: number | null;
  targetPoseBack: number | null;
  targetPoseLeft: number | null;
  targetPoseRight: number | null;
  line: number;
}

/** A `Drag` weapon-trail window: `time` = trail lifetime in seconds, `color` RGB 0–255. */
export interface PosDrag {
  start: number | null;
  end: number | null;
  time: number | null;
  color: [number, number, number] | null;
  line: number;
}

/** A `NextPose` combo-input window (frames strictly between start and end); `time` = crossfade seconds. */
export interface PosNextPose {
  start: number | null;
  end: number | null;
  time: number | null;
  line: number;
}

/**
 * One `Pose n` of a `.pos` file. Fields absent from the block are `null` (the game reads them as
 * 0). `drags` and `nextPoses` hold at most one window each: the game keeps the last one given.
 */
export interface PosPose {
  number: number;
  /** Written as `{}`: an unused placeholder. */
  empty: boolean;
  /** 0 = `character.amb` (shared moves), 1 = `p<N>.amb` (the character's own). */
  source: number | null;
  start: number | null;
  end: number | null;
  loopStart: number | null;
  loopEnd: number | null;
  effectType: number | null;
  /** SFX name (`<EffectID>.ef`); `0` means none. */
  effectId: string | null;
  /** The pose to chain to when this one ends (0 = none). */
  link: number | null;
  segments: PosSegment[];
  attacks: PosAttack[];
  drags: PosDrag[];
  nextPoses: PosNextPose[];
  /** 1-based line of `Pose n`. */
  line: number;
}

/** A `P<N>.pos` clip table: poses in file order. */
export interface PosDocument {
  poses: PosPose[];
  /** What the game's parser does silently that a user should know (where it stopped reading). */
  warnings: string[];
}

/** `Pose n` line and its fields, and the sub-objects still open, as the game's parser keeps them. */
interface ParseState {
  current: PosPose | null;
  segment: PosSegment | null;
  attack: PosAttack | null;
  drag: PosDrag | null;
  next: PosNextPose | null;
  /** Open braces per kind (the game counts them per kind, not as a stack). */
  depth: { pose: number; segment: number; attack: number; drag: number; next: number };
}

/** A non-empty line: its 1-based number and its text as the game decodes it. */
interface PosLine {
  no: number;
  raw: string;
}

const FORMAT = 'pos';

/** The UTF-8 byte order mark, skipped (issue 13 item 7; the game would read it as three '?' and stop). */
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Reads a `P<N>.pos` clip table exactly as the game does: a port of `ActionManager.Parse` in
 * `Assets/Meteor/ResLoader/PoseStatus.cs` of the Meteor remake (365082218/meteor_original_ios
 * @ e08cd1f; spec meteor.md §6.1). Its rules, which this follows:
 * - lines split on CR and LF, empty lines dropped; tabs deleted (not separators); tokens split on
 *   spaces; a line whose first token starts with `#` is a comment; only the first token (the
 *   keyword) and the second (its value) matter, anything after them on the line is ignored — so
 *   the 1.07 release's `{  source     0` opens a block and its `source 0` is not read (the game's
 *   source then stays 0, the value written);
 * - keywords in the game's spellings: `Pose`, `{`, `}`, `{}`, `source`/`Source`,
 *   `Start`/`start`, `End`/`end`, `Speed`/`speed`, `link`/`Link`, `LoopStart`, `LoopEnd`,
 *   `EffectType`, `EffectID`, `Blend`, `Action`, `Attack`, `bone`, `AttackType`, `CheckFriend`,
 *   `DefenseValue`, `DefenseMove`, `TargetValue`, `TargetMove`, `TargetPose`,
 *   `TargetPoseFront/Back/Left/Right`, `Drag`, `Time`, `Color`, `NextPose`;
 * - braces are counted per open sub-object (NextPose, Drag, Attack, Blend/Action, pose, in that
 *   order), `Start`/`End` go to the first of those open, `Time` to NextPose else Drag, `Speed`
 *   to an open segment (else ignored); `Pose n` starts a pose only where no pose or segment block
 *   is open; a later `Drag` or `NextPose` replaces the pose's earlier one;
 * - `bone = a, "b", …` continues on the following lines while the list ends with `,`, stopping
 *   before a line that mentions `Start`; names lose spaces and quotes at their ends, inner spaces
 *   become `_`; `LoopStart` below `Start` is raised to it.
 * Where the game stops reading at an unknown keyword (its parser logs and breaks), the poses read
 * so far are kept and `warnings` says where it stopped; a file where that happens before any pose
 * is refused. Where the game throws (a missing value, an integer that is not an Int32, a bad
 * number, a keyword with no pose, attack or drag to go to, a `Color` without three components, a
 * bone list without `=` or running off the end), this throws `FormatError` (format `pos`, with the
 * line). The file is decoded as ASCII, bytes above 0x7f as `?` (the game's Encoding.ASCII). Three
 * departures from the game's rules: a UTF-8 BOM is skipped; a negative segment speed (which would
 * run the clip's time backwards) is refused; and numbers are plain decimals (an integer within
 * Int32, a float within ±1e38 — value-range.ts), so `float.Parse`'s NaN, Infinity and thousands
 * separators, which no shipped file uses, are refused.
 */
export function readPos(bytes: Uint8Array): PosDocument {
  const bom = BOM.every((b, i) => bytes[i] === b);
  const lines: PosLine[] = [];
  // The game decodes the file as ASCII (Encoding.ASCII: every byte above 0x7f becomes '?').
  splitLines(latin1(bom ? bytes.subarray(BOM.length) : bytes).replace(/[\x80-\xff]/g, '?')).forEach((raw, i) => {
    if (raw !== '') lines.push({ no: i + 1, raw });
  });
  const poses: PosPose[] = [];
  const warnings: string[] = [];
  const st: ParseState = { current: null, segment: null, attack: null, drag: null, next: null, depth: { pose: 0, segment: 0, attack: 0, drag: 0, next: 0 } };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const [key, value] = keywordAndValue(line.raw);
    if (key === undefined || key.startsWith('#')) continue;
    const fail = (code: string, message: string): never => {
      throw new FormatError(FORMAT, code, { line: line.no }, message);
    };
    const int = (what: string): number => {
      if (value === undefined) fail('bad-value', `${key} takes a value, found none`);
      return int32(value!) ?? fail('bad-number', `${what}: ${describeInt32(value!)}`);
    };
    const float = (what: string): number => {
      if (value === undefined) fail('bad-value', `${key} takes a value, found none`);
      return parseFloatStrict(value) ?? fail('bad-number', `${what}: ${describeNumber(value, 'number')}`);
    };
    const pose = (): PosPose => st.current ?? fail('bad-order', `${quote(key)} outside a pose (after its closing brace, \`{}\` or before any \`Pose\`)`);
    const attack = (): PosAttack => st.attack ?? fail('bad-order', `${quote(key)} outside an Attack block`);
    if (key === 'Pose' && st.depth.pose === 0 && st.depth.segment === 0) {
      const number = int('pose number');
      st.current = emptyPose(number, line.no);
      poses.push(st.current);
    } else if (key === '{') {
      st.depth[openKind(st)]++;
    } else if (key === '}') {
      const kind = openKind(st);
      st.depth[kind]--;
      if (st.depth[kind] === 0) close(st, kind);
    } else if (key === 'link' || key === 'Link') {
      pose().link = int('link');
    } else if (key === 'source' || key === 'Source') {
      pose().source = int('source');
    } else if (key === 'Start' || key === 'start' || key === 'End' || key === 'end') {
      const field = key.toLowerCase() as 'start' | 'end';
      (st.next ?? st.drag ?? st.attack ?? st.segment ?? pose())[field] = int(key);
    } else if (key === 'Speed' || key === 'speed') {
      if (st.segment) {
        const speed = float('speed');
        if (speed < 0) fail('bad-value', `speed ${speed} is negative; expected a speed > 0 (0 plays at 1)`);
        st.segment.speed = speed;
      }
    } else if (key === 'LoopStart') {
      const p = pose();
      p.loopStart = int(key);
      // The game raises it to Start (0 when not given yet; pose 09 of the shipped files starts its loop before Start).
      if (p.loopStart < (p.start ?? 0)) p.loopStart = p.start ?? 0;
    } else if (key === 'LoopEnd') {
      pose().loopEnd = int(key);
    } else if (key === 'EffectType') {
      pose().effectType = int(key);
    } else if (key === 'EffectID') {
      if (value === undefined) fail('bad-value', 'EffectID takes a value, found none');
      pose().effectId = value!;
    } else if (key === 'Blend' || key === 'Action') {
      st.segment = { kind: key === 'Blend' ? 'blend' : 'action', start: 0, end: 0, speed: 1, line: line.no };
      pose().segments.push(st.segment);
    } else if (key === 'Attack') {
      st.attack = emptyAttack(line.no);
      pose().attacks.push(st.attack);
    } else if (key === 'bone') {
      i = readBones(lines, i, attack());
    } else if (ATTACK_INTS[key] !== undefined) {
      attack()[ATTACK_INTS[key]!] = int(key);
    } else if (ATTACK_FLOATS[key] !== undefined) {
      attack()[ATTACK_FLOATS[key]!] = float(key);
    } else if (key === 'Drag') {
      st.drag = { start: null, end: null, time: null, color: null, line: line.no };
      pose().drags = [st.drag];
    } else if (key === 'Time') {
      const target = st.next ?? st.drag ?? fail('bad-order', 'Time outside a NextPose or Drag block');
      target.time = float('Time');
    } else if (key === 'Color') {
      const drag = st.drag ?? fail('bad-order', 'Color outside a Drag block');
      const rgb = (value ?? fail('bad-value', 'Color takes r,g,b, found nothing')).split(',').filter((c) => c !== '');
      if (rgb.length < 3) fail('bad-value', `Color takes r,g,b (no spaces), found ${quote(value!)}`);
      drag.color = rgb.slice(0, 3).map((c) => int32(c) ?? fail('bad-number', `Color: ${describeInt32(c)}`)) as [number, number, number];
    } else if (key === 'NextPose') {
      st.next = { start: null, end: null, time: null, line: line.no };
      pose().nextPoses = [st.next];
    } else if (key === '{}') {
      // `Pose n` then `{}`: an unused slot (a `{}` inside an open block only drops the pose, as in the game).
      if (st.current && st.depth.pose === 0) st.current.empty = true;
      st.current = null;
    } else {
      if (poses.length === 0) fail('unknown-keyword', `expected "Pose <n>", found ${quote(key)}`);
      warnings.push(`line ${line.no}: unknown keyword ${quote(key)}; the game stops reading the pose table there, so ${lines.length - i} more line(s) are ignored`);
      break;
    }
  }
  return { poses, warnings };
}

/**
 * The first two tokens of a line as the game splits it (`Replace("\t", "")`, then `Split(' ')`
 * without empty entries); the rest of the line is never looked at, so only its start is scanned.
 */
function keywordAndValue(raw: string): [string | undefined, string | undefined] {
  const tokens: string[] = [];
  let token = '';
  for (let i = 0; i < raw.length && tokens.length < 2; i++) {
    const c = raw[i]!;
    if (c === ' ') {
      if (token !== '') tokens.push(token);
      token = '';
    } else if (c !== '\t') {
      token += c;
    }
  }
  if (token !== '' && tokens.length < 2) tokens.push(token);
  return [tokens[0], tokens[1]];
}

/** Why a token is no Int32 for `int.Parse`. */
function describeInt32(token: string): string {
  return parseIntStrict(token) === null && !/^[+-]?\d+$/.test(token) ? describeNumber(token, 'integer') : `integer ${quote(token)} is outside the Int32 range`;
}

/** C#'s `int.Parse` of a token: a decimal Int32 (leading zeros and a sign allowed), or `null`. */
function int32(token: string): number | null {
  const v = parseIntStrict(token);
  return v !== null && v >= -0x80000000 && v <= 0x7fffffff ? v : null;
}

/** Which open sub-object a brace belongs to: the first of NextPose, Drag, Attack, segment, else the pose. */
function openKind(st: ParseState): keyof ParseState['depth'] {
  return st.next ? 'next' : st.drag ? 'drag' : st.attack ? 'attack' : st.segment ? 'segment' : 'pose';
}

function close(st: ParseState, kind: keyof ParseState['depth']): void {
  if (kind === 'next') st.next = null;
  else if (kind === 'drag') st.drag = null;
  else if (kind === 'attack') st.attack = null;
  else if (kind === 'segment') st.segment = null;
  else st.current = null;
}

const ATTACK_INTS: Record<string, 'attackType' | 'checkFriend' | 'targetPose' | 'targetPoseFront' | 'targetPoseBack' | 'targetPoseLeft' | 'targetPoseRight'> = {
  AttackType: 'attackType',
  CheckFriend: 'checkFriend',
  TargetPose: 'targetPose',
  TargetPoseFront: 'targetPoseFront',
  TargetPoseBack: 'targetPoseBack',
  TargetPoseLeft: 'targetPoseLeft',
  TargetPoseRight: 'targetPoseRight',
};

const ATTACK_FLOATS: Record<string, 'defenseValue' | 'defenseMove' | 'targetValue' | 'targetMove'> = {
  DefenseValue: 'defenseValue',
  DefenseMove: 'defenseMove',
  TargetValue: 'targetValue',
  TargetMove: 'targetMove',
};

function emptyPose(number: number, line: number): PosPose {
  return {
    number, empty: false, source: null, start: null, end: null, loopStart: null, loopEnd: null, effectType: null,
    effectId: null, link: null, segments: [], attacks: [], drags: [], nextPoses: [], line,
  };
}

function emptyAttack(line: number): PosAttack {
  return {
    bones: [], start: null, end: null, attackType: null, checkFriend: null, defenseValue: null, defenseMove: null, targetValue: null,
    targetMove: null, targetPose: null, targetPoseFront: null, targetPoseBack: null, targetPoseLeft: null, targetPoseRight: null, line,
  };
}

/**
 * `bone = a, "b", …` from line `i` on, exactly as the game reads it: the text after the first
 * `=`, then whole following lines (as written, tabs kept) while the list ends with `,`; a line
 * mentioning `Start`/`start` is passed over instead of appended (the game's guard against a stray
 * trailing comma), and the game then resumes one line before the last one looked at. Each item
 * loses spaces and quotes at its ends; inner spaces become `_`. Returns the index of the line the
 * caller continues after.
 */
function readBones(lines: PosLine[], i: number, attack: PosAttack): number {
  const first = lines[i]!;
  const eq = first.raw.replace(/\t/g, '').split('=').filter((s) => s !== '');
  if (eq.length < 2) throw new FormatError(FORMAT, 'bad-value', { line: first.no }, `expected "bone = name, …", found ${quote(first.raw.trim())}`);
  let list = eq[1]!;
  let skippedStart = false;
  while (list.endsWith(',')) {
    const next = lines[i + 1];
    if (!next) throw new FormatError(FORMAT, 'truncated', { line: first.no }, 'the bone list ends with "," but the file ends');
    i++;
    if (next.raw.includes('Start') || next.raw.includes('start')) skippedStart = true;
    else list += next.raw;
  }
  for (const item of list.split(',')) attack.bones.push(trimSpacesAndQuotes(item).split(' ').join('_'));
  return skippedStart ? i - 1 : i;
}

/** C#'s `TrimStart(' ', '"')` then `TrimEnd('"', ' ')`, by index (a regular expression anchored at the end backtracks). */
function trimSpacesAndQuotes(s: string): string {
  const edge = (c: string) => c === ' ' || c === '"';
  let a = 0;
  let b = s.length;
  while (a < b && edge(s[a]!)) a++;
  while (b > a && edge(s[b - 1]!)) b--;
  return s.slice(a, b);
}
