// Mutators of the fuzzer (issue 13): one field of a well-formed binary file set to an extreme,
// byte-level damage, and for text files hostile tokens (huge numbers, long runs of digits, long
// tokens), a BOM, CR-only / CRLF / mixed line endings and line edits.
import type { Field } from './fields.js';
import type { FuzzFile } from './input.js';
import { isGltfFile, mutateGltfJson } from './mutate-gltf.js';
import type { Rng } from './rng.js';

const INT_EXTREMES = [0, 1, -1, 2, 3, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 0x7fffffff, -0x80000000, 0xffffffff, 0x10000000];
const FLOAT_EXTREMES = [NaN, Infinity, -Infinity, 3.4028234e38, -3.4028234e38, 1e-45, -0, 0, 1e20, -1e20, 1e30, 1.7e38, 1e-38, 65536];

/** Sets `field` of `bytes` to an extreme of its type (or its value ± 1 for counts and indices). */
function setFieldExtreme(bytes: Uint8Array, field: Field, rng: Rng): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = field.littleEndian;
  if (field.type === 'f32') {
    const v = rng.pick(FLOAT_EXTREMES);
    view.setFloat32(field.offset, v, le);
    return `f32@${field.offset}=${v}`;
  }
  let v: number;
  if ((field.role === 'count' || field.role === 'index') && rng.chance(0.3)) {
    const current = field.type === 'u8' ? view.getUint8(field.offset) : field.type.endsWith('16') ? view.getInt16(field.offset, le) : view.getInt32(field.offset, le);
    v = current + rng.pick([-1, 1, -2, 2]);
  } else {
    v = rng.pick(INT_EXTREMES);
  }
  switch (field.type) {
    case 'u8':
      view.setUint8(field.offset, v & 0xff);
      break;
    case 'i16':
    case 'u16':
      view.setUint16(field.offset, v & 0xffff, le);
      break;
    default:
      view.setUint32(field.offset, v >>> 0, le);
  }
  return `${field.type}(${field.role})@${field.offset}=${v}`;
}

function byteDamage(bytes: Uint8Array, rng: Rng): { bytes: Uint8Array; what: string } {
  const n = bytes.length;
  switch (rng.int(0, 5)) {
    case 0: {
      const out = bytes.slice();
      const flips = rng.int(1, 8);
      for (let i = 0; i < flips && n > 0; i++) out[rng.int(0, n - 1)]! ^= 1 << rng.int(0, 7);
      return { bytes: out, what: `flip ${flips} bits` };
    }
    case 1: {
      const out = bytes.slice();
      const sets = rng.int(1, 4);
      for (let i = 0; i < sets && n > 0; i++) out[rng.int(0, n - 1)] = rng.pick([0, 0xff, 0x7f, 0x80, 0x20, 0x0a, 0x0d]);
      return { bytes: out, what: `set ${sets} bytes` };
    }
    case 2: {
      const at = rng.int(0, n);
      return { bytes: bytes.slice(0, at), what: `truncate at ${at}` };
    }
    case 3: {
      const extra = new Uint8Array(rng.int(1, 64)).map(() => (rng.chance(0.5) ? 0 : rng.int(0, 255)));
      const at = rng.int(0, n);
      return { bytes: concat(bytes.subarray(0, at), extra, bytes.subarray(at)), what: `insert ${extra.length} bytes at ${at}` };
    }
    case 4: {
      const at = rng.int(0, n);
      const len = rng.int(1, 64);
      return { bytes: concat(bytes.subarray(0, at), bytes.subarray(Math.min(n, at + len))), what: `delete ${len} bytes at ${at}` };
    }
    default: {
      const at = rng.int(0, n);
      const len = Math.min(rng.int(1, 256), n - at);
      return { bytes: concat(bytes.subarray(0, at + len), bytes.subarray(at, at + len), bytes.subarray(at + len)), what: `duplicate ${len} bytes at ${at}` };
    }
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Tokens that broke text readers before (issue 13 item 1) or that sit at a boundary of the grammar. */
function hostileToken(rng: Rng): string {
  switch (rng.int(0, 9)) {
    case 0:
      return '7'.repeat(rng.int(1000, 200_000)) + rng.pick(['x', 'e', '.', 'e+', '']);
    case 1:
      return rng.pick(['1', '-', '.', '0.']) + '0'.repeat(rng.int(10, 5000)) + rng.pick(['1', 'e5', 'e-99999', '']);
    case 2:
      return 'a'.repeat(rng.int(1000, 150_000));
    case 3:
      return rng.pick(['1e39', '-1e39', '3.4028236e38', '1e-300', '1e-46', '-0', '+0', '1e308', '2e308', '4.9e-324']);
    case 4:
      return rng.pick(['NaN', 'nan', 'Infinity', '-Infinity', 'inf', '1.#INF', '1.#QNAN', '0x10', '1,5', '1_000']);
    case 5:
      return rng.pick(['2147483647', '2147483648', '-2147483649', '4294967296', '9007199254740993', '99999999999999999999', '-1', '0', '1000000000']);
    case 6:
      return rng.pick(['.', '-', '+', 'e5', '', '""', '"', '{', '}', '#', '=', ',', '\t', '\u00a0', '\u0000']);
    case 7:
      return String(rng.int(-5, 5)) + rng.pick(['', '.5', 'e1', 'e9', 'e30']);
    case 8:
      return `"${'x'.repeat(rng.int(0, 100_000))}`;
    default:
      return rng.pick(['0', '1', '-1', '65535', '65536', '1e9']);
  }
}

function textDamage(text: string, rng: Rng): { text: string; what: string } {
  const lines = text.split(/\r\n|\n|\r/);
  switch (rng.int(0, 8)) {
    case 0:
    case 1:
    case 2: {
      // Replace a token (numbers more often: they carry counts, indices and values).
      const spans = [...text.matchAll(/[^\s,="]+/g)];
      if (spans.length === 0) return { text: text + hostileToken(rng), what: 'append token' };
      const numeric = spans.filter((m) => /^[-+]?[\d.]/.test(m[0]));
      const m = numeric.length > 0 && rng.chance(0.7) ? rng.pick(numeric) : rng.pick(spans);
      const token = hostileToken(rng);
      return { text: text.slice(0, m.index) + token + text.slice(m.index! + m[0].length), what: `token ${JSON.stringify(m[0])} → ${describe(token)}` };
    }
    case 3: {
      const eol = rng.pick(['\r', '\r\n', '\n\r', 'mixed']);
      const joined = eol === 'mixed' ? lines.map((l) => l + rng.pick(['\n', '\r', '\r\n'])).join('') : lines.join(eol);
      return { text: joined, what: `line endings ${JSON.stringify(eol)}` };
    }
    case 4:
      return rng.chance(0.7)
        ? { text: '\xef\xbb\xbf' + text, what: 'UTF-8 BOM' }
        : { text: rng.pick(['\xff\xfe', '\xfe\xff', '\xef\xbb']) + text, what: 'other BOM' };
    case 5: {
      const i = rng.int(0, Math.max(0, lines.length - 1));
      const op = rng.int(0, 3);
      if (op === 0) lines.splice(i, 1);
      else if (op === 1) lines.splice(i, 0, lines[i] ?? '');
      else if (op === 2 && i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
      // Repeated up to about 2 MB: enough for counts far beyond the real files, small enough to fuzz fast.
      else lines.splice(i, 0, ...new Array(Math.min(rng.int(100, 20_000), Math.ceil(2e6 / ((lines[i]?.length ?? 0) + 1)))).fill(lines[i] ?? ''));
      return { text: lines.join('\n'), what: `line ${i + 1} ${['dropped', 'doubled', 'swapped', 'repeated'][op]}` };
    }
    case 6: {
      const i = rng.int(0, lines.length);
      lines.splice(i, 0, rng.pick([' '.repeat(rng.int(1000, 100_000)), '#' + 'c'.repeat(rng.int(1000, 100_000)), '\t\t', '{', '}', '\u0000']));
      return { text: lines.join('\n'), what: `line inserted at ${i + 1}` };
    }
    case 7: {
      // Latin-1 text: any byte may appear (Big5 comments in real .pos files).
      const at = rng.int(0, text.length);
      return { text: text.slice(0, at) + String.fromCharCode(rng.int(0x80, 0xff)) + text.slice(at), what: `high byte at ${at}` };
    }
    default: {
      const at = rng.int(0, text.length);
      return { text: text.slice(0, at), what: `truncate at ${at}` };
    }
  }
}

function describe(token: string): string {
  return token.length > 24 ? `${JSON.stringify(token.slice(0, 12))}… (${token.length} chars)` : JSON.stringify(token);
}

/** One mutation of `file`; returns the new file and what was done. */
export function mutateFile(file: FuzzFile, rng: Rng): { file: FuzzFile; what: string } {
  if (isGltfFile(file) && rng.chance(0.5)) {
    const mutated = mutateGltfJson(file, rng);
    if (mutated) return mutated;
  }
  if (file.text && rng.chance(0.85)) {
    const { text, what } = textDamage(Buffer.from(file.bytes).toString('latin1'), rng);
    return { file: { ...file, bytes: new Uint8Array(Buffer.from(text, 'latin1')) }, what };
  }
  if (file.fields && file.fields.length > 0 && rng.chance(0.6)) {
    const bytes = file.bytes.slice();
    const what = setFieldExtreme(bytes, rng.pick(file.fields), rng);
    // Offsets stay valid: the size did not change.
    return { file: { ...file, bytes }, what };
  }
  const { bytes, what } = byteDamage(file.bytes, rng);
  // After a size change the recorded offsets no longer hold.
  return { file: { name: file.name, bytes, ...(file.text && { text: true }) }, what };
}
