import { LineCursor, type TextLine } from './text-lines.js';
import { quote } from '../text.js';

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

/** One `Pose n` of a `.pos` file. Fields absent from the block are `null` (the game reads them as 0). */
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
}

type Block = 'pose' | 'segment' | 'attack' | 'drag' | 'nextpose';

/** Keywords per block, lower-cased (the game's spellings vary in case, §6.1). */
const KEYS: Record<Block, readonly string[]> = {
  pose: ['source', 'start', 'end', 'loopstart', 'loopend', 'effecttype', 'effectid', 'link', 'blend', 'action', 'attack', 'drag', 'nextpose'],
  segment: ['start', 'end', 'speed'],
  attack: [
    'bone', 'start', 'end', 'attacktype', 'checkfriend', 'defensevalue', 'defensemove', 'targetvalue', 'targetmove',
    'targetpose', 'targetposefront', 'targetposeback', 'targetposeleft', 'targetposeright',
  ],
  drag: ['start', 'end', 'time', 'color'],
  nextpose: ['start', 'end', 'time'],
};

const camel: Record<string, string> = {
  loopstart: 'loopStart', loopend: 'loopEnd', effecttype: 'effectType', attacktype: 'attackType', checkfriend: 'checkFriend',
  defensevalue: 'defenseValue', defensemove: 'defenseMove', targetvalue: 'targetValue', targetmove: 'targetMove',
  targetpose: 'targetPose', targetposefront: 'targetPoseFront', targetposeback: 'targetPoseBack',
  targetposeleft: 'targetPoseLeft', targetposeright: 'targetPoseRight',
};

const FLOAT_KEYS = new Set(['speed', 'time', 'defensevalue', 'defensemove', 'targetvalue', 'targetmove']);

/**
 * Reads a `P<N>.pos` clip table (spec meteor.md §6.1, the grammar of PoseStatus.cs
 * `ActionManager.Parse`): `Pose n` followed by a `{ … }` block or `{}`; in a pose `source`,
 * `Start`/`End`, `LoopStart`/`LoopEnd`, `EffectType`, `EffectID`, `link`, and the sub-blocks
 * `Blend`/`Action` (`start end speed`), `Attack` (a `bone = "a", "b", …` list that continues
 * while a line ends with `,`, plus the numbers of §6.1), `Drag` (`Start End Time Color r,g,b`) and
 * `NextPose` (`start end Time`). `Start`/`End`/`Time` belong to the innermost open block.
 * Keywords match case-insensitively; numbers may have leading zeros; `#` comments in any encoding
 * are ignored.
 * @throws FormatError (format `pos`, with the line) for unknown keywords, missing or extra braces,
 *   bad numbers, a `Blend`/`Action` without `start` or `end` or with a negative speed, a keyword
 *   given twice in one block, and a repeated pose number
 */
export function readPos(bytes: Uint8Array): PosDocument {
  const c = LineCursor.of('pos', bytes);
  const poses: PosPose[] = [];
  const numbers = new Set<number>();
  while (!c.done) {
    const line = c.next('a pose');
    if (line.tokens[0]!.toLowerCase() !== 'pose' || line.tokens.length < 2) {
      c.fail('unknown-keyword', line.no, `expected "Pose <n>", found ${quote(line.text)}`);
    }
    const number = c.int(line.tokens[1], line, 'pose number');
    if (numbers.has(number)) c.fail('duplicate-pose', line.no, `Pose ${number} is defined twice`);
    numbers.add(number);
    const rest = line.tokens.slice(2).join('');
    if (rest !== '' && rest !== '{}' && rest !== '{') c.fail('bad-value', line.no, `unexpected ${quote(rest)} after Pose ${number}`);
    const pose = emptyPose(number, line.no);
    const braceLine = rest !== '' ? line : c.next(`'{' after Pose ${number}`);
    const brace = rest !== '' ? rest : braceLine.text;
    if (brace === '{}') pose.empty = true;
    else if (brace === '{') readBlock(c, 'pose', `Pose ${number}`, pose, pose);
    else c.fail('expected-brace', braceLine.no, `expected '{' or '{}' after Pose ${number}, found ${quote(brace)}`);
    poses.push(pose);
  }
  return { poses };
}

function emptyPose(number: number, line: number): PosPose {
  return {
    number, empty: false, source: null, start: null, end: null, loopStart: null, loopEnd: null, effectType: null,
    effectId: null, link: null, segments: [], attacks: [], drags: [], nextPoses: [], line,
  };
}

/** Reads the lines of one block up to its `}` into `target` (fields by camel-cased keyword). */
function readBlock(c: LineCursor, block: Block, owner: string, target: object, pose: PosPose): void {
  const fields = target as Record<string, unknown>;
  const seen = new Set<string>();
  for (;;) {
    const line = c.next(`'}' closing ${owner}`);
    if (line.text === '}') return;
    const raw = line.tokens[0]!;
    const key = raw.toLowerCase();
    if (!KEYS[block].includes(key)) c.fail('unknown-keyword', line.no, `unknown keyword ${quote(raw)} in ${owner}`);
    if (seen.has(key)) c.fail('duplicate-keyword', line.no, `${quote(raw)} given twice in ${owner}`);
    if (key === 'blend' || key === 'action' || key === 'attack' || key === 'drag' || key === 'nextpose') {
      c.values(line, 0);
      c.open(`${raw} in ${owner}`);
      readSubBlock(c, key, `${raw} (line ${line.no})`, line, pose);
      continue;
    }
    seen.add(key);
    if (key === 'bone') fields.bones = readBoneList(c, line);
    else if (key === 'color') fields.color = readColor(c, line);
    else if (key === 'effectid') fields.effectId = c.values(line, 1)[0];
    else {
      const v = c.values(line, 1)[0];
      fields[camel[key] ?? key] = FLOAT_KEYS.has(key) ? c.float(v, line, raw) : c.int(v, line, raw);
    }
  }
}

function readSubBlock(c: LineCursor, key: 'blend' | 'action' | 'attack' | 'drag' | 'nextpose', owner: string, line: TextLine, pose: PosPose): void {
  const base = { start: null, end: null, line: line.no };
  switch (key) {
    case 'blend':
    case 'action': {
      const s = { kind: key, ...base, speed: 1 } as Omit<PosSegment, 'start' | 'end'> & { start: number | null; end: number | null };
      readBlock(c, 'segment', owner, s, pose);
      if (s.start === null || s.end === null) c.fail('missing-keyword', line.no, `${owner} needs both start and end`);
      // A speed scales the time into each frame (§7.1); below 0 the clip would run backwards.
      if (s.speed < 0) c.fail('bad-value', line.no, `${owner} speed ${s.speed} is negative; expected a speed > 0 (0 plays at 1)`);
      pose.segments.push(s as PosSegment);
      return;
    }
    case 'attack': {
      const a: PosAttack = {
        bones: [], ...base, attackType: null, checkFriend: null, defenseValue: null, defenseMove: null, targetValue: null,
        targetMove: null, targetPose: null, targetPoseFront: null, targetPoseBack: null, targetPoseLeft: null, targetPoseRight: null,
      };
      readBlock(c, 'attack', owner, a, pose);
      pose.attacks.push(a);
      return;
    }
    case 'drag': {
      const d: PosDrag = { ...base, time: null, color: null };
      readBlock(c, 'drag', owner, d, pose);
      pose.drags.push(d);
      return;
    }
    case 'nextpose': {
      const n: PosNextPose = { ...base, time: null };
      readBlock(c, 'nextpose', owner, n, pose);
      pose.nextPoses.push(n);
    }
  }
}

/**
 * `bone = "a", "b",` continued on following lines while a line ends with `,` and the next line
 * starts with a quoted name.
 */
function readBoneList(c: LineCursor, first: TextLine): string[] {
  let text = first.text.slice(first.tokens[0]!.length).trim();
  if (!text.startsWith('=')) c.fail('bad-value', first.no, `expected "bone = \\"name\\", …", found ${quote(first.text)}`);
  text = text.slice(1);
  const names: string[] = [];
  let line = first;
  for (;;) {
    const items = text.split(',').map((s) => s.trim());
    const continues = items[items.length - 1] === '';
    if (continues) items.pop();
    for (const item of items) {
      const m = /^"([^"]*)"$/.exec(item);
      if (!m) c.fail('bad-value', line.no, `expected a quoted bone name, found ${quote(item)}`);
      names.push(m[1]!.replace(/ /g, '_'));
    }
    // A stray trailing comma before the next keyword ends the list (the game's guard, §6.1).
    if (!continues || !c.peek()?.text.startsWith('"')) return names;
    line = c.next('the rest of the bone list');
    text = line.text;
  }
}

/** `Color r,g,b` (commas and/or spaces between the three 0–255 values). */
function readColor(c: LineCursor, line: TextLine): [number, number, number] {
  const parts = line.tokens.slice(1).join(',').split(',').filter((s) => s !== '');
  if (parts.length !== 3) c.fail('bad-value', line.no, `Color takes r,g,b, found ${quote(line.text)}`);
  return parts.map((p) => c.int(p, line, 'Color')) as [number, number, number];
}
