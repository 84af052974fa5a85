import { FormatError } from '../../errors.js';
import type { Joint } from '../../anim/index.js';
import { describeNumber, parseFloatStrict, parseIntStrict } from '../text-numbers.js';
import { splitLines } from '../text.js';

const FORMAT = 'n2';

/** An N2 animation state (old `nskinanimator` syntax, 2003–2005; e.g. eagle.n2). */
export interface N2State {
  index: number;
  /** The nax2 group this state plays. */
  group: number;
  /** Seconds. */
  fadeIn: number;
  /** From `.setstatename`; `null` when absent. */
  name: string | null;
  /** Weight channel names from `.setclip stateIdx clipIdx "channel"`, by clip index. */
  weightChannels: string[];
}

/** A clip of the newer syntax: `.setclip clipIdx groupIdx "name"` (2006+; e.g. kila.n2). */
export interface N2Clip {
  index: number;
  group: number;
  name: string;
}

/** What the first `nskinanimator` block of a Nebula2 `.n2` scene script says (spec nebula.md §1.9). */
export interface N2Skeleton {
  /** In `.setjoint` index order; curves 3j, 3j+1, 3j+2 of a nax2 group drive joint j. */
  joints: Joint[];
  /** Clip names by nax2 group index: from `.setclip` (new syntax) or the state names (old syntax). */
  clipNames: Map<number, string>;
  clips: N2Clip[];
  states: N2State[];
  /** The `.setanim` resource path, e.g. `anims:examples/kila.nax2`; `null` when absent. */
  animation: string | null;
  /** The `.setlooptype` value, e.g. `loop`; `null` when absent. */
  loopType: string | null;
  /** The animator's object name (`new nskinanimator <name>`). */
  animatorName: string;
}

interface ScriptNode {
  cls: string | null;
  name: string;
  children: Map<string, ScriptNode>;
  parent: ScriptNode | null;
}

/**
 * Reads the skeleton and clip names from a Nebula2 `.n2` scene script (the text TCL form written
 * by nPersistServer; binary "0BON" nbinscript files are refused). It follows `new <class> <name>`
 * and `sel <name>` / `sel ..` to find the first `nskinanimator` object and reads its commands
 * (Teivaz/nebula2 `nskinanimator_cmds.cc`):
 * - `.beginjoints N`, then N × `.setjoint idx parent tx ty tz qx qy qz qw sx sy sz ["name"]`
 *   (the name argument exists since 2005; without it the joint is called `joint<idx>`), `.endjoints`;
 * - `.setanim "path"`, `.setlooptype "type"`;
 * - new syntax: `.beginclips N`, `.setclip clipIdx groupIdx "name"`, `.endclips`;
 * - old syntax: `.beginstates N`, `.setstate stateIdx groupIdx fadeIn`, `.setstatename stateIdx
 *   "name"`, `.beginclips stateIdx N`, `.setclip stateIdx clipIdx "weightChannel"`, `.endclips
 *   stateIdx`, `.endstates` (there the state name names the group).
 * Other commands are ignored.
 *
 * Throws `FormatError` (format `n2`, with the 1-based `line`) for binary scripts, no
 * `nskinanimator`, malformed numbers or argument counts, unterminated strings, joint indices out of
 * range or repeated, parents that are not −1 or an earlier joint, joints never set, or a missing
 * `.endjoints`.
 */
export function readN2Skeleton(text: string): N2Skeleton {
  if (/^(0BON|NOB0)/.test(text)) {
    throw new FormatError(FORMAT, 'unsupported-variant', { line: 1 }, 'this is a binary nbinscript ("0BON") .n2 file; only the text form is supported');
  }
  const lines = splitLines(text);
  const fail = (line: number, code: string, message: string): never => {
    throw new FormatError(FORMAT, code, { line }, message);
  };
  const root: ScriptNode = { cls: null, name: '', children: new Map(), parent: null };
  let current = root;
  let animator: ScriptNode | null = null;

  let joints: (Joint | undefined)[] | null = null;
  let jointsLine = 0;
  let jointsClosed = false;
  const clips: N2Clip[] = [];
  const states: N2State[] = [];
  let animation: string | null = null;
  let loopType: string | null = null;
  let clipSyntax: 'clip' | 'state' | null = null;

  for (let li = 0; li < lines.length; li++) {
    const line = li + 1;
    const tokens = tokenize(lines[li]!, line);
    if (tokens.length === 0) continue;
    const [head, ...args] = tokens as [string, ...string[]];
    if (head === 'new') {
      if (args.length < 2) fail(line, 'bad-arguments', '"new" takes a class and a name');
      const node: ScriptNode = { cls: args[0]!, name: args[1]!, children: new Map(), parent: current };
      current.children.set(node.name, node);
      continue;
    }
    if (head === 'sel') {
      if (args.length !== 1) fail(line, 'bad-arguments', '"sel" takes one path');
      current = select(current, args[0]!, root);
      continue;
    }
    if (!head.startsWith('.') || current.cls !== 'nskinanimator') continue;
    if (animator === null) animator = current;
    if (current !== animator) continue; // only the first skin animator

    const int = (i: number, what: string): number =>
      parseIntStrict(args[i]) ?? fail(line, 'bad-number', `${head} ${what}: ${describeNumber(args[i], 'integer')}`);
    const num = (i: number, what: string): number =>
      parseFloatStrict(args[i]) ?? fail(line, 'bad-number', `${head} ${what}: ${describeNumber(args[i], 'number')}`);
    const argc = (...allowed: number[]): void => {
      if (!allowed.includes(args.length)) fail(line, 'bad-arguments', `${head} takes ${allowed.join(' or ')} arguments, found ${args.length}`);
    };

    switch (head) {
      case '.setanim':
        argc(1);
        animation = args[0]!;
        break;
      case '.setlooptype':
        argc(1);
        loopType = args[0]!;
        break;
      case '.beginjoints': {
        argc(1);
        if (joints !== null) fail(line, 'bad-order', `a second .beginjoints (the first is on line ${jointsLine})`);
        const n = int(0, 'joint count');
        // Each joint needs its own .setjoint line: a count beyond the lines left cannot be right.
        if (n < 0 || n > lines.length - line) fail(line, 'bad-count', `joint count ${n} does not fit the ${lines.length - line} lines that follow`);
        joints = new Array<Joint | undefined>(n).fill(undefined);
        jointsLine = line;
        break;
      }
      case '.setjoint': {
        if (joints === null || jointsClosed) fail(line, 'bad-order', '.setjoint outside .beginjoints … .endjoints');
        argc(12, 13);
        const index = int(0, 'joint index');
        const parent = int(1, 'parent index');
        if (index < 0 || index >= joints!.length) fail(line, 'bad-value', `joint index ${index} is outside 0..${joints!.length - 1}`);
        if (joints![index]) fail(line, 'bad-value', `joint ${index} is set twice`);
        if (parent < -1 || parent >= index) fail(line, 'bad-value', `joint ${index}: parent ${parent} must be −1 or an earlier joint`);
        const v = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => num(i, `value ${i - 1}`));
        joints![index] = {
          name: args[12] ?? `joint${index}`,
          parent,
          rest: {
            translation: [v[0]!, v[1]!, v[2]!],
            rotation: [v[3]!, v[4]!, v[5]!, v[6]!],
            scale: [v[7]!, v[8]!, v[9]!],
          },
        };
        break;
      }
      case '.endjoints': {
        argc(0);
        if (joints === null || jointsClosed) fail(line, 'bad-order', '.endjoints without .beginjoints');
        const missing = joints!.findIndex((j) => j === undefined);
        if (missing >= 0) fail(line, 'bad-count', `.beginjoints ${joints!.length} on line ${jointsLine} but joint ${missing} was never set`);
        jointsClosed = true;
        break;
      }
      case '.setstate': {
        argc(3);
        const index = int(0, 'state index');
        const state = stateAt(index, line);
        state.group = int(1, 'anim group index');
        state.fadeIn = num(2, 'fade-in time');
        break;
      }
      case '.setstatename':
        argc(2);
        stateAt(int(0, 'state index'), line).name = args[1]!;
        break;
      case '.setclip': {
        argc(3);
        const a = int(0, 'first index');
        const b = int(1, 'second index');
        if (a < 0 || b < 0) fail(line, 'bad-value', '.setclip indices must be >= 0');
        if (clipSyntax === 'state' || (clipSyntax === null && states.some((s) => s.index === a))) {
          if (b > lines.length) fail(line, 'bad-value', `clip index ${b} is out of range`);
          stateAt(a, line).weightChannels[b] = args[2]!; // old syntax: state, clip, weight channel
        } else {
          clips.push({ index: a, group: b, name: args[2]! }); // new syntax: clip, group, name
        }
        break;
      }
      case '.beginclips':
        // `.beginclips N` (new syntax) or `.beginclips stateIdx N` (old syntax).
        argc(1, 2);
        clipSyntax = args.length === 2 ? 'state' : 'clip';
        break;
      default:
        break; // .endclips/.beginstates/.endstates/.setchannel/... carry nothing we keep
    }
  }

  const end = Math.max(1, lines.length);
  if (animator === null) fail(end, 'no-skinanimator', 'no "new nskinanimator" object with commands found');
  if (joints === null) fail(end, 'no-joints', 'the nskinanimator has no .beginjoints');
  if (!jointsClosed) fail(end, 'bad-order', `.beginjoints on line ${jointsLine} is never closed by .endjoints`);

  const clipNames = new Map<number, string>();
  for (const s of states) if (s.name !== null && !clipNames.has(s.group)) clipNames.set(s.group, s.name);
  for (const c of clips) if (!clipNames.has(c.group)) clipNames.set(c.group, c.name);
  return { joints: joints as Joint[], clipNames, clips, states, animation, loopType, animatorName: animator!.name };

  function stateAt(index: number, line: number): N2State {
    if (index < 0 || index > lines.length) fail(line, 'bad-value', `state index ${index} is out of range`);
    let s = states.find((x) => x.index === index);
    if (!s) {
      s = { index, group: index, fadeIn: 0, name: null, weightChannels: [] };
      states.push(s);
    }
    return s;
  }
}

/** Follows a `sel` path (`..`, names, `/`-separated); unknown names become untyped nodes. */
function select(from: ScriptNode, path: string, root: ScriptNode): ScriptNode {
  let node = path.startsWith('/') ? root : from;
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      node = node.parent ?? node;
      continue;
    }
    let child = node.children.get(part);
    if (!child) {
      child = { cls: null, name: part, children: new Map(), parent: node };
      node.children.set(part, child);
    }
    node = child;
  }
  return node;
}

/** Splits a script line into words and "quoted strings" (with \" and \\ escapes); `#` starts a comment. */
function tokenize(text: string, line: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
    } else if (ch === '#' && out.length === 0) {
      break;
    } else if (ch === '"') {
      let s = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new FormatError(FORMAT, 'bad-string', { line }, 'unterminated "string"');
        const c = text[i]!;
        if (c === '\\' && i + 1 < text.length) {
          s += text[i + 1];
          i += 2;
        } else if (c === '"') {
          i++;
          break;
        } else {
          s += c;
          i++;
        }
      }
      out.push(s);
    } else {
      let j = i;
      while (j < text.length && text[j] !== ' ' && text[j] !== '\t') j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out;
}
