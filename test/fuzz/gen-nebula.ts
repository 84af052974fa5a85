// Generators of valid Nebula files (spec nebula.md §1–§2): .nax2 layouts A, B and C, .nanim2,
// .nax3 in both byte orders, and the .n2 / .constants skeletons that name their joints.
import { type Field, FieldWriter } from './fields.js';
import { type FuzzFile, type Generator, num, type Params, textFile } from './input.js';

const KEY_TIMES = [0.04, 1 / 30, 0.1, 0.0166667, 0.5];
const KEY_TIME_EXTREMES = [0, 1e-30, 0.0004, 0.0005, 1e6, 3.4e38, -0.04];
const COUNT_EXTREMES = [0, 1, 255, 256, 65535];

/** One group/clip of generated curves: 3 (T, R, S) or 4 (T, R, S, V) per joint, some static. */
interface CurveSpec {
  /** `weight`: a blend-shape weight (value in x) of an nblendshapeanimator's animation. */
  kind: 'translation' | 'rotation' | 'scale' | 'velocity' | 'weight';
  animated: boolean;
  /** Key values (4 per key), or the static value. */
  values: number[][];
}

function curveValue(p: Params, kind: CurveSpec['kind']): number[] {
  if (kind === 'rotation') return p.quaternion();
  if (kind === 'weight') return [p.real(0, 1, [0, 1, -1, 2], 4), 0, 0, 0];
  if (kind === 'scale') return [p.real(0.5, 2, undefined, 4), p.real(0.5, 2, undefined, 4), p.real(0.5, 2, undefined, 4), 0];
  return [p.real(-10, 10, undefined, 4), p.real(-10, 10, undefined, 4), p.real(-10, 10, undefined, 4), 0];
}

function curves(p: Params, joints: number, keys: number, kinds: readonly CurveSpec['kind'][]): CurveSpec[] {
  const out: CurveSpec[] = [];
  for (let j = 0; j < joints; j++) {
    for (const kind of kinds) {
      const animated = keys > 0 && p.rng.chance(0.6);
      out.push({ kind, animated, values: Array.from({ length: animated ? keys : 1 }, () => curveValue(p, kind)) });
    }
  }
  return out;
}

interface Nax2Group {
  keys: number;
  keyTime: number;
  loop: number;
  curves: CurveSpec[];
}

function nax2Groups(p: Params, joints: number, kinds: readonly CurveSpec['kind'][] = ['translation', 'rotation', 'scale']): Nax2Group[] {
  const n = p.int(1, 3, [0]);
  return Array.from({ length: n }, () => {
    const keys = p.int(1, 6, [0, 1, 300]);
    return {
      keys,
      keyTime: p.pick(KEY_TIMES, KEY_TIME_EXTREMES),
      loop: p.int(0, 1, [2, -1]),
      curves: curves(p, joints, keys, kinds),
    };
  });
}

const IPOL: Record<CurveSpec['kind'], number> = { translation: 3, rotation: 2, scale: 3, velocity: 3, weight: 3 };

/** A `.nax2` (layout A, B or C): groups, curves with interleaved keys (stride = animated curves), the pool. */
function nax2Bytes(p: Params, layout: 'A' | 'B' | 'C', joints: number, kinds?: readonly CurveSpec['kind'][]): { bytes: Uint8Array; fields: Field[] } {
  const groups = nax2Groups(p, joints, kinds);
  const w = new FieldWriter(true);
  w.text(layout === 'C' ? '3XAN' : '2XAN');
  const pool: number[][] = [];
  const firsts: number[][] = [];
  for (const g of groups) {
    const animated = g.curves.filter((c) => c.animated);
    const base = pool.length;
    for (let k = 0; k < g.keys; k++) for (const c of animated) pool.push(c.values[k]!);
    let a = 0;
    firsts.push(g.curves.map((c) => (c.animated ? base + a++ : -1)));
  }
  w.i32(groups.length, 'count');
  w.i32(pool.length, 'count');
  groups.forEach((g) => {
    w.i32(g.curves.length, 'count');
    w.i32(0, 'index');
    w.i32(g.keys, 'count');
    w.i32(g.curves.filter((c) => c.animated).length, 'index');
    w.f32(g.keyTime, 'time');
    if (layout !== 'A') w.f32(0, 'value');
    w.i32(g.loop, 'flag');
    if (layout === 'C') w.text(p.rng.chance(0.5) ? 'meta' : '', 512);
  });
  groups.forEach((g, gi) => {
    g.curves.forEach((c, i) => {
      if (layout === 'A') w.i16(c.animated ? IPOL[c.kind] : 0, 'flag');
      else w.i32(c.animated ? IPOL[c.kind] : 0, 'flag');
      w.i32(firsts[gi]![i]!, 'index');
      if (layout !== 'A') w.i32(c.animated ? 1 : p.int(0, 1), 'flag');
      for (const v of c.animated ? [0, 0, 0, 0] : c.values[0]!) w.f32(v);
    });
  });
  for (const k of pool) for (const v of k) w.f32(v);
  return { bytes: w.finish(), fields: w.fields };
}

/** The `.n2` script of an `nskinanimator` with `joints` joints and `clips` clips. */
export function n2Text(p: Params, joints: number, clips: number): string {
  const lines = ['# ---', '# $parser:ntclserver$ $class:ntransformnode$', '', 'new nskinanimator skinanimator', '\tsel skinanimator', '\t\t.setanim "anims:fuzz.nax2"', '\t\t.setlooptype "loop"', `\t\t.beginjoints ${joints}`];
  for (let j = 0; j < joints; j++) {
    const parent = j === 0 ? -1 : p.rng.int(-1, j - 1);
    const t = [p.real(-1, 1, undefined, 6), p.real(-1, 1, undefined, 6), p.real(-1, 1, undefined, 6)];
    const q = p.quaternion();
    const s = [p.real(0.5, 2, undefined, 6), p.real(0.5, 2, undefined, 6), p.real(0.5, 2, undefined, 6)];
    lines.push(`\t\t.setjoint ${j} ${parent} ${[...t, ...q, ...s].map((v) => num(v)).join(' ')} "joint_${j}"`);
  }
  lines.push('\t\t.endjoints', `\t\t.beginclips ${clips}`);
  for (let c = 0; c < clips; c++) lines.push(`\t\t.setclip ${c} ${c} "clip_${c}"`);
  lines.push('\t\t.endclips', '\tsel ..', '# ---', '');
  return lines.join('\n');
}

/**
 * Argument types of the script commands `n2Binary` writes, by text name: fourcc and types (i int32,
 * f float32, s string; `?` marks an optional last argument), from the SDK's `*_cmds.cc` prototypes
 * (nskinanimator, nanimator, nblendshapeanimator, nblendshapenode, nscenenode).
 */
const BINARY_COMMANDS: Record<string, [string, string]> = {
  '.setanim': ['SANM', 's'],
  '.setlooptype': ['SLPT', 's'],
  '.setchannel': ['SCHN', 's'],
  '.beginjoints': ['BJNT', 'i'],
  '.setjoint': ['SJNT', 'iiffffffffffs?'],
  '.endjoints': ['EJNT', ''],
  '.addjointname': ['ADJN', 'is'],
  '.beginstates': ['BGST', 'i'],
  '.setstate': ['SSTT', 'iif'],
  '.setstatename': ['SSNM', 'is'],
  '.endstates': ['ENDS', ''],
  '.beginclips': ['BGCL', 'ii?'],
  '.setclip': ['STCL', 'iis'],
  '.endclips': ['EDCL', 'i?'],
  '.setanimation': ['SANI', 's'],
  '.setanimationgroup': ['SANG', 'i'],
  '.addanimator': ['ADDA', 's'],
  '.setmeshat': ['SMSA', 'is'],
  '.setweightat': ['SWEA', 'if'],
};

/**
 * The binary twin (`nbinscriptserver`, Teivaz/nebula2 src/script/nbinscriptserver_main.cc) of a
 * text `.n2` script as the generators and the SDK write it (one command per line, `"strings"`
 * without escapes, `#` comment lines): the int 'NOB0', the header string, then `_new` class name,
 * `_sel` path, or fourcc + int16 argument length + arguments. Commands not in the table are written
 * with the fourcc `XTRA` and their words as strings, which readers skip by their length.
 */
export function n2Binary(text: string, littleEndian = true): { bytes: Uint8Array; fields: Field[] } {
  const w = new FieldWriter(littleEndian);
  const int = (s: string) => w.i32(fourcc(s), 'flag');
  const str = (s: string, into: FieldWriter = w) => {
    into.u16(s.length, 'count');
    into.text(s);
  };
  int('NOB0');
  str('$parser:nbinscriptserver$ $class:ntransformnode$');
  for (const line of text.split(/\r?\n/)) {
    const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    if (words.length === 0 || words[0]!.startsWith('#')) continue;
    const [head, ...args] = words as [string, ...string[]];
    if (head === 'new') {
      int('_new');
      str(args[0]!);
      str(args[1]!);
      continue;
    }
    if (head === 'sel') {
      int('_sel');
      str(args[0]!);
      continue;
    }
    const [code, types] = BINARY_COMMANDS[head] ?? ['XTRA', 's'.repeat(args.length)];
    const body = new FieldWriter(littleEndian);
    args.forEach((a, i) => {
      const t = types.replace(/\?/g, '')[i];
      if (t === 'i') body.i32(Number(a), 'index');
      else if (t === 'f') body.f32(Number(a));
      else str(a, body);
    });
    const bytes = body.finish();
    int(code);
    w.i16(bytes.length, 'count');
    w.bytes(bytes);
  }
  return { bytes: w.finish(), fields: w.fields };
}

/** A fourcc as the SDK's multi-character constant: 'SJNT' is 0x534a4e54. */
function fourcc(s: string): number {
  return ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) | 0;
}

/**
 * A `.n2` scene script whose `nblendshapenode` of `shapes` shapes is driven by an
 * `nblendshapeanimator` playing `animation` (group `group`), as nblendshapenode_cmds.cc and
 * nblendshapeanimator_cmds.cc save them.
 */
export function blendShapeN2Text(animation: string, shapes: number, group = 0): string {
  const lines = ['# $parser:ntclserver$ $class:ntransformnode$', 'new ntransformnode model', '\tsel model', '\tnew nblendshapenode face', '\t\tsel face'];
  for (let i = 0; i < Math.min(shapes, 8); i++) lines.push(`\t\t.setmeshat ${i} "meshes:face_${i}.nvx2"`, `\t\t.setweightat ${i} 0.000000`);
  lines.push('\t\t.addanimator "facial"', '\t\tnew nblendshapeanimator facial', '\t\t\tsel facial', '\t\t\t.setchannel "time"', '\t\t\t.setlooptype "loop"');
  lines.push(`\t\t\t.setanimation "${animation}"`, `\t\t\t.setanimationgroup ${group}`, '\t\t\tsel ..', '\t\tsel ..', '\tsel ..', '');
  return lines.join('\n');
}

/** A `.constants` XML with one CharacterNode of `joints` joints. */
export function constantsText(p: Params, joints: number): string {
  const rows = [];
  for (let j = 0; j < joints; j++) {
    const parent = j === 0 ? -1 : p.rng.int(-1, j - 1);
    const t = [p.real(-1, 1, undefined, 6), p.real(-1, 1, undefined, 6), p.real(-1, 1, undefined, 6), 0];
    const q = p.quaternion();
    const s = [p.real(0.5, 2, undefined, 6), p.real(0.5, 2, undefined, 6), p.real(0.5, 2, undefined, 6), 0];
    const list = (v: number[]) => v.map((x) => num(x)).join(',');
    rows.push(`        <Joint name="joint_${j}" index="${j}" parent="${parent}" position="${list(t)}" rotation="${list(q)}" scale="${list(s)}" />`);
  }
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<Nebula3>',
    '  <Model name="fuzz">',
    '    <CharacterNodes>',
    '      <CharacterNode name="character" animation="ani:fuzz.nax3">',
    ...rows,
    '      </CharacterNode>',
    '    </CharacterNodes>',
    '  </Model>',
    '</Nebula3>',
    '',
  ].join('\n');
}

/** A `.nanim2`: the text twin of a layout B file (keys after each group's curves). */
function nanim2Text(p: Params, joints: number): string {
  const groups = nax2Groups(p, joints);
  const lines = ['type nanim2', `numgroups ${groups.length}`];
  const body: string[] = [];
  let pool = 0;
  for (const g of groups) {
    const animated = g.curves.filter((c) => c.animated);
    body.push(`group ${g.curves.length} 0 ${g.keys} ${animated.length} ${num(g.keyTime)} 0.000000 ${g.loop === 1 ? 'repeat' : 'clamp'}`);
    let a = 0;
    for (const c of g.curves) {
      const value = c.animated ? [0, 0, 0, 0] : c.values[0]!;
      const ipol = c.animated ? (c.kind === 'rotation' ? 'quat' : 'linear') : 'none';
      body.push(`curve ${ipol} ${c.animated ? pool + a++ : -1} ${c.animated ? 1 : 0} ${value.map((v) => num(v)).join(' ')}`);
    }
    for (let k = 0; k < g.keys; k++) for (const c of animated) body.push(`key ${c.values[k]!.map((v) => num(v)).join(' ')}`);
    pool += g.keys * animated.length;
  }
  lines.push(`numkeys ${pool}`, ...body, '');
  return lines.join('\n');
}

const NAX3_CODES: Record<CurveSpec['kind'], number> = { translation: 0, scale: 1, rotation: 2, velocity: 4, weight: 5 };

/** A `.nax3` ('NA01'), little- or big-endian: clips with events and T, R, S, V curves per joint. */
function nax3Bytes(p: Params, joints: number, littleEndian: boolean): { bytes: Uint8Array; fields: Field[] } {
  const w = new FieldWriter(littleEndian);
  w.text(littleEndian ? '10AN' : 'NA01');
  const clips = Array.from({ length: p.int(1, 3, [0]) }, () => {
    const keys = p.int(1, 6, [0, 1, 300]);
    return {
      keys,
      duration: p.pick([40, 33, 100, 17], [0, 1, 65535]),
      pre: p.int(0, 1, [2, 255]),
      post: p.int(0, 1, [2, 255]),
      events: Array.from({ length: p.int(0, 2, [30]) }, () => p.int(0, Math.max(0, keys - 1), [65535, keys])),
      curves: curves(p, joints, keys, ['translation', 'rotation', 'scale', 'velocity']),
    };
  });
  const pool: number[][] = [];
  const firsts = clips.map((c) => {
    const animated = c.curves.filter((x) => x.animated);
    const base = pool.length;
    for (let k = 0; k < c.keys; k++) for (const x of animated) pool.push(x.values[k]!);
    let a = 0;
    return c.curves.map((x) => (x.animated ? base + a++ : 0));
  });
  w.u32(clips.length, 'count');
  w.u32(pool.length, 'count');
  clips.forEach((c, ci) => {
    w.u16(c.curves.length, 'count');
    w.u16(0, 'index');
    w.u16(c.keys, 'count');
    w.u16(c.curves.filter((x) => x.animated).length, 'index');
    w.u16(c.duration, 'time');
    w.u8(c.pre, 'flag');
    w.u8(c.post, 'flag');
    w.u16(c.events.length, 'count');
    w.text(`clip_${ci}`, 50);
    c.events.forEach((k, e) => {
      w.text(`event_${e}`, 47);
      w.text('fuzz', 15);
      w.u16(k, 'index');
    });
    c.curves.forEach((x, i) => {
      w.u32(firsts[ci]![i]!, 'index');
      w.u8(x.animated ? 1 : p.int(0, 1), 'flag');
      w.u8(x.animated ? 0 : 1, 'flag');
      w.u8(NAX3_CODES[x.kind], 'flag');
      w.u8(0, 'flag');
      for (const v of x.animated ? [0, 0, 0, 0] : x.values[0]!) w.f32(v);
    });
  });
  for (const k of pool) for (const v of k) w.f32(v);
  return { bytes: w.finish(), fields: w.fields };
}

const nax2Target =
  (layout: 'A' | 'B' | 'C', mutate: 'main' | 'skeleton'): Generator =>
  (p) => {
    const joints = p.int(1, 4, [0, 1, 40]);
    const skeleton: Record<string, FuzzFile> = p.rng.chance(mutate === 'skeleton' ? 1 : 0.6) ? { skeleton: textFile('fuzz.n2', n2Text(p, joints, 3)) } : {};
    return { main: { name: 'fuzz.nax2', ...nax2Bytes(p, layout, joints) }, companions: skeleton, mutated: mutate };
  };

/** A blend-shape nax2 (layout B; `shapes` weight curves per group) and the `.n2` whose animator plays it, text or binary. */
const blendShapeTarget =
  (mutate: 'main' | 'skeleton'): Generator =>
  (p) => {
    const shapes = p.int(1, 8, [0, 1, 40]);
    const script = blendShapeN2Text('anims:fuzz.nax2', shapes, p.int(0, 1, [5]));
    const skeleton = p.rng.chance(0.5) ? { name: 'face.n2', ...n2Binary(script, p.rng.chance(0.8)) } : textFile('face.n2', script);
    return { main: { name: 'fuzz.nax2', ...nax2Bytes(p, 'B', shapes, ['weight']) }, companions: { skeleton }, mutated: mutate };
  };

/** A skin nax2 with its `.n2` skeleton in the binary form, the skeleton mutated. */
const binaryN2Target: Generator = (p) => {
  const joints = p.int(1, 4, [0, 1, 40]);
  const skeleton = { name: 'fuzz.n2', ...n2Binary(n2Text(p, joints, 3), p.rng.chance(0.8)) };
  return { main: { name: 'fuzz.nax2', ...nax2Bytes(p, 'B', joints) }, companions: { skeleton }, mutated: 'skeleton' };
};

const nax3Target =
  (mutate: 'main' | 'skeleton', littleEndian: boolean): Generator =>
  (p) => {
    const joints = p.int(1, 4, [0, 1, 40]);
    const skeleton: Record<string, FuzzFile> = p.rng.chance(mutate === 'skeleton' ? 1 : 0.6) ? { skeleton: textFile('fuzz.constants', constantsText(p, joints)) } : {};
    return { main: { name: 'fuzz.nax3', ...nax3Bytes(p, joints, littleEndian) }, companions: skeleton, mutated: mutate };
  };

const nanim2Target: Generator = (p) => {
  const joints = p.int(1, 4, [0, 1, 40]);
  const skeleton: Record<string, FuzzFile> = p.rng.chance(0.5) ? { skeleton: textFile('fuzz.n2', n2Text(p, joints, 3)) } : {};
  return { main: textFile('fuzz.nanim2', nanim2Text(p, joints)), companions: skeleton, mutated: 'main' };
};

export const NEBULA_TARGETS: Record<string, Generator> = {
  'nax2-A': nax2Target('A', 'main'),
  'nax2-B': nax2Target('B', 'main'),
  'nax2-C': nax2Target('C', 'main'),
  'nax3-le': nax3Target('main', true),
  'nax3-be': nax3Target('main', false),
  nanim2: nanim2Target,
  n2: nax2Target('B', 'skeleton'),
  'n2-binary': binaryN2Target,
  'nax2-blend': blendShapeTarget('main'),
  'n2-blend': blendShapeTarget('skeleton'),
  constants: nax3Target('skeleton', true),
};
