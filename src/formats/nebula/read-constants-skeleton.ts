import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FormatError } from '../../errors.js';
import type { Joint } from '../../anim/index.js';
import { describeNumber, parseFloatStrict, parseIntStrict } from '../text-numbers.js';
import { quote, shorten } from '../text.js';

const FORMAT = 'constants';

/** The skeleton of a Nebula3 / Trifid model `.constants` XML file. */
export interface ConstantsSkeleton {
  /** Joints in `index` order; a nax3 clip's curves 4j … 4j+3 (T, R, S, Velocity) drive joint j. */
  joints: Joint[];
  /** The CharacterNode's `name` attribute. */
  characterNode: string;
  /** The CharacterNode's `animation` attribute (e.g. `ani:Units/Unit_Footman.nax3`); `null` when absent. */
  animation: string | null;
  /** The Model's `name` attribute; `null` when absent. */
  model: string | null;
}

type XmlNode = Record<string | symbol, unknown>;

/**
 * Reads the joints of the first `<CharacterNode>` of a Nebula3 `.constants` file
 * (`<Nebula3><Model><CharacterNodes><CharacterNode>`; e.g. `Unit_Footman.constants`). Each
 * `<Joint name index parent position rotation scale>` has comma-separated numbers:
 * `position` "x,y,z[,w]", `rotation` quaternion "x,y,z,w", `scale` "x,y,z[,w]" (the w of position
 * and scale is ignored; a missing `scale` means 1,1,1). Joints may be listed in any order but their
 * indices must be exactly 0..N−1, and each parent must be −1 or a smaller index.
 *
 * Throws `FormatError` (format `constants`, with the 1-based `line`) for XML that is not well formed
 * (via fast-xml-parser's validator), a missing CharacterNode or joint list, a missing attribute, a
 * number that is not strictly decimal, or bad indices/parents.
 */
export function readConstantsSkeleton(text: string): ConstantsSkeleton {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new FormatError(FORMAT, 'bad-xml', { line: valid.err.line }, `not well-formed XML: ${shorten(valid.err.msg, 160)}`);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    captureMetaData: true,
    isArray: (name) => name === 'CharacterNode' || name === 'Joint' || name === 'Model' || name === 'CharacterNodes',
  });
  let doc: XmlNode;
  try {
    doc = parser.parse(text) as XmlNode;
  } catch (e) {
    throw new FormatError(FORMAT, 'bad-xml', { line: 1 }, `not well-formed XML: ${shorten((e as Error).message, 160)}`);
  }
  const meta = XMLParser.getMetaDataSymbol() as symbol;
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  /** 1-based line of an element's start tag (fast-xml-parser `captureMetaData` start index). */
  const lineOf = (node: unknown): number => {
    const m = (node as XmlNode | undefined)?.[meta] as { startIndex?: number } | undefined;
    if (m?.startIndex === undefined) return 1;
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid]! < m.startIndex) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };

  const root = obj(doc['Nebula3']);
  const models = arr(root?.['Model']);
  let characterNode: XmlNode | undefined;
  let model: XmlNode | undefined;
  for (const m of models) {
    for (const group of arr(obj(m)?.['CharacterNodes'])) {
      const first = arr(obj(group)?.['CharacterNode'])[0];
      if (first && !characterNode) {
        characterNode = obj(first);
        model = obj(m);
      }
    }
  }
  if (!characterNode) {
    throw new FormatError(FORMAT, 'no-character-node', { line: 1 }, 'expected <Nebula3><Model><CharacterNodes><CharacterNode> with joints');
  }
  const nodeLine = lineOf(characterNode);
  const jointNodes = arr(characterNode['Joint']).map(obj);
  if (jointNodes.length === 0) throw new FormatError(FORMAT, 'no-joints', { line: nodeLine }, 'the CharacterNode has no <Joint> elements');

  const byIndex = new Array<Joint | undefined>(jointNodes.length).fill(undefined);
  for (const node of jointNodes) {
    const line = lineOf(node);
    const fail = (code: string, message: string): never => {
      throw new FormatError(FORMAT, code, { line }, message);
    };
    if (!node) return fail('bad-joint', '<Joint> must be an element with attributes');
    const attr = (name: string, required = true): string | undefined => {
      const v = node[name];
      if (v === undefined && !required) return undefined;
      if (typeof v !== 'string') return fail('missing-attribute', `<Joint> needs a "${name}" attribute`);
      return v;
    };
    const name = attr('name')!;
    const joint = `joint ${quote(name)}`;
    const index = parseIntStrict(attr('index')) ?? fail('bad-number', `${joint}: index: ${describeNumber(attr('index'), 'integer')}`);
    const parent = parseIntStrict(attr('parent')) ?? fail('bad-number', `${joint}: parent: ${describeNumber(attr('parent'), 'integer')}`);
    const vec = (attrName: string, counts: number[], fallback?: number[]): number[] => {
      const raw = attr(attrName, fallback === undefined);
      if (raw === undefined) return fallback!;
      const parts = raw.split(',').map((p) => p.trim());
      if (!counts.includes(parts.length)) fail('bad-value', `${joint}: ${attrName} ${quote(raw)} needs ${counts.join(' or ')} numbers`);
      return parts.map((p) => parseFloatStrict(p) ?? fail('bad-number', `${joint}: ${attrName}: ${describeNumber(p, 'number')}`));
    };
    const t = vec('position', [3, 4]);
    const q = vec('rotation', [4]);
    const s = vec('scale', [3, 4], [1, 1, 1]);
    if (index < 0 || index >= byIndex.length) fail('bad-value', `${joint}: index ${index} is outside 0..${byIndex.length - 1}`);
    if (byIndex[index]) fail('bad-value', `joint index ${index} appears twice`);
    if (parent < -1 || parent >= index) fail('bad-value', `${joint} (index ${index}): parent ${parent} must be −1 or a smaller index`);
    byIndex[index] = {
      name,
      parent,
      rest: { translation: [t[0]!, t[1]!, t[2]!], rotation: [q[0]!, q[1]!, q[2]!, q[3]!], scale: [s[0]!, s[1]!, s[2]!] },
    };
  }
  const cnName = characterNode['name'];
  const cnAnim = characterNode['animation'];
  const modelName = model?.['name'];
  return {
    joints: byIndex as Joint[],
    characterNode: typeof cnName === 'string' ? cnName : '',
    animation: typeof cnAnim === 'string' ? cnAnim : null,
    model: typeof modelName === 'string' ? modelName : null,
  };
}

function obj(v: unknown): XmlNode | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as XmlNode) : undefined;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
}
