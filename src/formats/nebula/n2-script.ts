import { FormatError, type FormatErrorLocation } from '../../errors.js';
import { ByteReader, latin1 } from '../binary.js';
import { splitLines } from '../text.js';

const FORMAT = 'n2';

/**
 * One command of a Nebula2 `.n2` script, as the text form writes it: `new <class> <name>`,
 * `sel <path>`, or `.<command> <args…>` on the selected object; arguments as text (numbers as
 * their decimal form), `where` the line (text) or byte offset (binary) for errors.
 */
export interface ScriptCommand {
  head: string;
  args: string[];
  where: FormatErrorLocation;
}

/** The commands of a text `.n2` script (nPersistServer with ntclserver): one per line, `#` lines are comments. */
export function textCommands(text: string): ScriptCommand[] {
  const out: ScriptCommand[] = [];
  splitLines(text).forEach((raw, i) => {
    const tokens = tokenize(raw, i + 1);
    if (tokens.length > 0) out.push({ head: tokens[0]!, args: tokens.slice(1), where: { line: i + 1 } });
  });
  return out;
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

/**
 * Whether `bytes` are a binary script (`nbinscriptserver`): the int 'NOB0', which a little-endian
 * machine writes as the bytes "0BON" (a big-endian one as "NOB0").
 */
export function isNbinscript(bytes: Uint8Array): boolean {
  const magic = latin1(bytes.subarray(0, 4));
  return magic === '0BON' || magic === 'NOB0';
}

/** An argument type of a command prototype (`nCmdProto`): i int32, f float32, s string (u16 length + bytes). */
type ArgType = 'i' | 'f' | 's';

/**
 * The commands the skeleton and blend-shape readers use, by fourcc, with their text name and the
 * argument lists they take (the prototypes of nskinanimator_cmds.cc, nanimator_cmds.cc,
 * nblendshapeanimator_cmds.cc, nblendshapenode_cmds.cc and nscenenode_cmds.cc in the Nebula2 SDK,
 * trunk/nebula2/code/nebula2/src/scene/). Where SDK versions differ (`setjoint` with the joint name
 * from 2005 on, `beginclips`/`endclips` of the state and clip syntaxes), each list is tried and the
 * one that uses exactly the command's argument bytes is taken. Other fourccs are skipped by their
 * length, as nBinScriptServer::ReadBlock skips commands an object does not know.
 */
const COMMANDS: Record<string, { name: string; args: readonly (readonly ArgType[])[] }> = {
  SANM: { name: '.setanim', args: [['s']] },
  SLPT: { name: '.setlooptype', args: [['s']] },
  SCHN: { name: '.setchannel', args: [['s']] },
  BJNT: { name: '.beginjoints', args: [['i']] },
  SJNT: { name: '.setjoint', args: [['i', 'i', 'f', 'f', 'f', 'f', 'f', 'f', 'f', 'f', 'f', 'f'], ['i', 'i', 'f', 'f', 'f', 'f', 'f', 'f', 'f', 'f', 'f', 'f', 's']] },
  EJNT: { name: '.endjoints', args: [[]] },
  ADJN: { name: '.addjointname', args: [['i', 's']] },
  BGST: { name: '.beginstates', args: [['i']] },
  SSTT: { name: '.setstate', args: [['i', 'i', 'f']] },
  SSNM: { name: '.setstatename', args: [['i', 's']] },
  ENDS: { name: '.endstates', args: [[]] },
  BGCL: { name: '.beginclips', args: [['i'], ['i', 'i']] },
  STCL: { name: '.setclip', args: [['i', 'i', 's']] },
  EDCL: { name: '.endclips', args: [[], ['i']] },
  SANI: { name: '.setanimation', args: [['s']] },
  SANG: { name: '.setanimationgroup', args: [['i']] },
  ADDA: { name: '.addanimator', args: [['s']] },
  SMSA: { name: '.setmeshat', args: [['i', 's']] },
  SWEA: { name: '.setweightat', args: [['i', 'f']] },
};

/** A fourcc as the SDK spells it: the int's bytes from the most significant one ('SJNT'). */
function fourcc(v: number): string {
  return String.fromCharCode(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}

/**
 * The commands of a binary `.n2` script (Teivaz/nebula2 trunk/nebula2/code/nebula2/src/script/
 * nbinscriptserver_main.cc): the int 'NOB0', a header string (`$parser:nbinscriptserver$
 * $class:<class>$`), then blocks to the end of the file, each an int fourcc: '_new' with the class
 * and object name strings, '_sel' with a relative path string, or a command's fourcc, its
 * arguments' byte length (int16) and the arguments (int32, float32, or u16-length strings, in the
 * machine's byte order, told by the magic). Known commands (`COMMANDS`) become the text form's
 * commands; others are skipped.
 * @throws FormatError (format `n2`, with the byte offset) for a bad magic, a negative or overlong
 *   argument length, arguments that fit none of a command's prototypes, truncation
 */
export function binaryCommands(bytes: Uint8Array): ScriptCommand[] {
  const r = new ByteReader(bytes, FORMAT, true);
  const magic = latin1(r.raw(4, 'the magic'));
  if (magic !== '0BON' && magic !== 'NOB0') r.fail('bad-magic', `expected the nbinscript magic "0BON", found ${JSON.stringify(magic)}`, 0);
  r.littleEndian = magic === '0BON';
  string(r, 'the header string');
  const out: ScriptCommand[] = [];
  while (r.remaining > 0) {
    const at = r.offset;
    const code = fourcc(r.u32('a command fourcc'));
    if (code === '_new') {
      out.push({ head: 'new', args: [string(r, '_new class'), string(r, '_new object name')], where: { offset: at } });
    } else if (code === '_sel') {
      out.push({ head: 'sel', args: [string(r, '_sel path')], where: { offset: at } });
    } else {
      const lengthAt = r.offset;
      const length = r.i16(`command '${code}' argument length`);
      if (length < 0) r.fail('bad-count', `command '${code}' has a negative argument length ${length}`, lengthAt);
      r.need(length, `command '${code}' arguments`);
      const args = r.raw(length, `command '${code}' arguments`);
      const known = COMMANDS[code];
      if (known) out.push({ head: known.name, args: decodeArgs(args, r.littleEndian, known.args, `${known.name} ('${code}')`, lengthAt + 2), where: { offset: at } });
    }
  }
  return out;
}

function string(r: ByteReader, what: string): string {
  const n = r.u16(`${what} length`);
  return latin1(r.raw(n, what));
}

/** The arguments of one command as text, by the first prototype that uses exactly their bytes. */
function decodeArgs(bytes: Uint8Array, littleEndian: boolean, prototypes: readonly (readonly ArgType[])[], what: string, offset: number): string[] {
  for (const types of prototypes) {
    const r = new ByteReader(bytes, FORMAT, littleEndian);
    try {
      const args = types.map((t, i) => (t === 'i' ? String(r.i32(`argument ${i}`)) : t === 'f' ? float32Text(r.f32(`argument ${i}`)) : string(r, `argument ${i}`)));
      if (r.remaining === 0) return args;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  throw new FormatError(FORMAT, 'bad-arguments', { offset }, `${what}: ${bytes.length} argument bytes fit none of its argument lists (${prototypes.map((p) => p.join('') || 'none').join(', ')})`);
}

/**
 * The shortest decimal that reads back as the float32 `v` (at most 9 significant digits suffice):
 * what ntclserver's text form writes for a value becomes the text reader's number again, so a
 * binary script gives the same joints as its text twin (0.941381, not 0.9413809776306152).
 * NaN and ±Infinity stay as `String` writes them, which the number parser refuses.
 */
function float32Text(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Object.is(v, -0)) return '-0';
  for (let digits = 1; digits < 9; digits++) {
    const text = v.toPrecision(digits);
    if (Math.fround(Number(text)) === v) return String(Number(text));
  }
  return String(Number(v.toPrecision(9)));
}
