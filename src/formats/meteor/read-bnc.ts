import { LineCursor, type TextLine } from './text-lines.js';
import { quote } from '../text.js';

/** A reference to a `.bnc` node: a bone or dummy by its index among its kind. */
export interface BncRef {
  kind: 'bone' | 'dummy';
  index: number;
}

/** One `bone` or `Dummey` block of a `.bnc` file (spec meteor.md §4). */
export interface BncNode {
  kind: 'bone' | 'dummy';
  name: string;
  /** The `parent` value as written: a name, `b<i>`, `d<i>` or `NULL`. */
  parentRef: string;
  /** The resolved parent, or `null` for `NULL`. */
  parent: BncRef | null;
  /** Local translation relative to the parent, file space (Z-up, right-handed). */
  pivot: [number, number, number];
  /** Local bind rotation as stored: w, x, y, z. */
  quaternion: [number, number, number, number];
  /** `children` (bones only; informational), or `null` when absent. */
  children: number | null;
  /** 1-based line of the block's keyword. */
  line: number;
}

/** A `.bnc` skeleton: bones first (the `.amb`/`.skc` bone order), then dummies (the `.amb` dummy order). */
export interface BncDocument {
  /** The `Bones:` count of the header. */
  boneCount: number;
  /** The `Dummey:` count of the header. */
  dummyCount: number;
  bones: BncNode[];
  dummies: BncNode[];
}

/**
 * Reads a `.bnc` skeleton (spec meteor.md §4): `#` comments, `Bones: B Dummey: D`, then B `bone`
 * blocks and D `Dummey` blocks with `parent`, `pivot`, `quaternion` (w x y z) and, for bones,
 * `children`. Parents resolve as the game does (BNCLoader.cs `GetNode`): by name first, then
 * `b<i>` / `d<i>` (0-based index among bones / dummies); `NULL` is a root.
 * @throws FormatError (format `bnc`, with the line) for a missing header, missing braces, unknown
 *   or repeated keywords, bad numbers, counts that differ from the header, bones after dummies,
 *   duplicate names, unknown parents and cycles in the hierarchy
 */
export function readBnc(bytes: Uint8Array): BncDocument {
  const c = LineCursor.of('bnc', bytes);
  const header = c.next('the "Bones: <n> Dummey: <n>" header');
  const t = header.tokens;
  if (t.length !== 4 || t[0] !== 'Bones:' || t[2] !== 'Dummey:') {
    c.fail('bad-header', header.no, `expected "Bones: <n> Dummey: <n>", found ${quote(header.text)}`);
  }
  const boneCount = c.int(t[1], header, 'bone count');
  const dummyCount = c.int(t[3], header, 'dummy count');
  const bones: BncNode[] = [];
  const dummies: BncNode[] = [];
  while (!c.done) {
    const line = c.next('a block');
    const keyword = line.tokens[0];
    if (keyword !== 'bone' && keyword !== 'Dummey') {
      c.fail('unknown-keyword', line.no, `expected "bone <name>" or "Dummey <name>", found ${quote(line.text)}`);
    }
    const name = c.values(line, 1)[0]!;
    if (keyword === 'bone' && dummies.length > 0) c.fail('bad-order', line.no, `bone ${quote(name)} follows a dummy; bones come first`);
    (keyword === 'bone' ? bones : dummies).push(readNode(c, line, keyword === 'bone' ? 'bone' : 'dummy', name));
  }
  if (bones.length !== boneCount || dummies.length !== dummyCount) {
    c.fail('count-mismatch', header.no, `header says ${boneCount} bones and ${dummyCount} dummies, the file has ${bones.length} and ${dummies.length}`);
  }
  resolveParents(c, bones, dummies);
  return { boneCount, dummyCount, bones, dummies };
}

function readNode(c: LineCursor, head: TextLine, kind: 'bone' | 'dummy', name: string): BncNode {
  c.open(`${kind} ${quote(name)}`);
  const seen = new Map<string, TextLine>();
  for (;;) {
    const line = c.next(`'}' closing ${kind} ${quote(name)}`);
    const key = line.tokens[0]!;
    if (key === '}') {
      if (line.tokens.length !== 1) c.fail('bad-value', line.no, `expected '}', found ${quote(line.text)}`);
      break;
    }
    if (key !== 'parent' && key !== 'pivot' && key !== 'quaternion' && !(key === 'children' && kind === 'bone')) {
      c.fail('unknown-keyword', line.no, `unknown keyword ${quote(key)} in ${kind} ${quote(name)} (missing '}'?)`);
    }
    if (seen.has(key)) c.fail('duplicate-keyword', line.no, `${quote(key)} given twice in ${kind} ${quote(name)}`);
    seen.set(key, line);
  }
  const need = (key: string): TextLine => seen.get(key) ?? c.fail('missing-keyword', head.no, `${kind} ${quote(name)} has no ${quote(key)}`);
  const children = seen.get('children');
  return {
    kind,
    name,
    parentRef: c.values(need('parent'), 1)[0]!,
    parent: null,
    pivot: c.floats(need('pivot'), 3) as [number, number, number],
    quaternion: c.floats(need('quaternion'), 4) as [number, number, number, number],
    children: children ? c.int(c.values(children, 1)[0], children, 'children') : null,
    line: head.no,
  };
}

/** Resolves every `parentRef` (name first, then `b<i>`/`d<i>`), then rejects cycles. */
function resolveParents(c: LineCursor, bones: BncNode[], dummies: BncNode[]): void {
  const all = [...bones, ...dummies];
  const byName = new Map<string, BncRef>();
  for (const [kind, list] of [['bone', bones], ['dummy', dummies]] as const) {
    list.forEach((n, index) => {
      if (byName.has(n.name)) c.fail('duplicate-name', n.line, `a second node is named ${quote(n.name)}`);
      byName.set(n.name, { kind, index });
    });
  }
  for (const n of all) {
    if (n.parentRef === 'NULL') continue;
    const m = /^([bd])(\d+)$/.exec(n.parentRef);
    const byIndex: BncRef | undefined = m ? { kind: m[1] === 'b' ? 'bone' : 'dummy', index: Number(m[2]) } : undefined;
    const ref = byName.get(n.parentRef) ?? byIndex;
    if (!ref || ref.index >= (ref.kind === 'bone' ? bones : dummies).length) {
      c.fail('unknown-parent', n.line, `${n.kind} ${quote(n.name)}: parent ${quote(n.parentRef)} is not a bone or dummy of this file`);
    }
    n.parent = ref;
  }
  const node = (r: BncRef) => (r.kind === 'bone' ? bones : dummies)[r.index]!;
  for (const n of all) {
    let p = n.parent;
    for (let steps = 0; p; steps++) {
      if (steps >= all.length) c.fail('cycle', n.line, `${n.kind} ${quote(n.name)} is its own ancestor (a cycle in the hierarchy)`);
      p = node(p).parent;
    }
  }
}
