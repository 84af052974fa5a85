// Generators of valid Meteor character sets (spec meteor.md §3–§6): a .amb with its .bnc
// skeleton, .pos pose table, optional .skc skin and optional character.amb.
import { type Field, FieldWriter } from './fields.js';
import { type FuzzFile, type Generator, num, type Params, textFile } from './input.js';

interface Character {
  bones: number;
  /** Dummy parent tags as the .amb stores them (and the .bnc names them). */
  dummyParents: string[];
}

function character(p: Params): Character {
  const bones = p.int(1, 5, [1, 40]);
  const dummies = p.int(0, 3, [0, 12]);
  // d_base (dummy 0) is the one root, as in real characters; more roots are an extreme.
  const dummyParents = Array.from({ length: dummies }, (_, d) => (d === 0 || p.pick([false], [true]) ? 'NULL' : `b${p.rng.int(0, bones - 1)}`));
  return { bones, dummyParents };
}

/** `.amb`: BANIM, counts, fps, then `frames` records of 20 + 16·B + 33·D bytes (§3). */
function ambBytes(p: Params, c: Character, first: number, frames: number): { bytes: Uint8Array; fields: Field[] } {
  const w = new FieldWriter(true);
  w.text('BANIM');
  w.i32(c.bones, 'count');
  w.i32(c.dummyParents.length, 'count');
  w.i32(frames, 'count');
  w.i32(p.int(30, 30, [1, 2, 1000, 0x7fffffff]), 'time');
  for (let f = 0; f < frames; f++) {
    w.i32(p.pick([-1], [0, 1]), 'flag');
    w.i32(first + f, 'index');
    for (let a = 0; a < 3; a++) w.f32(p.real(-50, 50));
    for (let b = 0; b < c.bones; b++) for (const v of p.quaternion()) w.f32(v);
    for (const tag of c.dummyParents) {
      w.text(tag, 5);
      for (let a = 0; a < 3; a++) w.f32(p.real(-50, 50));
      for (const v of p.quaternion()) w.f32(v);
    }
  }
  return { bytes: w.finish(), fields: w.fields };
}

function bncText(p: Params, c: Character): string {
  const lines = ['', '# Character Bone Export (fuzz)', `Bones: ${c.bones} Dummey: ${c.dummyParents.length}`];
  const block = (keyword: string, name: string, parent: string, children: boolean) => {
    const [x, y, z, w] = p.quaternion();
    lines.push(`${keyword} ${name}`, '{', `  parent ${parent}`, `  pivot ${[0, 0, 0].map(() => num(p.real(-30, 30), 3)).join(' ')}`, `  quaternion ${[w, x, y, z].map((v) => num(v!, 5)).join(' ')}`);
    if (children) lines.push(`  children ${p.rng.int(0, 3)}`);
    lines.push('}');
  };
  for (let b = 0; b < c.bones; b++) {
    const parent = b === 0 ? (c.dummyParents.length > 0 ? p.pick(['d_base'], ['NULL']) : 'NULL') : p.rng.chance(0.5) ? `bone_${p.rng.int(0, b - 1)}` : `b${p.rng.int(0, b - 1)}`;
    block('bone', `bone_${b}`, parent, true);
  }
  c.dummyParents.forEach((tag, d) => block('Dummey', d === 0 ? 'd_base' : `dummy_${d}`, tag, false));
  lines.push('');
  return lines.join('\n');
}

function posText(p: Params, c: Character, first: number, frames: number, shared: { first: number; frames: number } | null): string {
  const lines: string[] = [];
  const poses = p.int(1, 4, [0, 1, 30]);
  for (let n = 0; n < poses; n++) {
    lines.push(`Pose ${n}`);
    if (p.rng.chance(0.1)) {
      lines.push('{}');
      continue;
    }
    const source = shared && p.rng.chance(0.4) ? 0 : 1;
    const range = source === 0 ? shared! : { first, frames };
    const start = p.int(range.first, range.first + range.frames - 1, [range.first - 1, 0, -5, 2147483647]);
    const end = p.int(start, range.first + range.frames - 1, [start, start - 1, range.first + range.frames, 2147483647]);
    // The 1.07 release writes a pose's source on its brace line, where the game does not read it.
    if (source === 0 && p.rng.chance(0.2)) lines.push('{  source     0', `  Start      ${start}`, `  End        ${end}`);
    else lines.push('{', `  source     ${source}`, `  Start      ${start}`, `  End        ${end}`);
    if (p.rng.chance(0.5)) lines.push(`  LoopStart  ${p.int(start, end)}`, `  LoopEnd    ${end}`);
    lines.push('  EffectType 0', '  EffectID   0');
    if (p.rng.chance(0.3)) lines.push(`  link       ${p.rng.int(0, poses)}`);
    for (const kind of ['Blend', 'Action']) {
      if (!p.rng.chance(0.4)) continue;
      const s = p.int(start, end);
      lines.push(`  ${kind}`, '  {', `    start ${s}`, `    end   ${p.int(s, end)}`, `    speed ${num(p.real(0.5, 2, [0, -1, 1e-30, 1e-300, 1e30, 3e38]), 3)}`, '  }');
    }
    if (p.rng.chance(0.3)) {
      const bones = Array.from({ length: p.rng.int(1, 3) }, () => `"bone ${p.rng.int(0, c.bones - 1)}"`);
      lines.push('  Attack', '  {', `    bone = ${bones.join(', ')}`, `    Start       ${p.int(start, end)}`, `    End         ${p.int(start, end)}`, '    AttackType  1', '    CheckFriend 0', `    TargetValue ${num(p.real(0, 5), 1)}`, '    TargetMove  3', '    TargetPose  096', '  }');
    }
    if (p.rng.chance(0.2)) lines.push('  Drag', '  {', `    Start ${p.int(start, end)}`, `    End ${end}`, `    Time ${num(p.real(0, 1), 2)}`, '    Color 255,128,0', '  }');
    if (p.rng.chance(0.2)) lines.push('  NextPose', '  {', `    start ${start}`, `    end ${end}`, `    Time ${num(p.real(0, 1), 2)}`, '  }');
    lines.push('}');
  }
  lines.push('');
  return lines.join('\n');
}

function skcText(p: Params, c: Character): string {
  const n = p.int(3, 8, [0, 1, 300]);
  const t = p.int(1, 4, [0, 1000]);
  const lines = ['# Character Skin Export (fuzz)', 'Static Skins: 1 Dynamic Skins: 0', 'Static Skin S_01', '{', '  Materials: 1', '  Material'];
  lines.push('    Texture p0.bmp', '    ColorKey 0 0 0 0', '    Ambient 1.000 1.000 1.000', '    Diffuse 1.000 1.000 1.000', '    Specular 0.000 0.000 0.000', '    Emissive 0.000 0.000 0.000', '    Opacity 1.000', '    Option NONE', '    TwoSide FALSE');
  lines.push(`  Vertices: ${n}`);
  for (let v = 0; v < n; v++) {
    const k = p.rng.int(1, 2);
    const w0 = k === 1 ? 1 : p.real(0.1, 0.9, [0, 1e-30], 5);
    const influences = k === 1 ? [[p.rng.int(0, c.bones - 1), 1]] : [[p.rng.int(0, c.bones - 1), w0], [p.rng.int(0, c.bones - 1), 1 - w0]];
    const pos = [0, 0, 0].map(() => num(p.real(-30, 30), 5));
    lines.push(`    v ${pos.join(' ')} vt ${num(p.real(0, 1), 3)} ${num(p.real(0, 1), 3)} Bones ${k} ${influences.map(([b, w]) => `${b} ${num(w!, 5)}`).join(' ')}`);
  }
  lines.push(`  Triangles: ${t}`);
  for (let f = 0; f < t; f++) lines.push(`    f 3 0 ${[0, 1, 2].map(() => p.rng.int(0, Math.max(0, n - 1))).join(' ')}`);
  lines.push('}', '');
  return lines.join('\n');
}

const meteorTarget =
  (mutated: 'main' | 'bnc' | 'pos' | 'skc' | 'characterAmb'): Generator =>
  (p) => {
    const c = character(p);
    const first = p.int(1, 1, [0, -2147483648, 2147483000]);
    const frames = p.int(2, 12, [0, 1]);
    const shared = mutated === 'characterAmb' || p.rng.chance(0.3) ? { first: p.int(100, 100, [0, 1]), frames: p.int(2, 12, [1]) } : null;
    const companions: Record<string, FuzzFile> = {
      bnc: textFile('fuzz.bnc', bncText(p, c)),
      pos: textFile('fuzz.pos', posText(p, c, first, frames, shared)),
    };
    if (mutated === 'skc' || p.rng.chance(0.3)) companions.skc = textFile('fuzz.skc', skcText(p, c));
    if (shared) companions.characterAmb = { name: 'character.amb', ...ambBytes(p, c, shared.first, shared.frames) };
    return { main: { name: 'fuzz.amb', ...ambBytes(p, c, first, frames) }, companions, mutated };
  };

export const METEOR_TARGETS: Record<string, Generator> = {
  amb: meteorTarget('main'),
  bnc: meteorTarget('bnc'),
  pos: meteorTarget('pos'),
  skc: meteorTarget('skc'),
  'character-amb': meteorTarget('characterAmb'),
};
