import { FormatError } from '../../errors.js';
import { latin1 } from '../binary.js';
import { describeNumber, parseFloatStrict, parseIntStrict } from '../text-numbers.js';
import { quote, splitLines } from '../text.js';

/** One meaningful line of a Meteor text file: its 1-based number and its tokens. */
export interface TextLine {
  /** 1-based line number in the file. */
  no: number;
  /** The line without its comment, trimmed. */
  text: string;
  /** `text` split on spaces and tabs. */
  tokens: string[];
}

/** The UTF-8 byte order mark, which Windows editors put at the start of text files. */
const BOM = [0xef, 0xbb, 0xbf];

/**
 * The non-empty lines of a Meteor text file (`.bnc`, `.pos`, `.skc`; spec meteor.md §4–§6).
 * Bytes are decoded one to one (latin-1): only ASCII keywords matter, and comments after `#` may
 * be in any encoding (Big5 in `P0.pos`, PROVENANCE.md) — they are dropped. A leading UTF-8 BOM is
 * skipped; LF, CRLF and CR-only endings, spaces and tabs are all accepted (as the Nebula text
 * readers do, and as .NET's `StreamReader.ReadLine` the game reads with).
 */
export function textLines(bytes: Uint8Array): TextLine[] {
  const out: TextLine[] = [];
  const bom = BOM.every((b, i) => bytes[i] === b);
  splitLines(latin1(bom ? bytes.subarray(BOM.length) : bytes)).forEach((raw, i) => {
    const hash = raw.indexOf('#');
    const text = (hash < 0 ? raw : raw.slice(0, hash)).trim();
    if (text !== '') out.push({ no: i + 1, text, tokens: text.split(/[ \t]+/) });
  });
  return out;
}

/**
 * A cursor over `TextLine`s for the Meteor text readers: typed value parsing that throws
 * `FormatError`s naming the line and what was expected.
 */
export class LineCursor {
  private at = 0;

  constructor(
    readonly format: string,
    readonly lines: TextLine[],
    /** The last line number of the file, for errors at the end. */
    readonly lastLine: number,
  ) {}

  static of(format: string, bytes: Uint8Array): LineCursor {
    const lines = textLines(bytes);
    return new LineCursor(format, lines, lines.length > 0 ? lines[lines.length - 1]!.no : 1);
  }

  get done(): boolean {
    return this.at >= this.lines.length;
  }

  peek(): TextLine | undefined {
    return this.lines[this.at];
  }

  /** The next line; `what` says what was expected when the file ends first. */
  next(what: string): TextLine {
    const line = this.lines[this.at++];
    if (!line) this.fail('truncated', this.lastLine, `expected ${what}, found the end of the file`);
    return line;
  }

  fail(code: string, line: number, message: string): never {
    throw new FormatError(this.format, code, { line }, message);
  }

  /** The next line, which must be exactly `{`. */
  open(owner: string): void {
    const line = this.next(`'{' after ${owner}`);
    if (line.text !== '{') this.fail('expected-brace', line.no, `expected '{' after ${owner}, found ${quote(line.text)}`);
  }

  /** `line` must have `count` values after its keyword. */
  values(line: TextLine, count: number): string[] {
    const v = line.tokens.slice(1);
    if (v.length !== count) {
      this.fail('bad-value', line.no, `${quote(line.tokens[0]!)} takes ${count} value(s), found ${v.length} in ${quote(line.text)}`);
    }
    return v;
  }

  /** A decimal integer (leading zeros allowed: `link 034` is 34), at most ±2^53. */
  int(token: string | undefined, line: TextLine, what: string): number {
    return parseIntStrict(token) ?? this.fail('bad-number', line.no, `${what}: ${describeNumber(token, 'integer')}`);
  }

  /** A decimal number within the float32 range. */
  float(token: string | undefined, line: TextLine, what: string): number {
    return parseFloatStrict(token) ?? this.fail('bad-number', line.no, `${what}: ${describeNumber(token, 'number')}`);
  }

  /**
   * A count of items that take at least `linesEach` lines each, checked against the lines left
   * before anything is allocated for them: a negative count, or one the rest of the file cannot
   * hold, is a `FormatError` (`bad-count`) on `line`.
   */
  count(token: string | undefined, line: TextLine, what: string, linesEach = 1): number {
    const n = this.int(token, line, what);
    const left = this.lines.length - this.at;
    if (n < 0 || n * linesEach > left) {
      this.fail('bad-count', line.no, `${what} ${n} ${n < 0 ? 'is negative' : `needs ${n * linesEach} lines, the file has ${left} more`}`);
    }
    return n;
  }

  /** `count` numbers after the keyword of `line`. */
  floats(line: TextLine, count: number): number[] {
    return this.values(line, count).map((t) => this.float(t, line, line.tokens[0]!));
  }
}
