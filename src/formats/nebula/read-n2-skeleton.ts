import { FormatError, type FormatErrorLocation } from '../../errors.js';
import type { Joint } from '../../anim/index.js';
import { describeNumber, parseFloatStrict, parseIntStrict } from '../text-numbers.js';
import { binaryCommands, isNbinscript, textCommands } from './n2-script.js';

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

/**
 * An `nblendshapeanimator` of a `.n2` scene script: the animation whose curves are morph weights
 * (nBlendShapeAnimator::Animate, trunk/nebula2/code/nebula2/src/scene/nblendshapeanimator_main.cc:
 * curve i of group `group` is the weight of shape i, its x; up to 8 shapes, nblendshapenode_cmds.cc).
 */
export interface N2BlendShapeAnimator {
  /** The animator object's name (`new nblendshapeanimator <name>`). */
  name: string;
  /** The `.setanimation` resource path (e.g. `anims:face.nanim2`); `null` when absent. */
  animation: string | null;
  /** The `.setanimationgroup` (default 0). */
  group: number;
  /** The `nblendshapenode`s whose `.addanimator` names it: node name, shape count (`.setmeshat`) and rest weights (`.setweightat`). */
  targets: { node: string; shapes: number; weights: number[] }[];
}

/**
 * What a Nebula2 `.n2` scene script says about animation (spec nebula.md §1.9): the first
 * `nskinanimator` (its joints, clips or states) and every `nblendshapeanimator`.
 */
export interface N2Skeleton {
  /** In `.setjoint` index order; curves 3j, 3j+1, 3j+2 of a nax2 group drive joint j. Empty without an `nskinanimator`. */
  joints: Joint[];
  /** Clip names by nax2 group index: from `.setclip` (new syntax) or the state names (old syntax). */
  clipNames: Map<number, string>;
  clips: N2Clip[];
  states: N2State[];
  /** The `.setanim` resource path, e.g. `anims:examples/kila.nax2`; `null` when absent. */
  animation: string | null;
  /** The `.setlooptype` value, e.g. `loop`; `null` when absent. */
  loopType: string | null;
  /** The skin animator's object name (`new nskinanimator <name>`); `null` without one. */
  animatorName: string | null;
  /** The script's blend-shape animators, in script order. */
  blendShapeAnimators: N2BlendShapeAnimator[];
}

interface ScriptNode {
  cls: string | null;
  name: string;
  children: Map<string, ScriptNode>;
  parent: ScriptNode | null;
  /** `.addanimator` paths (scene nodes), `.setmeshat` indices and `.setweightat` weights (blend-shape nodes). */
  animators: string[];
  shapes: Set<number>;
  weights: number[];
  /** Blend-shape animators: `.setanimation`, `.setanimationgroup`. */
  animation: string | null;
  group: number;
}

const node = (cls: string | null, name: string, parent: ScriptNode | null): ScriptNode => ({
  cls, name, children: new Map(), parent, animators: [], shapes: new Set(), weights: [], animation: null, group: 0,
});

/**
 * Reads the skeleton, clip names and blend-shape animators from a Nebula2 `.n2` scene script: the
 * text form (nPersistServer with ntclserver; a string, or bytes decoded as UTF-8) or the binary
 * one (bytes starting "0BON", nbinscriptserver; see `binaryCommands`), which give the same
 * commands and so the same result. It follows `new <class> <name>` and `sel <name>` / `sel ..` to
 * find the first `nskinanimator` object and reads its commands (Teivaz/nebula2
 * `nskinanimator_cmds.cc`):
 * - `.beginjoints N`, then N × `.setjoint idx parent tx ty tz qx qy qz qw sx sy sz ["name"]`
 *   (the name argument exists since 2005; without it the joint is `.addjointname idx "name"`'s, or
 *   `joint<idx>`), `.endjoints`;
 * - `.setanim "path"`, `.setlooptype "type"`;
 * - new syntax: `.beginclips N`, `.setclip clipIdx groupIdx "name"`, `.endclips`;
 * - old syntax: `.beginstates N`, `.setstate stateIdx groupIdx fadeIn`, `.setstatename stateIdx
 *   "name"`, `.beginclips stateIdx N`, `.setclip stateIdx clipIdx "weightChannel"`, `.endclips
 *   stateIdx`, `.endstates` (there the state name names the group).
 * Every `nblendshapeanimator` gives an `N2BlendShapeAnimator` (`.setanimation`,
 * `.setanimationgroup`), with the `nblendshapenode`s that `.addanimator` it (the path taken from
 * the node, as nSceneNode::AddAnimator's nDynAutoRef resolves it). Other commands are ignored.
 *
 * Throws `FormatError` (format `n2`, with the 1-based `line`, or the byte `offset` of a binary
 * script) for no `nskinanimator` and no `nblendshapeanimator`, malformed numbers or argument
 * counts, unterminated strings, joint indices out of range or repeated, parents that are not −1 or
 * an earlier joint, joints never set, a missing `.endjoints`, and binary scripts that break off.
 */
export function readN2Skeleton(source: string | Uint8Array): N2Skeleton {
  const binary = typeof source !== 'string' && isNbinscript(source);
  const commands = binary ? binaryCommands(source) : textCommands(typeof source === 'string' ? source : new TextDecoder('utf-8').decode(source));
  const end: FormatErrorLocation = binary ? { offset: source.length } : { line: Math.max(1, commands.at(-1)?.where.line ?? 1) };
  const fail = (where: FormatErrorLocation, code: string, message: string): never => {
    throw new FormatError(FORMAT, code, where, message);
  };
  const root = node(null, '', null);
  let current = root;
  let animator: ScriptNode | null = null;

  let joints: (Joint | undefined)[] | null = null;
  let jointsAt: FormatErrorLocation = end;
  let jointsClosed = false;
  const jointNames = new Map<number, string>();
  const clips: N2Clip[] = [];
  const states: N2State[] = [];
  let animation: string | null = null;
  let loopType: string | null = null;
  let clipSyntax: 'clip' | 'state' | null = null;
  const blendAnimators: ScriptNode[] = [];
  const blendNodes: ScriptNode[] = [];

  for (let ci = 0; ci < commands.length; ci++) {
    const { head, args, where } = commands[ci]!;
    if (head === 'new') {
      if (args.length < 2) fail(where, 'bad-arguments', '"new" takes a class and a name');
      const child = node(args[0]!, args[1]!, current);
      current.children.set(child.name, child);
      if (child.cls === 'nblendshapeanimator') blendAnimators.push(child);
      if (child.cls === 'nblendshapenode') blendNodes.push(child);
      continue;
    }
    if (head === 'sel') {
      if (args.length !== 1) fail(where, 'bad-arguments', '"sel" takes one path');
      current = select(current, args[0]!, root);
      continue;
    }
    if (!head.startsWith('.')) continue;
    const int = (i: number, what: string): number =>
      parseIntStrict(args[i]) ?? fail(where, 'bad-number', `${head} ${what}: ${describeNumber(args[i], 'integer')}`);
    const num = (i: number, what: string): number =>
      parseFloatStrict(args[i]) ?? fail(where, 'bad-number', `${head} ${what}: ${describeNumber(args[i], 'number')}`);
    const argc = (...allowed: number[]): void => {
      if (!allowed.includes(args.length)) fail(where, 'bad-arguments', `${head} takes ${allowed.join(' or ')} arguments, found ${args.length}`);
    };
    // Blend-shape nodes and animators, and any node's animator list (nSceneNode 'ADDA').
    if (head === '.addanimator') {
      argc(1);
      current.animators.push(args[0]!);
      continue;
    }
    if (current.cls === 'nblendshapeanimator') {
      if (head === '.setanimation') {
        argc(1);
        current.animation = args[0]!;
      } else if (head === '.setanimationgroup') {
        argc(1);
        current.group = int(0, 'group');
        if (current.group < 0) fail(where, 'bad-value', `.setanimationgroup ${current.group} is negative`);
      }
      continue;
    }
    if (current.cls === 'nblendshapenode') {
      if (head === '.setmeshat' || head === '.setweightat') {
        argc(2);
        const index = int(0, 'shape index');
        // nBlendShapeNode holds up to 8 shapes (nblendshapenode_cmds.cc).
        if (index < 0 || index >= 8) fail(where, 'bad-value', `${head}: shape index ${index} is outside 0..7`);
        if (head === '.setmeshat') current.shapes.add(index);
        else current.weights[index] = num(1, 'weight');
      }
      continue;
    }
    if (current.cls !== 'nskinanimator') continue;
    if (animator === null) animator = current;
    if (current !== animator) continue; // only the first skin animator

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
        if (joints !== null) fail(where, 'bad-order', `a second .beginjoints (the first is at ${describeAt(jointsAt)})`);
        const n = int(0, 'joint count');
        // Each joint needs its own .setjoint command: a count beyond the commands left cannot be right.
        const left = commands.length - ci - 1;
        if (n < 0 || n > left) fail(where, 'bad-count', `joint count ${n} does not fit the ${left} commands that follow`);
        joints = new Array<Joint | undefined>(n).fill(undefined);
        jointsAt = where;
        break;
      }
      case '.setjoint': {
        if (joints === null || jointsClosed) fail(where, 'bad-order', '.setjoint outside .beginjoints … .endjoints');
        argc(12, 13);
        const index = int(0, 'joint index');
        const parent = int(1, 'parent index');
        if (index < 0 || index >= joints!.length) fail(where, 'bad-value', `joint index ${index} is outside 0..${joints!.length - 1}`);
        if (joints![index]) fail(where, 'bad-value', `joint ${index} is set twice`);
        if (parent < -1 || parent >= index) fail(where, 'bad-value', `joint ${index}: parent ${parent} must be −1 or an earlier joint`);
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
        if (joints === null || jointsClosed) fail(where, 'bad-order', '.endjoints without .beginjoints');
        const missing = joints!.findIndex((j) => j === undefined);
        if (missing >= 0) fail(where, 'bad-count', `.beginjoints ${joints!.length} at ${describeAt(jointsAt)} but joint ${missing} was never set`);
        jointsClosed = true;
        break;
      }
      case '.addjointname': {
        // Joint names of the 2003–2004 SDK, where .setjoint has none (nskinanimator_cmds.cc 'ADJN').
        argc(2);
        const index = int(0, 'joint index');
        if (index < 0 || index > commands.length) fail(where, 'bad-value', `joint index ${index} is out of range`);
        jointNames.set(index, args[1]!);
        break;
      }
      case '.setstate': {
        argc(3);
        const index = int(0, 'state index');
        const state = stateAt(index, where);
        state.group = int(1, 'anim group index');
        state.fadeIn = num(2, 'fade-in time');
        break;
      }
      case '.setstatename':
        argc(2);
        stateAt(int(0, 'state index'), where).name = args[1]!;
        break;
      case '.setclip': {
        argc(3);
        const a = int(0, 'first index');
        const b = int(1, 'second index');
        if (a < 0 || b < 0) fail(where, 'bad-value', '.setclip indices must be >= 0');
        if (clipSyntax === 'state' || (clipSyntax === null && states.some((s) => s.index === a))) {
          if (b > commands.length) fail(where, 'bad-value', `clip index ${b} is out of range`);
          stateAt(a, where).weightChannels[b] = args[2]!; // old syntax: state, clip, weight channel
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

  if (animator === null && blendAnimators.length === 0) fail(end, 'no-skinanimator', 'no "new nskinanimator" or "new nblendshapeanimator" object with commands found');
  if (animator !== null && joints === null) fail(end, 'no-joints', 'the nskinanimator has no .beginjoints');
  if (joints !== null && !jointsClosed) fail(end, 'bad-order', `.beginjoints at ${describeAt(jointsAt)} is never closed by .endjoints`);

  const named = (joints ?? []).map((j, i) => (j!.name === `joint${i}` && jointNames.has(i) ? { ...j!, name: jointNames.get(i)! } : j!));
  const clipNames = new Map<number, string>();
  for (const s of states) if (s.name !== null && !clipNames.has(s.group)) clipNames.set(s.group, s.name);
  for (const c of clips) if (!clipNames.has(c.group)) clipNames.set(c.group, c.name);
  // Each node's animator paths are resolved once (linear in the script, whatever the counts).
  const targets = new Map<ScriptNode, N2BlendShapeAnimator['targets']>();
  for (const n of blendNodes) {
    const shapes = n.shapes.size === 0 ? 0 : Math.max(...n.shapes) + 1;
    for (const path of new Set(n.animators)) {
      const a = select(n, path, root);
      if (a.cls === 'nblendshapeanimator') targets.set(a, [...(targets.get(a) ?? []), { node: n.name, shapes, weights: Array.from({ length: shapes }, (_, i) => n.weights[i] ?? 0) }]);
    }
  }
  const blendShapeAnimators = blendAnimators.map((a) => ({ name: a.name, animation: a.animation, group: a.group, targets: targets.get(a) ?? [] }));
  return { joints: named, clipNames, clips, states, animation, loopType, animatorName: animator?.name ?? null, blendShapeAnimators };

  function stateAt(index: number, where: FormatErrorLocation): N2State {
    if (index < 0 || index > commands.length) fail(where, 'bad-value', `state index ${index} is out of range`);
    let s = states.find((x) => x.index === index);
    if (!s) {
      s = { index, group: index, fadeIn: 0, name: null, weightChannels: [] };
      states.push(s);
    }
    return s;
  }
}

/** "line 12" or "byte 340": where a command is, for messages that name another command. */
function describeAt(where: FormatErrorLocation): string {
  return where.line !== undefined ? `line ${where.line}` : `byte ${where.offset}`;
}

/** Follows a `sel` path (`..`, names, `/`-separated); unknown names become untyped nodes. */
function select(from: ScriptNode, path: string, root: ScriptNode): ScriptNode {
  let at = path.startsWith('/') ? root : from;
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      at = at.parent ?? at;
      continue;
    }
    let child = at.children.get(part);
    if (!child) {
      child = node(null, part, at);
      at.children.set(part, child);
    }
    at = child;
  }
  return at;
}
