import { LineCursor, type TextLine } from './text-lines.js';
import { quote } from '../text.js';

/** A `.skc` material (spec meteor.md §5). */
export interface SkcMaterial {
  texture: string;
  /** r g b a. */
  colorKey: [number, number, number, number];
  ambient: [number, number, number];
  diffuse: [number, number, number];
  specular: [number, number, number];
  emissive: [number, number, number];
  opacity: number;
  /** `NONE` or `ALPHA`. */
  option: string;
  twoSide: boolean;
}

/** One `Static Skin` mesh, bind pose in file space (Z-up; the `.bnc` T-pose world space). */
export interface SkcSkin {
  name: string;
  materials: SkcMaterial[];
  vertexCount: number;
  /** x y z per vertex. */
  positions: Float32Array;
  /** u v per vertex. */
  uvs: Float32Array;
  /** Most bone influences of any vertex (the stride of `joints` and `weights`). */
  influences: number;
  /** `influences` bone indices (`.bnc` bone order) per vertex, unused slots 0. */
  joints: Uint16Array;
  /** `influences` weights per vertex, unused slots 0; each vertex sums to 1. */
  weights: Float32Array;
  /** Material index per triangle. */
  triangleMaterials: Uint16Array;
  /** 3 vertex indices per triangle, in file winding. */
  indices: Uint32Array;
}

/** A parsed Meteor `.skc` file: its skinned meshes in file order (spec meteor.md §5). */
export interface SkcDocument {
  skins: SkcSkin[];
}

const MATERIAL_KEYS = ['Texture', 'ColorKey', 'Ambient', 'Diffuse', 'Specular', 'Emissive', 'Opacity', 'Option', 'TwoSide'] as const;

/**
 * Reads a `.skc` skinned mesh (spec meteor.md §5, SKCLoader.cs `ReadEach`): `Static Skins: n
 * Dynamic Skins: 0`, then per static skin `Static Skin <name> { Materials: k, k × Material,
 * Vertices: n, n × "v x y z vt u v Bones k i₁ w₁ … i_k w_k", Triangles: t, t × "f 3 <material> a b
 * c" }`.
 * @throws FormatError (format `skc`, with the line) for missing blocks or braces, unknown
 *   keywords, bad numbers, dynamic skins, vertex or material indices out of range, and counts
 *   (skins, materials, vertices, triangles) that are negative or more than the lines left can hold,
 *   checked before anything is allocated for them
 */
export function readSkc(bytes: Uint8Array): SkcDocument {
  const c = LineCursor.of('skc', bytes);
  const head = c.next('"Static Skins: <n> Dynamic Skins: <m>"');
  const t = head.tokens;
  if (t.length !== 6 || t[0] !== 'Static' || t[1] !== 'Skins:' || t[3] !== 'Dynamic' || t[4] !== 'Skins:') {
    c.fail('bad-header', head.no, `expected "Static Skins: <n> Dynamic Skins: <m>", found ${quote(head.text)}`);
  }
  // A skin takes at least 6 lines: its head, two braces, Materials:, Vertices: and Triangles:.
  const count = c.count(t[2], head, 'static skin count', 6);
  if (c.int(t[5], head, 'dynamic skin count') !== 0) c.fail('unsupported', head.no, 'dynamic skins are not supported');
  const skins: SkcSkin[] = [];
  for (let i = 0; i < count; i++) skins.push(readSkin(c));
  const extra = c.peek();
  if (extra) c.fail('trailing-data', extra.no, `expected the end of the file after ${count} skin(s), found ${quote(extra.text)}`);
  return { skins };
}

function keyword(c: LineCursor, what: string, key: string): TextLine {
  const line = c.next(what);
  if (line.tokens[0] !== key) c.fail('unknown-keyword', line.no, `expected ${what}, found ${quote(line.text)}`);
  return line;
}

function readSkin(c: LineCursor): SkcSkin {
  const head = keyword(c, '"Static Skin <name>"', 'Static');
  if (head.tokens[1] !== 'Skin' || head.tokens.length !== 3) c.fail('bad-value', head.no, `expected "Static Skin <name>", found ${quote(head.text)}`);
  const name = head.tokens[2]!;
  c.open(`Static Skin ${quote(name)}`);
  const mLine = keyword(c, '"Materials: <k>"', 'Materials:');
  const materials: SkcMaterial[] = [];
  for (let m = c.count(c.values(mLine, 1)[0], mLine, 'material count', 1 + MATERIAL_KEYS.length); m > 0; m--) materials.push(readMaterial(c));
  const vLine = keyword(c, '"Vertices: <n>"', 'Vertices:');
  const n = c.count(c.values(vLine, 1)[0], vLine, 'vertex count');
  const rows: { line: TextLine; influences: number }[] = [];
  let influences = 0;
  for (let v = 0; v < n; v++) {
    const line = keyword(c, `vertex ${v} ("v x y z vt u v Bones k …")`, 'v');
    const tk = line.tokens;
    if (tk[4] !== 'vt' || tk[7] !== 'Bones') c.fail('bad-value', line.no, `expected "v x y z vt u v Bones k …", found ${quote(line.text)}`);
    const k = c.int(tk[8], line, 'influence count');
    if (k < 1 || tk.length !== 9 + 2 * k) c.fail('bad-value', line.no, `vertex ${v}: ${k} influences need ${9 + 2 * k} tokens, found ${tk.length}`);
    influences = Math.max(influences, k);
    rows.push({ line, influences: k });
  }
  const positions = new Float32Array(3 * n);
  const uvs = new Float32Array(2 * n);
  const joints = new Uint16Array(influences * n);
  const weights = new Float32Array(influences * n);
  rows.forEach(({ line, influences: k }, v) => {
    const tk = line.tokens;
    for (let a = 0; a < 3; a++) positions[3 * v + a] = c.float(tk[1 + a], line, 'position');
    for (let a = 0; a < 2; a++) uvs[2 * v + a] = c.float(tk[5 + a], line, 'uv');
    let sum = 0;
    for (let j = 0; j < k; j++) {
      // The game parses bone indices as floats and truncates (SKCLoader.cs L255–317).
      const bone = Math.trunc(c.float(tk[9 + 2 * j], line, 'bone index'));
      if (bone < 0 || bone > 0xffff) c.fail('bad-value', line.no, `bone index ${bone} is out of range`);
      joints[influences * v + j] = bone;
      // Stored as float32 (and used so): 1e-46 is 0 there, and must count as 0 in the sum below.
      const weight = Math.fround(c.float(tk[10 + 2 * j], line, 'bone weight'));
      if (!(weight >= 0)) c.fail('bad-value', line.no, `vertex ${v}: bone weight ${weight} is negative; expected weights ≥ 0 that sum to 1`);
      weights[influences * v + j] = weight;
      sum += weight;
    }
    // Spec meteor.md §5: a vertex's weights sum to 1; a zero sum binds it to no bone at all.
    if (sum === 0) c.fail('bad-value', line.no, `vertex ${v}: bone weights sum to 0; expected a sum of 1`);
  });
  const tLine = keyword(c, '"Triangles: <t>"', 'Triangles:');
  const tc = c.count(c.values(tLine, 1)[0], tLine, 'triangle count');
  const triangleMaterials = new Uint16Array(tc);
  const indices = new Uint32Array(3 * tc);
  for (let f = 0; f < tc; f++) {
    const line = keyword(c, `triangle ${f} ("f 3 <material> a b c")`, 'f');
    const [three, mat, ...abc] = c.values(line, 5);
    if (three !== '3') c.fail('bad-value', line.no, `expected a vertex count of 3, found ${quote(three!)}`);
    const material = c.int(mat, line, 'material index');
    if (material < 0 || material >= materials.length) c.fail('bad-value', line.no, `material index ${material}; the skin has ${materials.length} material(s)`);
    triangleMaterials[f] = material;
    abc.forEach((s, i) => {
      const index = c.int(s, line, 'vertex index');
      if (index < 0 || index >= n) c.fail('bad-value', line.no, `vertex index ${index} is outside 0…${n - 1}`);
      indices[3 * f + i] = index;
    });
  }
  const close = c.next(`'}' closing Static Skin ${quote(name)}`);
  if (close.text !== '}') c.fail('expected-brace', close.no, `expected '}' closing Static Skin ${quote(name)}, found ${quote(close.text)}`);
  return { name, materials, vertexCount: n, positions, uvs, influences, joints, weights, triangleMaterials, indices };
}

function readMaterial(c: LineCursor): SkcMaterial {
  keyword(c, '"Material"', 'Material');
  const v: Partial<Record<(typeof MATERIAL_KEYS)[number], TextLine>> = {};
  for (const key of MATERIAL_KEYS) v[key] = keyword(c, `"${key} …"`, key);
  const nums = (key: (typeof MATERIAL_KEYS)[number], count: number) => c.floats(v[key]!, count);
  const option = c.values(v.Option!, 1)[0]!;
  const twoSide = c.values(v.TwoSide!, 1)[0]!;
  if (twoSide !== 'TRUE' && twoSide !== 'FALSE') c.fail('bad-value', v.TwoSide!.no, `TwoSide is TRUE or FALSE, found ${quote(twoSide)}`);
  return {
    texture: v.Texture!.tokens.slice(1).join(' '),
    colorKey: nums('ColorKey', 4) as SkcMaterial['colorKey'],
    ambient: nums('Ambient', 3) as SkcMaterial['ambient'],
    diffuse: nums('Diffuse', 3) as SkcMaterial['diffuse'],
    specular: nums('Specular', 3) as SkcMaterial['specular'],
    emissive: nums('Emissive', 3) as SkcMaterial['emissive'],
    opacity: nums('Opacity', 1)[0]!,
    option,
    twoSide: twoSide === 'TRUE',
  };
}
